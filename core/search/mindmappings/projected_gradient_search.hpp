#pragma once
// Phase 2 of Mind Mappings (paper 4.2, App. A), independent of where gradients and scores come from:
// several chains, each starting from a random valid design, step along the negative gradient of a
// predicted objective, project to the nearest genome, and have the projected genome scored by the
// real model. Every `injectionInterval` steps a chain is offered a random valid design, accepted
// when better or else with probability exp(-delta / T) (simulated annealing; T starts at 50 and is
// multiplied by 0.75 every 50 injections, delta in units of `objectiveScale`).
//
// Details the paper leaves open, chosen here:
//  - The iterate between steps is the unrounded point (clamped to the genes' box); rounding is only
//    for scoring. A pure round-every-step iterate never moves when a step is shorter than half a
//    gene, so small gradients would freeze the search.
//  - A step whose projection equals the chain's current genome is not scored again (no budget);
//    the regular injections move a chain whose gradient has vanished.
//  - A projected genome the model rejects (capacity, an impossible sparse strategy) sends the chain
//    back to its last valid design and brings its next injection forward.
//  - Chains advance in lock step, so each step's candidates form one batch the model scores in
//    parallel; one step of all chains is one generation of the run's progress.
#include "genome/genome_layout.hpp"

#include <Eigen/Dense>

#include <functional>
#include <random>
#include <span>
#include <vector>

namespace sparsemap::search {

struct GradientSearchParameters {
    int chains = 8;               // parallel restarts; the paper runs one chain per search
    double learningRate = 1.0;    // the paper's 1, undecayed, in whitened input units
    int injectionInterval = 10;   // the paper's 10 steps
    double startTemperature = 50; // the paper's 50
    double cooling = 0.75;        // the paper's 0.75 ...
    int coolEvery = 50;           // ... every 50 injections
};

void validate(const GradientSearchParameters& parameters); // throws std::invalid_argument

// The search space as the gradient search sees it.
class GradientSearchSpace {
public:
    virtual ~GradientSearchSpace() = default;
    virtual Eigen::VectorXd coordinates(const Genome& genome) const = 0; // where a genome lies
    virtual Genome project(const Eigen::VectorXd& x) const = 0;          // nearest valid genome
    virtual void clampToBox(Eigen::VectorXd& x) const = 0;
    // The predicted objective at x and its gradient.
    virtual double gradient(const Eigen::VectorXd& x, Eigen::VectorXd& gradient) const = 0;
};

struct ScoredGenome {
    Genome genome;
    double objective = 0; // finite: a valid design
};

struct GradientSearchHooks {
    // Scores genomes with the real model in order, as many as the budget allows; returns how many
    // were scored (objectives resized to it; +inf = invalid).
    std::function<std::size_t(std::span<const Genome>, std::vector<double>&)> evaluate;
    // A random valid design and its real objective; false when none can be had (budget spent).
    std::function<bool(ScoredGenome&)> randomValid;
    std::function<bool()> done; // budget spent or cancelled
    // After a step that scored or injected something: the chains' current objectives.
    std::function<void(std::span<const double>)> endStep;
    double objectiveScale = 1; // the annealing's unit of objective (the paper: the algorithmic minimum)
};

struct GradientSearchStats {
    std::int64_t steps = 0;
    std::int64_t scored = 0;    // candidates scored by the real model
    std::int64_t unchanged = 0; // steps whose projection stayed on the current genome
    std::int64_t rejected = 0;  // scored candidates the model found invalid
    std::int64_t injections = 0;
    std::int64_t acceptedInjections = 0;
};

// Runs until hooks.done() or until no random valid design can be had. `starts` are the chains'
// initial valid designs (one chain per start; at most parameters.chains are used).
GradientSearchStats projectedGradientSearch(const GradientSearchSpace& space,
                                            const GradientSearchParameters& parameters,
                                            std::vector<ScoredGenome> starts,
                                            const GradientSearchHooks& hooks, std::mt19937_64& rng);

} // namespace sparsemap::search
