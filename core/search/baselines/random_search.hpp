#pragma once
// "random": uniformly random genomes, evaluated in batches — the reference every method must beat.
#include "search/optimizer.hpp"

namespace sparsemap::search {

struct RandomParameters {
    int batchSize = 100; // genomes per batch (one convergence entry each); evaluated in parallel
};

class RandomSearch : public Optimizer {
public:
    // Throws std::invalid_argument when batchSize < 1.
    explicit RandomSearch(RandomParameters parameters = {});
    std::string name() const override { return "random"; }
    void run(SearchContext& context) override;

private:
    RandomParameters m_parameters;
};

} // namespace sparsemap::search
