#pragma once
// The Mind Mappings surrogate's network (paper 4.1, 5.5): a multi-layer perceptron with tanh hidden
// layers and a linear output, trained with the Huber loss by mini-batch SGD with momentum and a
// step-decayed learning rate. Samples are matrix columns. Everything is Eigen and single-threaded, so
// a seed gives the same weights on any machine configuration.
//
// tanh rather than ReLU: the search differentiates the network with respect to its input, and a
// smooth network gives gradients that change gradually between neighbouring designs.
#include <Eigen/Dense>

#include <functional>
#include <random>
#include <vector>

namespace sparsemap::search {

class Mlp {
public:
    // `sizes` = {inputs, hidden..., outputs}; at least two entries, each >= 1 (throws
    // std::invalid_argument). Weights are drawn Glorot-uniform from `rng`, biases start at zero.
    Mlp(std::vector<int> sizes, std::mt19937_64& rng);

    int inputSize() const { return m_sizes.front(); }
    int outputSize() const { return m_sizes.back(); }
    const std::vector<int>& sizes() const { return m_sizes; }
    int layerCount() const { return static_cast<int>(m_weights.size()); }
    Eigen::MatrixXd& weights(int layer) { return m_weights[static_cast<std::size_t>(layer)]; }
    const Eigen::MatrixXd& weights(int layer) const { return m_weights[static_cast<std::size_t>(layer)]; }
    Eigen::VectorXd& biases(int layer) { return m_biases[static_cast<std::size_t>(layer)]; }
    const Eigen::VectorXd& biases(int layer) const { return m_biases[static_cast<std::size_t>(layer)]; }

    // x: inputSize() x samples; returns outputSize() x samples.
    Eigen::MatrixXd forward(const Eigen::MatrixXd& x) const;

    struct Gradients {
        std::vector<Eigen::MatrixXd> weights;
        std::vector<Eigen::VectorXd> biases;
    };
    // Back-propagates dLoss/dOutput (outputSize() x samples) for the inputs `x`: the gradients of the
    // loss with respect to every weight and bias (summed over samples) and, when `inputGradient` is
    // given, with respect to every input (inputSize() x samples).
    void backward(const Eigen::MatrixXd& x, const Eigen::MatrixXd& outputGradient, Gradients& gradients,
                  Eigen::MatrixXd* inputGradient = nullptr) const;
    // d(weights . output)/d(input) at one input: what the search follows.
    Eigen::VectorXd inputGradient(const Eigen::VectorXd& x, const Eigen::VectorXd& outputWeights) const;

private:
    // Pre-activations and activations of every layer for `x` (activations[0] = x).
    void propagate(const Eigen::MatrixXd& x, std::vector<Eigen::MatrixXd>& activations) const;

    std::vector<int> m_sizes;
    std::vector<Eigen::MatrixXd> m_weights; // layer l: sizes[l+1] x sizes[l]
    std::vector<Eigen::VectorXd> m_biases;
};

// Mean Huber loss over all entries of `prediction - target`, and its gradient with respect to the
// prediction (same shape; already divided by the number of samples).
double huberLoss(const Eigen::MatrixXd& prediction, const Eigen::MatrixXd& target, double delta,
                 Eigen::MatrixXd* gradient);

struct MlpTraining {
    int epochs = 100;           // the paper's 100
    int batchSize = 32;         // the paper's 128 is for 10 M samples; ours are thousands
    double learningRate = 1e-2; // the paper's 1e-2 ...
    int decayEvery = 25;        // ... times decayFactor every decayEvery epochs (paper: 0.1 / 25)
    double decayFactor = 0.1;
    double momentum = 0.9;   // the paper's 0.9
    double huberDelta = 1.0; // on whitened outputs
};

// Throws std::invalid_argument naming the first bad field.
void validate(const MlpTraining& training);

struct MlpTrainingHooks {
    std::function<bool()> cancelled;                           // checked before every mini-batch
    std::function<void(int epoch, double meanLoss)> epochDone; // after every epoch (1-based)
};

// Trains `mlp` on the columns of x (inputs) and y (targets), shuffling with `rng` every epoch.
// Returns the mean training loss of the last epoch run (NaN when none ran).
double trainMlp(Mlp& mlp, const Eigen::MatrixXd& x, const Eigen::MatrixXd& y, const MlpTraining& training,
                std::mt19937_64& rng, const MlpTrainingHooks& hooks = {});

} // namespace sparsemap::search
