#include "search/baselines/mcts_search.hpp"

#include "search/baselines/baseline_support.hpp"

#include <cmath>
#include <numeric>

namespace sparsemap::search {

namespace {

struct Node {
    int value = 0;       // the gene value this node fixes (unused at the root)
    int firstChild = -1; // children as a linked list: small nodes, no per-node allocation
    int nextSibling = -1;
    int children = 0;
    int offset = 0, stride = 1; // expansion order of the next gene's values
    std::int64_t visits = 0;
    double reward = 0;
};

class Tree {
public:
    Tree(const GenomeLayout& layout, std::mt19937_64& rng) : m_layout(layout), m_rng(rng) { add(0, 0); }

    // Index of a new node whose children will fix gene `depth`.
    int add(int value, int depth)
    {
        Node n;
        n.value = value;
        if (depth < m_layout.size()) {
            const int range = rangeOf(depth);
            n.offset = std::uniform_int_distribution<int>(0, range - 1)(m_rng);
            if (range > 1) {
                // A random stride coprime to the range; 1 when none turns up quickly.
                std::uniform_int_distribution<int> pick(1, range - 1);
                for (int tries = 0; tries < 64; ++tries)
                    if (const int stride = pick(m_rng); std::gcd(stride, range) == 1) {
                        n.stride = stride;
                        break;
                    }
            }
        }
        m_nodes.push_back(n);
        return static_cast<int>(m_nodes.size()) - 1;
    }
    int rangeOf(int depth) const { return m_layout.gene(depth).upper - m_layout.gene(depth).lower + 1; }
    Node& operator[](int i) { return m_nodes[static_cast<std::size_t>(i)]; }
    std::int64_t size() const { return static_cast<std::int64_t>(m_nodes.size()); }

private:
    const GenomeLayout& m_layout;
    std::mt19937_64& m_rng;
    std::vector<Node> m_nodes;
};

} // namespace

MctsSearch::MctsSearch(MctsParameters parameters) : m_parameters(parameters)
{
    const auto& p = m_parameters;
    detail::require(p.exploration >= 0 && std::isfinite(p.exploration), "mcts: exploration must be >= 0");
    detail::require(p.wideningCoefficient > 0, "mcts: wideningCoefficient must be positive");
    detail::require(p.wideningExponent > 0 && p.wideningExponent <= 1,
                    "mcts: wideningExponent must be in (0, 1]");
    detail::require(p.maxNodes >= 1, "mcts: maxNodes must be at least 1");
    detail::require(p.reportEvery >= 1, "mcts: reportEvery must be at least 1");
}

void MctsSearch::run(SearchContext& context)
{
    const auto& p = m_parameters;
    const auto& layout = context.layout();
    const int size = layout.size();
    auto& rng = context.rng();
    Tree tree(layout, rng);
    Genome genome(static_cast<std::size_t>(size));
    std::vector<int> path;
    std::vector<double> batch, objective;
    double bestLog = std::numeric_limits<double>::infinity();
    while (!context.done()) {
        // Selection and expansion.
        path.assign(1, 0);
        int depth = 0;
        while (depth < size) {
            Node& node = tree[path.back()];
            const int range = tree.rangeOf(depth);
            const double allowed =
                std::ceil(p.wideningCoefficient * std::pow(double(node.visits + 1), p.wideningExponent));
            if (node.children < std::min<double>(range, allowed) && tree.size() < p.maxNodes) {
                const int value =
                    layout.gene(depth).lower +
                    static_cast<int>((node.offset + static_cast<std::int64_t>(node.children) * node.stride) %
                                     range);
                const int child = tree.add(value, depth + 1);
                Node& parent = tree[path.back()]; // add() may have moved the nodes
                tree[child].nextSibling = parent.firstChild;
                parent.firstChild = child;
                ++parent.children;
                genome[static_cast<std::size_t>(depth++)] = value;
                path.push_back(child);
                break;
            }
            if (node.children == 0)
                break; // the memory bound stops growth: roll out from here
            int best = -1;
            double bestScore = -1;
            const double logVisits = std::log(double(std::max<std::int64_t>(node.visits, 1)));
            for (int c = node.firstChild; c >= 0; c = tree[c].nextSibling) {
                const Node& child = tree[c];
                const double score = child.reward / double(child.visits) +
                                     p.exploration * std::sqrt(logVisits / double(child.visits));
                if (score > bestScore) {
                    bestScore = score;
                    best = c;
                }
            }
            genome[static_cast<std::size_t>(depth++)] = tree[best].value;
            path.push_back(best);
        }
        // Rollout and evaluation.
        detail::randomizeGenes(layout, {depth, size}, genome, rng);
        if (context.evaluate(std::span<const Genome>(&genome, 1), objective) == 0)
            break; // cancelled
        double reward = 0;
        if (std::isfinite(objective[0])) {
            const double log = std::log10(std::max(objective[0], std::numeric_limits<double>::min()));
            bestLog = std::min(bestLog, log);
            reward = 1 / (1 + (log - bestLog));
        }
        for (int n : path) {
            ++tree[n].visits;
            tree[n].reward += reward;
        }
        batch.push_back(objective[0]);
        if (static_cast<int>(batch.size()) >= p.reportEvery) {
            context.endGeneration(batch);
            batch.clear();
        }
    }
    if (!batch.empty())
        context.endGeneration(batch);
}

} // namespace sparsemap::search
