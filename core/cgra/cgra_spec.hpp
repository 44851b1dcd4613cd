#pragma once
// The streaming CGRA of the CGRA SparseMap paper (Ni et al., Fig. 1): an N x M PE array fed by M input
// buses (input bus j reaches the N PEs of column j) and drained by N output buses (output bus i collects
// from the M PEs of row i), per-PE local register files (LRF, which also hold the pre-loaded weights), a
// global register file (GRF) and a crossbar that may multicast one input datum onto several input buses.
#include <string>

namespace sparsemap::cgra {

struct CgraSpec {
    std::string name = "paper-4x4";
    int rows = 4;          // N: PE rows, also the number of output buses
    int cols = 4;          // M: PE columns, also the number of input buses
    int lrfCapacity = 8;   // registers per PE
    int grfCapacity = 8;   // registers shared by the array
    bool multicast = true; // crossbar can put one input datum on several input buses in one cycle

    int peCount() const { return rows * cols; }
    int inputBuses() const { return cols; }
    int outputBuses() const { return rows; }
    // A PE fed directly by an input bus sits in that bus's column.
    int busFanout() const { return rows; }
    bool operator==(const CgraSpec&) const = default;
};

// The evaluation platform of the paper (Section 5.1): 4 x 4 PEs, LRF 8, GRF 8, multicast on.
CgraSpec paperCgra();

// Largest array accepted: the conflict graph grows with the square of the PE count.
inline constexpr int kMaxCgraSide = 16;

// Throws InputError naming the field and the allowed range.
void validateCgra(const CgraSpec& cgra);

} // namespace sparsemap::cgra
