#pragma once
// What the surrogate predicts (paper 4.1.3): not EDP alone but a vector of statistics - energy at
// every storage level, compute energy, total energy and cycles - each divided by its algorithmic
// minimum (paper App. A: every input read once and the output written once at every level, and
// every effectual MAC busy every cycle), then taken as a logarithm, because the statistics of random
// designs span orders of magnitude. EDP is then energy x cycles, i.e. a sum of two outputs.
#include "genome/genome_layout.hpp"
#include "model/evaluation_result.hpp"

#include <vector>

namespace sparsemap::search {

struct AlgorithmicMinimum {
    std::vector<double>
        levelEnergyPj;          // per storage level: nonzeros of the inputs read once + output written once
    double computeEnergyPj = 0; // effectual MACs x MAC energy
    double energyPj = 0;        // the sum of the above
    double cycles = 0;          // effectual MACs / MAC units (100% utilization)
    double edp() const { return energyPj * cycles; }
};

// For the layout's workload (its unpadded sizes; input nonzeros = size x the density spec's
// density; the output counted dense) on its architecture. Every entry is positive: a level without
// energy entries, or a workload without MACs, falls back to a tiny positive value so that ratios stay
// finite.
AlgorithmicMinimum algorithmicMinimum(const GenomeLayout& layout);

// The statistics vector of a valid result: [log(level energy / minimum) per storage level,
// log(compute energy / minimum), log(energy / minimum), log(cycles / minimum)].
std::vector<double> costStatistics(const model::EvaluationResult& result, const AlgorithmicMinimum& minimum);
inline int statisticsCount(const GenomeLayout& layout)
{
    return layout.architecture().levelCount() + 3;
}
inline int energyStatistic(const GenomeLayout& layout)
{
    return layout.architecture().levelCount() + 1;
}
inline int cyclesStatistic(const GenomeLayout& layout)
{
    return layout.architecture().levelCount() + 2;
}

} // namespace sparsemap::search
