#pragma once
// What Sparseloop printed in `timeloop-model.stats.txt`: the summary (cycles, energy) and, per level
// and tensor, the counts the model is compared with. Both layouts are read: the dense one ("Scalar
// reads", "Computes (total)", "Utilized capacity") and the sparse one ("Algorithmic / Actual / Gated /
// Skipped scalar reads", format accesses per rank, "Data tile shape"). In the dense layout the
// algorithmic and actual counts are the printed count and gated = skipped = 0.
#include "util/error.hpp" // InputError, thrown by the parsers

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sparsemap {

struct SparseloopAccessCounts {
    double algorithmic = 0;
    double actual = 0;
    double gated = 0;
    double skipped = 0;
};

// One rank's format counts as printed: "Rank r (metadata, payload): (m, p)".
struct SparseloopRankCounts {
    double metadata = 0;
    double payload = 0;
};

// Index r = the printed "Rank r": rank 0 is the innermost (the last rank listed in the format).
// Empty when the stats print `: 0` or nothing (no format).
using SparseloopRankList = std::vector<SparseloopRankCounts>;

struct SparseloopFormatCounts {
    SparseloopRankList actual, gated, skipped;
};

// One tensor at one storage level; counts are per instance, as printed.
struct SparseloopTensorStats {
    std::string name;
    bool streamed = false;            // printed `A (Streamed):`
    std::string densityDistribution;  // "Tile density distribution" (sparse layout)
    std::string representationFormat; // e.g. "uop uop b b", "none" (sparse layout)
    double partitionSize = 0;
    double tileShape = 0;                // "Data tile shape"; dense layout: "Utilized capacity"
    double utilizedCapacity = 0;         // "Max utilized data storage capacity"; dense: "Utilized capacity"
    SparseloopRankList formatCapacity;   // "Max utilized Repr format storage capacity"
    double utilizedInstances = 0;        // "(max)"
    double utilizedInstancesAverage = 0; // sparse layout only; dense: = max
    SparseloopAccessCounts reads, fills, updates;
    SparseloopFormatCounts formatReads, formatFills, formatUpdates;
    double temporalReductions = 0;
    double addressGenerations = 0;
    double energyPerInstancePj = 0;
    double energyPj = 0; // "Energy (total)"
    // Every single-line "key : number" of the block as printed (units dropped), for anything else.
    std::vector<std::pair<std::string, double>> values;
    std::optional<double> value(std::string_view key) const;
};

struct SparseloopLevelStats {
    std::string name;
    int timeloopLevel = 0; // the printed "Level n" (1 = innermost storage)
    double cycles = 0;
    double bandwidthThrottling = 1;
    std::vector<SparseloopTensorStats> tensors;
    // The SPECS lines as printed ("Instances" -> "4 (1*4)", "Data block size" -> "64", ...).
    std::vector<std::pair<std::string, std::string>> specs;

    const SparseloopTensorStats* tensor(std::string_view tensorName) const; // nullptr if absent
    double energyPj() const; // the sum of the tensors' "Energy (total)"
};

struct SparseloopComputeStats {
    std::string name;
    double utilizedInstances = 0;        // "(max)"
    double utilizedInstancesAverage = 0; // sparse layout only; dense: = max
    double cycles = 0;
    SparseloopAccessCounts computes; // dense layout: "Computes (total)" as algorithmic and actual
    double energyPj = 0;
};

struct SparseloopStats {
    double cycles = 0;      // Summary "Cycles:"
    double energyUj = 0;    // Summary "Energy: x uJ" (printed with 2 decimals)
    double energyPj = 0;    // energyUj x 1e6
    double gflops = 0;      // "GFLOPs (@1GHz)"
    double utilization = 0; // "Utilization"
    SparseloopComputeStats compute;
    std::vector<SparseloopLevelStats> levels; // outer to inner, as Architecture::levels (printed inner first)

    const SparseloopLevelStats* level(std::string_view levelName) const; // nullptr if absent
    // Compute energy + every level's energy, in pJ: the summary energy to the printed per-level
    // precision (networks cost 0 in these runs), much finer than the summary's 10 kpJ.
    double levelEnergySumPj() const;
};

// Throws InputError when the file cannot be read or has no "Summary Stats" with Cycles and Energy.
SparseloopStats parseSparseloopStats(const std::string& path);
SparseloopStats parseSparseloopStatsText(const std::string& text, const std::string& fileName = {});

} // namespace sparsemap
