#pragma once
// A storage hierarchy with spatial fan-out and compute: levels[0] is the outermost (DRAM), the last
// level feeds the MACs. Instances count every copy of a level in the whole accelerator, so the
// fan-out below level i is instances(i + 1) / instances(i) (the compute counts as level N).
#include "arch/energy_table.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sparsemap {

struct StorageLevel {
    std::string name;
    std::string technology = "SRAM"; // DRAM, SRAM or regfile: informational, shown in the GUI
    std::int64_t instances = 1;      // in the whole accelerator
    std::int64_t meshX = 0;          // columns of the instance grid (0: a square-ish default)
    std::int64_t capacityBits = 0;   // data capacity per instance; 0 = unbounded (DRAM)
    // Metadata capacity per instance; 0 = metadata shares the data capacity (SparseMap's PE buffer
    // and GLB), > 0 = a separate metadata store (as in Sparseloop's SRAM_MD class).
    std::int64_t metadataCapacityBits = 0;
    int wordBits = 8;          // bits per data word
    int metadataWordBits = 8;  // bits per metadata word
    int blockSize = 1;         // words per physical access
    double readBandwidth = 0;  // words per cycle per instance; 0 = unlimited
    double writeBandwidth = 0; // words per cycle per instance; 0 = unlimited
    EnergyTable energy;

    bool unbounded() const { return capacityBits == 0; }
    std::int64_t capacityWords() const { return wordBits > 0 ? capacityBits / wordBits : 0; }
    bool operator==(const StorageLevel&) const = default;
};

struct ComputeUnit {
    std::string name = "MAC";
    std::int64_t instances = 1; // MACs in the whole accelerator
    std::int64_t meshX = 0;
    int wordBits = 8;
    EnergyTable energy;
    bool operator==(const ComputeUnit&) const = default;
};

struct Architecture {
    std::string name;
    double clockGHz = 1.0;
    std::vector<StorageLevel> levels; // outer to inner
    ComputeUnit compute;

    int levelCount() const { return static_cast<int>(levels.size()); }
    int levelIndex(const std::string& name) const; // -1 if absent
    // Child instances per instance of level `level` (the compute below the last level).
    std::int64_t fanout(int level) const;
    bool operator==(const Architecture&) const = default;
};

// Semantic checks: at least one level (our own architecture files require two: io/architecture_io.cpp),
// positive sizes and word bits, instances that divide evenly, a bounded capacity for every level but the
// outermost, non-negative bandwidths and energies, grid widths (mesh_x) that divide the instances, and
// the limits of util/limits.hpp (level count, bandwidth range, energy per action).
std::vector<std::string> architectureProblems(const Architecture& arch);

// Bandwidths (words/cycle) and energies (pJ per action) the model can represent; the rules below say
// what is allowed, for messages.
bool bandwidthAllowed(double wordsPerCycle);
bool energyAllowed(double pj);
inline constexpr std::string_view kBandwidthRule = "allowed: 0 (unlimited) or 1e-09 to 1e+12 words/cycle";
inline constexpr std::string_view kEnergyRule = "allowed: 0 to 1e+12 pJ";

} // namespace sparsemap
