#include "search/mindmappings/mlp.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace sparsemap::search {

Mlp::Mlp(std::vector<int> sizes, std::mt19937_64& rng) : m_sizes(std::move(sizes))
{
    if (m_sizes.size() < 2)
        throw std::invalid_argument("mlp: needs at least an input and an output layer");
    for (int s : m_sizes)
        if (s < 1)
            throw std::invalid_argument("mlp: every layer needs at least one neuron, not " +
                                        std::to_string(s));
    for (std::size_t l = 0; l + 1 < m_sizes.size(); ++l) {
        const int in = m_sizes[l], out = m_sizes[l + 1];
        // Glorot-uniform keeps the variance of tanh activations about constant through the layers.
        const double limit = std::sqrt(6.0 / (in + out));
        std::uniform_real_distribution<double> draw(-limit, limit);
        Eigen::MatrixXd w(out, in);
        for (int j = 0; j < in; ++j)
            for (int i = 0; i < out; ++i)
                w(i, j) = draw(rng); // explicit order: the draw sequence is part of the seed's result
        m_weights.push_back(std::move(w));
        m_biases.push_back(Eigen::VectorXd::Zero(out));
    }
}

void Mlp::propagate(const Eigen::MatrixXd& x, std::vector<Eigen::MatrixXd>& activations) const
{
    if (x.rows() != inputSize())
        throw std::invalid_argument("mlp: input has " + std::to_string(x.rows()) + " rows, expected " +
                                    std::to_string(inputSize()));
    activations.resize(m_weights.size() + 1);
    activations[0] = x;
    for (std::size_t l = 0; l < m_weights.size(); ++l) {
        Eigen::MatrixXd z = m_weights[l] * activations[l];
        z.colwise() += m_biases[l];
        if (l + 1 < m_weights.size())
            z = z.array().tanh().matrix();
        activations[l + 1] = std::move(z);
    }
}

Eigen::MatrixXd Mlp::forward(const Eigen::MatrixXd& x) const
{
    std::vector<Eigen::MatrixXd> a;
    propagate(x, a);
    return std::move(a.back());
}

void Mlp::backward(const Eigen::MatrixXd& x, const Eigen::MatrixXd& outputGradient, Gradients& gradients,
                   Eigen::MatrixXd* inputGradient) const
{
    std::vector<Eigen::MatrixXd> a;
    propagate(x, a);
    const std::size_t layers = m_weights.size();
    gradients.weights.resize(layers);
    gradients.biases.resize(layers);
    Eigen::MatrixXd delta = outputGradient; // dLoss/dz of the current layer
    for (std::size_t l = layers; l-- > 0;) {
        gradients.weights[l].noalias() = delta * a[l].transpose();
        gradients.biases[l] = delta.rowwise().sum();
        if (l == 0 && !inputGradient)
            break;
        Eigen::MatrixXd back = m_weights[l].transpose() * delta;
        if (l > 0) // through tanh: d tanh(z) = 1 - tanh(z)^2, and a[l] = tanh(z)
            back.array() *= 1.0 - a[l].array().square();
        delta = std::move(back);
    }
    if (inputGradient)
        *inputGradient = std::move(delta);
}

Eigen::VectorXd Mlp::inputGradient(const Eigen::VectorXd& x, const Eigen::VectorXd& outputWeights) const
{
    Gradients unused;
    Eigen::MatrixXd g;
    backward(x, outputWeights, unused, &g);
    return g.col(0);
}

double huberLoss(const Eigen::MatrixXd& prediction, const Eigen::MatrixXd& target, double delta,
                 Eigen::MatrixXd* gradient)
{
    const Eigen::ArrayXXd r = (prediction - target).array();
    const Eigen::ArrayXXd a = r.abs();
    const Eigen::ArrayXXd loss = (a <= delta).select(0.5 * r.square(), delta * (a - 0.5 * delta));
    const double count = static_cast<double>(std::max<Eigen::Index>(1, prediction.size()));
    if (gradient) // mean over every entry (PyTorch's reduction='mean')
        *gradient = (r.max(-delta).min(delta) / count).matrix();
    return loss.sum() / count;
}

void validate(const MlpTraining& t)
{
    auto require = [](bool ok, const char* message) {
        if (!ok)
            throw std::invalid_argument(message);
    };
    require(t.epochs >= 1, "surrogate training: epochs must be at least 1");
    require(t.batchSize >= 1, "surrogate training: batchSize must be at least 1");
    require(t.learningRate > 0 && std::isfinite(t.learningRate),
            "surrogate training: learningRate must be positive");
    require(t.decayEvery >= 1, "surrogate training: decayEvery must be at least 1");
    require(t.decayFactor > 0 && t.decayFactor <= 1, "surrogate training: decayFactor must be in (0, 1]");
    require(t.momentum >= 0 && t.momentum < 1, "surrogate training: momentum must be in [0, 1)");
    require(t.huberDelta > 0, "surrogate training: huberDelta must be positive");
}

double trainMlp(Mlp& mlp, const Eigen::MatrixXd& x, const Eigen::MatrixXd& y, const MlpTraining& training,
                std::mt19937_64& rng, const MlpTrainingHooks& hooks)
{
    validate(training);
    if (x.cols() != y.cols() || y.rows() != mlp.outputSize())
        throw std::invalid_argument("mlp: inputs and targets disagree in sample count or width");
    const auto n = static_cast<int>(x.cols());
    if (n == 0)
        return std::nan("");
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    Mlp::Gradients g, velocity;
    for (int l = 0; l < mlp.layerCount(); ++l) {
        velocity.weights.push_back(Eigen::MatrixXd::Zero(mlp.weights(l).rows(), mlp.weights(l).cols()));
        velocity.biases.push_back(Eigen::VectorXd::Zero(mlp.biases(l).size()));
    }
    double lastLoss = std::nan("");
    Eigen::MatrixXd bx, by, dOut;
    for (int epoch = 0; epoch < training.epochs; ++epoch) {
        const double rate =
            training.learningRate * std::pow(training.decayFactor, epoch / training.decayEvery);
        std::shuffle(order.begin(), order.end(), rng);
        double lossSum = 0;
        int batches = 0;
        for (int start = 0; start < n; start += training.batchSize) {
            if (hooks.cancelled && hooks.cancelled())
                return lastLoss;
            const int count = std::min(training.batchSize, n - start);
            bx.resize(x.rows(), count);
            by.resize(y.rows(), count);
            for (int i = 0; i < count; ++i) {
                bx.col(i) = x.col(order[static_cast<std::size_t>(start + i)]);
                by.col(i) = y.col(order[static_cast<std::size_t>(start + i)]);
            }
            lossSum += huberLoss(mlp.forward(bx), by, training.huberDelta, &dOut);
            ++batches;
            mlp.backward(bx, dOut, g);
            // Classical momentum (PyTorch's SGD form): v = mu v + g; w -= rate v.
            for (int l = 0; l < mlp.layerCount(); ++l) {
                auto& vw = velocity.weights[static_cast<std::size_t>(l)];
                auto& vb = velocity.biases[static_cast<std::size_t>(l)];
                vw = training.momentum * vw + g.weights[static_cast<std::size_t>(l)];
                vb = training.momentum * vb + g.biases[static_cast<std::size_t>(l)];
                mlp.weights(l) -= rate * vw;
                mlp.biases(l) -= rate * vb;
            }
        }
        lastLoss = lossSum / batches;
        if (hooks.epochDone)
            hooks.epochDone(epoch + 1, lastLoss);
    }
    return lastLoss;
}

} // namespace sparsemap::search
