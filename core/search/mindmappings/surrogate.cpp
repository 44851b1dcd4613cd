#include "search/mindmappings/surrogate.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace sparsemap::search {

void validate(const SurrogateParameters& p)
{
    for (int h : p.hidden)
        if (h < 1)
            throw std::invalid_argument("mindmappings: every hidden layer needs at least one neuron");
    validate(p.training);
}

Surrogate::Surrogate(const GenomeLayout& layout, Objective objective, SurrogateParameters parameters)
    : m_relaxation(layout), m_objective(objective), m_parameters(std::move(parameters)),
      m_minimum(algorithmicMinimum(layout))
{
    validate(m_parameters);
}

namespace {

// Mean and standard deviation of every row; a constant row gets deviation 1 (whitening leaves it 0).
void rowMoments(const Eigen::MatrixXd& m, Eigen::VectorXd& mean, Eigen::VectorXd& std)
{
    mean = m.rowwise().mean();
    std = ((m.colwise() - mean).array().square().rowwise().mean()).sqrt().matrix();
    for (Eigen::Index i = 0; i < std.size(); ++i)
        if (!(std[i] > 1e-12))
            std[i] = 1;
}

} // namespace

double Surrogate::train(const std::vector<Genome>& genomes,
                        const std::vector<std::vector<double>>& statistics, std::mt19937_64& rng,
                        const MlpTrainingHooks& hooks)
{
    const auto& layout = m_relaxation.layout();
    const int outputs = statisticsCount(layout);
    if (genomes.empty() || genomes.size() != statistics.size())
        throw std::invalid_argument("mindmappings: the surrogate needs one statistics row per design");
    const auto n = static_cast<Eigen::Index>(genomes.size());
    Eigen::MatrixXd x(m_relaxation.size(), n), y(outputs, n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto& row = statistics[static_cast<std::size_t>(i)];
        if (static_cast<int>(row.size()) != outputs)
            throw std::invalid_argument("mindmappings: a statistics row has " + std::to_string(row.size()) +
                                        " values, expected " + std::to_string(outputs));
        x.col(i) = m_relaxation.relax(genomes[static_cast<std::size_t>(i)]);
        y.col(i) = Eigen::Map<const Eigen::VectorXd>(row.data(), outputs);
    }
    rowMoments(x, m_inMean, m_inStd);
    rowMoments(y, m_outMean, m_outStd);
    x = (x.colwise() - m_inMean).array().colwise() / m_inStd.array();
    y = (y.colwise() - m_outMean).array().colwise() / m_outStd.array();
    std::vector<int> sizes{m_relaxation.size()};
    sizes.insert(sizes.end(), m_parameters.hidden.begin(), m_parameters.hidden.end());
    sizes.push_back(outputs);
    m_mlp = std::make_unique<Mlp>(sizes, rng);
    return trainMlp(*m_mlp, x, y, m_parameters.training, rng, hooks);
}

Eigen::VectorXd Surrogate::whiten(const Eigen::VectorXd& relaxed) const
{
    return ((relaxed - m_inMean).array() / m_inStd.array()).matrix();
}

Eigen::VectorXd Surrogate::unwhiten(const Eigen::VectorXd& whitened) const
{
    return (whitened.array() * m_inStd.array()).matrix() + m_inMean;
}

Eigen::VectorXd Surrogate::objectiveWeights() const
{
    const auto& layout = m_relaxation.layout();
    Eigen::VectorXd w = Eigen::VectorXd::Zero(statisticsCount(layout));
    const int e = energyStatistic(layout), c = cyclesStatistic(layout);
    if (m_objective != Objective::Delay)
        w[e] = m_outStd[e];
    if (m_objective != Objective::Energy)
        w[c] = m_outStd[c];
    return w;
}

double Surrogate::predictLogObjective(const Eigen::VectorXd& z, Eigen::VectorXd* gradient) const
{
    if (!m_mlp)
        throw std::logic_error("mindmappings: the surrogate is not trained");
    const Eigen::VectorXd w = objectiveWeights();
    const Eigen::VectorXd out = m_mlp->forward(z).col(0);
    if (gradient)
        *gradient = m_mlp->inputGradient(z, w);
    const auto& layout = m_relaxation.layout();
    double value = w.dot(out);
    if (m_objective != Objective::Delay)
        value += m_outMean[energyStatistic(layout)];
    if (m_objective != Objective::Energy)
        value += m_outMean[cyclesStatistic(layout)];
    return value;
}

double Surrogate::predictObjective(const Genome& genome) const
{
    const double log = predictLogObjective(whiten(m_relaxation.relax(genome)));
    const double scale = m_objective == Objective::Edp      ? m_minimum.edp()
                         : m_objective == Objective::Energy ? m_minimum.energyPj
                                                            : m_minimum.cycles;
    return std::exp(log) * scale;
}

} // namespace sparsemap::search
