#pragma once
// "de": pagmo2's differential evolution on the genome (continuous trial vectors, rounded and clamped
// to the genes; see pagmo_bridge.hpp). One generation per evolve call; the population is the state.
#include "search/optimizer.hpp"

#include <cstdint>

namespace sparsemap::search {

// pagmo's mutation variants 1..10: base vector / difference vectors / crossover.
enum class DeVariant {
    BestOneExp = 1,
    RandOneExp,
    RandToBestOneExp,
    BestTwoExp,
    RandTwoExp,
    BestOneBin,
    RandOneBin,
    RandToBestOneBin,
    BestTwoBin,
    RandTwoBin
};

// pagmo's defaults (Storn and Price's DE/rand/1/exp, F = 0.8, CR = 0.9) with 50 individuals:
// 400 generations in the paper's 20,000 evaluations.
struct DeParameters {
    int populationSize = 50;
    double weight = 0.8;    // F, the scale of the difference vector
    double crossover = 0.9; // CR
    DeVariant variant = DeVariant::RandOneExp;
    // A new random population when the best has not improved for this many evaluations (0 = never).
    std::int64_t stallEvaluations = 5000;
};

class DeSearch : public Optimizer {
public:
    // Throws std::invalid_argument on a bad parameter.
    explicit DeSearch(DeParameters parameters = {});
    std::string name() const override { return "de"; }
    void run(SearchContext& context) override;

private:
    DeParameters m_parameters;
};

} // namespace sparsemap::search
