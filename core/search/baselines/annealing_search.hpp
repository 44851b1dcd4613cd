#pragma once
// "sa": pagmo2's simulated annealing (Corana's adaptive-neighbourhood annealing) on the genome. It
// starts from the best of a few random genomes; one annealing schedule (start -> final temperature in
// `temperatureSteps` geometric steps) spans the budget left after them: the bin size is chosen so
// that the schedule's evaluations fill that budget. The fitness is log10(objective) (invalid designs
// sit far above any valid one and are never accepted from a valid point), so temperatures are in
// decades of the objective.
#include "search/optimizer.hpp"

namespace sparsemap::search {

struct AnnealingParameters {
    int initialSamples = 20;        // random genomes evaluated first; the annealing starts at the best
    double startTemperature = 1.0;  // a 10x worse design is accepted with probability 1/e
    double finalTemperature = 0.01; // ... a 2.3% worse one (0.01 decades) with 1/e
    int temperatureSteps = 10;      // pagmo's default number of temperature adjustments
    int rangeAdjustments = 1;       // neighbourhood-range adaptations per temperature (pagmo default)
    double startRange = 1.0;        // first neighbourhood: a gene's whole range (pagmo default)
    int reportEvery = 100;          // evaluations per convergence entry
};

class AnnealingSearch : public Optimizer {
public:
    // Throws std::invalid_argument on a bad parameter.
    explicit AnnealingSearch(AnnealingParameters parameters = {});
    std::string name() const override { return "sa"; }
    void run(SearchContext& context) override;

private:
    AnnealingParameters m_parameters;
};

} // namespace sparsemap::search
