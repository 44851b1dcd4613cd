#pragma once
// "pso": pagmo2's particle swarm optimization on the genome (continuous positions, rounded and clamped
// to the genes; see pagmo_bridge.hpp). One generation per evolve call with pagmo's `memory` on, so
// positions, velocities and personal bests carry over between chunks.
#include "search/optimizer.hpp"

#include <cstdint>

namespace sparsemap::search {

// pagmo's velocity-update variants 1..6 and swarm topologies 1..4.
enum class PsoVariant {
    Inertia = 1,
    InertiaEqualWeights,
    InertiaSameRandom,
    InertiaSameRandomEqualWeights,
    Constriction,
    FullyInformed
};
enum class PsoTopology { GlobalBest = 1, LocalBest, VonNeumann, AdaptiveRandom };

// Defaults are pagmo's (Clerc's constriction PSO, the "canonical PSO of today"), with a swarm of 50:
// 400 generations in the paper's 20,000 evaluations.
struct PsoParameters {
    int swarmSize = 50;
    double omega = 0.7298;    // constriction coefficient (inertia weight for the inertia variants)
    double eta1 = 2.05;       // pull towards the particle's own best
    double eta2 = 2.05;       // pull towards the neighbourhood's best
    double maxVelocity = 0.5; // per step, as a fraction of a gene's range
    PsoVariant variant = PsoVariant::Constriction;
    PsoTopology topology = PsoTopology::LocalBest;
    int neighbours = 4; // LocalBest ring size / AdaptiveRandom links
    // A new random swarm when the best has not improved for this many evaluations (0 = never).
    std::int64_t stallEvaluations = 5000;
};

class PsoSearch : public Optimizer {
public:
    // Throws std::invalid_argument on a bad parameter.
    explicit PsoSearch(PsoParameters parameters = {});
    std::string name() const override { return "pso"; }
    void run(SearchContext& context) override;

private:
    PsoParameters m_parameters;
};

} // namespace sparsemap::search
