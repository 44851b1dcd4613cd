#pragma once
// "cmaes": pagmo2's CMA-ES on the genome (continuous samples, rounded and clamped to the genes; see
// pagmo_bridge.hpp). One generation per evolve call with pagmo's `memory` on, so the mean, step size
// and covariance carry over between chunks. pagmo's own stopping tests (x and f tolerance 1e-6) end
// a restart — e.g. a population that is all invalid is flat in fitness — and a new random population
// starts over (a restart strategy in the spirit of IPOP-CMA-ES, without the growing population).
#include "search/optimizer.hpp"

#include <cstdint>

namespace sparsemap::search {

struct CmaesParameters {
    // lambda; Hansen's default 4 + 3 ln(n) is 14-15 for our 30-50 genes. mu = lambda / 2.
    int populationSize = 16;
    // Initial step size relative to each gene's range (pagmo's default): wide, since the first
    // population is uniformly random.
    double sigma0 = 0.5;
    // A new random population when the best has not improved for this many evaluations (0 = never).
    std::int64_t stallEvaluations = 5000;
};

class CmaesSearch : public Optimizer {
public:
    // Throws std::invalid_argument on a bad parameter.
    explicit CmaesSearch(CmaesParameters parameters = {});
    std::string name() const override { return "cmaes"; }
    void run(SearchContext& context) override;

private:
    CmaesParameters m_parameters;
};

} // namespace sparsemap::search
