#pragma once
// "mcts": Monte Carlo tree search (UCT) over the genes in genome order. A node at depth d has fixed
// genes 0..d-1; its children fix gene d. Each iteration selects by UCB1, expands one child, fills
// the remaining genes uniformly at random (the rollout), evaluates that genome and backs the reward
// up the path. One evaluation per iteration, so the tree grows by at most one node per evaluation.
//
// Reward in [0, 1]: 1 / (1 + d), d = decades (log10) above the best objective found so far
// (including this one); an invalid design earns 0. The best design earns 1, a 10x worse one 0.5,
// a 100x worse one 0.33: rewards stay informative across the many orders of magnitude of EDP.
//
// Progressive widening: a node may have ceil(k * visits^alpha) children (at most the gene's range),
// because the permutation genes have up to D! values (720 for a convolution) and plain UCT would
// spend the whole budget on the first few levels. Children are expanded in a random order without
// storing it: value = lower + (offset + i * stride) mod range, with stride coprime to range.
#include "search/optimizer.hpp"

#include <cstdint>

namespace sparsemap::search {

struct MctsParameters {
    double exploration = 1.4142135623730951; // c in mean + c sqrt(ln N / n): sqrt(2), UCB1 for [0, 1]
    double wideningCoefficient = 1.0;        // k
    double wideningExponent = 0.5;           // alpha; 1 with k = 1 is plain UCT (expand on every visit)
    std::int64_t maxNodes = 1000000; // memory bound (~40 MB of nodes); beyond it rollouts continue, no growth
    int reportEvery = 100;           // evaluations per convergence entry
};

class MctsSearch : public Optimizer {
public:
    // Throws std::invalid_argument on a bad parameter.
    explicit MctsSearch(MctsParameters parameters = {});
    std::string name() const override { return "mcts"; }
    void run(SearchContext& context) override;

private:
    MctsParameters m_parameters;
};

} // namespace sparsemap::search
