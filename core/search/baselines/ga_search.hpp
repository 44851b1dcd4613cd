#pragma once
// "ga": pagmo2's simple genetic algorithm (sga) on the genome, the one pagmo method here that
// handles integer genes itself (every gene is declared integer). One generation per evolve call:
// selection, crossover, mutation, then the best `populationSize` of parents and children survive.
#include "search/optimizer.hpp"

#include <cstdint>

namespace sparsemap::search {

enum class GaCrossover { Exponential, Binomial, SinglePoint, Sbx };
enum class GaMutation { Uniform, Gaussian }; // on integer genes pagmo's polynomial mutation is uniform
enum class GaSelection { Tournament, Truncated };

// pagmo's defaults except the mutation rate, about one gene per child for our 30-50 gene genomes
// (pagmo's 0.02 is tuned for continuous problems).
struct GaParameters {
    int populationSize = 50;
    GaCrossover crossover = GaCrossover::Exponential; // copies a run of genes from the partner
    double crossoverRate = 0.9;
    double sbxDistributionIndex = 1; // Sbx only, in [1, 100]
    GaMutation mutation = GaMutation::Uniform;
    double mutationRate = 0.03; // per gene
    double gaussianWidth = 0.1; // Gaussian only: sigma as a fraction of the gene's range
    GaSelection selection = GaSelection::Tournament;
    int selectionSize = 2; // tournament size / truncation size
    // A new random population when the best has not improved for this many evaluations (0 = never).
    std::int64_t stallEvaluations = 5000;
};

class GaSearch : public Optimizer {
public:
    // Throws std::invalid_argument on a bad parameter.
    explicit GaSearch(GaParameters parameters = {});
    std::string name() const override { return "ga"; }
    void run(SearchContext& context) override;

private:
    GaParameters m_parameters;
};

} // namespace sparsemap::search
