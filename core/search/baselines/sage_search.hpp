#pragma once
// "sage": SAGE-like search (paper V-D). The mapping is fixed and only the sparse strategy (15 format
// genes and the S/G genes) is explored, by a small elitist genetic algorithm: binary tournaments,
// uniform crossover, per-gene mutation (a gene is redrawn uniformly), (mu + lambda) survival. A child
// whose sparse genes were already evaluated is mutated again (a few times) rather than re-evaluated:
// the strategy space of one mapping is small enough for duplicates to eat a budget otherwise.
#include "search/optimizer.hpp"

#include <vector>

namespace sparsemap::search {

struct SageParameters {
    // The fixed permutation and tiling genes (genome order). Empty = outputStationaryMappingGenes.
    std::vector<int> mappingGenes;
    double bufferFill = 0.5;    // for the default mapping: share of a buffer its dense tiles may use
    int populationSize = 50;    // parents = children per generation
    int tournamentSize = 2;     // binary tournaments: mild pressure, keeps the 18 genes diverse
    double crossoverRate = 0.9; // uniform crossover; otherwise the child copies one parent
    double mutationRate = 0.06; // per sparse gene (about one of the 18 per child)
    int duplicateRetries = 10;  // extra mutations tried before a duplicate child is evaluated anyway
};

class SageSearch : public Optimizer {
public:
    // Throws std::invalid_argument on a bad parameter; run() throws std::invalid_argument before
    // evaluating anything when mappingGenes does not fit the layout.
    explicit SageSearch(SageParameters parameters = {});
    std::string name() const override { return "sage"; }
    void run(SearchContext& context) override;

private:
    SageParameters m_parameters;
};

} // namespace sparsemap::search
