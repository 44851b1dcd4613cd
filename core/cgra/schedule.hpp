#pragma once
// A modulo schedule of a block's s-DFG: the scheduled graph D' (with the COPs, multicast copies and
// adder trees the scheduler chose), a scheduling time t(v) per node and the initiation interval II;
// the modulo time is m(v) = t(v) mod II.
#include "cgra/sdfg.hpp"

#include <string>
#include <vector>

namespace sparsemap::cgra {

struct Schedule {
    Sdfg graph;
    std::vector<int> time; // t(v) per node of `graph`
    int ii = 1;

    int modulo(int node) const { return time[std::size_t(node)] % ii; }
    int length() const; // last scheduling time + 1
    int copCount() const { return graph.count(NodeKind::Cop); }
    int multicastCount() const; // Mul-CI copies of input readings
    // MCIDs: internal dependencies (v1, v2) with t(v2) - t(v1) > 1. (The paper's Table 1 prints
    // t(v1) - t(v2) > 1, which no internal dependency can satisfy because t(v2) - t(v1) >= 1.)
    std::vector<int> mcidEdges() const;
    int mcidCount() const { return int(mcidEdges().size()); }
};

// A plain-text modulo reservation table: one row per modulo slot, the PE operations, input buses and
// output buses used in it, then the MCIDs.
std::string scheduleText(const Schedule& schedule, const CgraSpec& cgra);

} // namespace sparsemap::cgra
