#pragma once
// The Mind Mappings surrogate (paper 4.1): relaxed genome -> whitened input -> MLP -> whitened cost
// statistics. Inputs and outputs are whitened with the training set's mean and standard deviation
// (paper 4.1.2, 4.1.3). The search asks it for the predicted log objective and its gradient.
#include "search/mindmappings/cost_statistics.hpp"
#include "search/mindmappings/genome_relaxation.hpp"
#include "search/mindmappings/mlp.hpp"
#include "search/search_types.hpp"

#include <memory>

namespace sparsemap::search {

struct SurrogateParameters {
    // Hidden layer widths. The paper's 9 layers of up to 2048 neurons were trained on 10 M samples
    // on a server; a search here trains on a few thousand samples on a 2-core desktop, where three
    // tanh layers train in seconds.
    std::vector<int> hidden{128, 128, 64};
    MlpTraining training;
};

void validate(const SurrogateParameters& parameters); // throws std::invalid_argument

class Surrogate {
public:
    Surrogate(const GenomeLayout& layout, Objective objective, SurrogateParameters parameters = {});

    const GenomeRelaxation& relaxation() const { return m_relaxation; }
    const AlgorithmicMinimum& minimum() const { return m_minimum; }
    bool trained() const { return m_mlp != nullptr; }

    // Fits whitening and weights to `genomes` (valid designs) and their costStatistics rows. Throws
    // std::invalid_argument when there are no samples or the rows have the wrong width. Returns the
    // last epoch's mean loss (NaN if cancelled before any epoch).
    double train(const std::vector<Genome>& genomes, const std::vector<std::vector<double>>& statistics,
                 std::mt19937_64& rng, const MlpTrainingHooks& hooks = {});

    // Search coordinates: the whitened relaxed genome, and back.
    Eigen::VectorXd whiten(const Eigen::VectorXd& relaxed) const;
    Eigen::VectorXd unwhiten(const Eigen::VectorXd& whitened) const;
    const Eigen::VectorXd& inputScale() const { return m_inStd; }

    // log(objective / its algorithmic minimum) as predicted at the whitened point z, and its gradient
    // with respect to z when `gradient` is given.
    double predictLogObjective(const Eigen::VectorXd& z, Eigen::VectorXd* gradient = nullptr) const;
    // The predicted objective of a genome, in the model's units (pJ x cycles for EDP).
    double predictObjective(const Genome& genome) const;

private:
    Eigen::VectorXd objectiveWeights() const; // d log(objective) / d(whitened outputs)

    GenomeRelaxation m_relaxation;
    Objective m_objective;
    SurrogateParameters m_parameters;
    AlgorithmicMinimum m_minimum;
    std::unique_ptr<Mlp> m_mlp;
    Eigen::VectorXd m_inMean, m_inStd, m_outMean, m_outStd;
};

} // namespace sparsemap::search
