#include "cgra/sdfg.hpp"

#include <algorithm>

namespace sparsemap::cgra {

bool executesOnPe(NodeKind kind)
{
    return kind == NodeKind::Mul || kind == NodeKind::Add || kind == NodeKind::Cop;
}

int Sdfg::addNode(const SdfgNode& node)
{
    nodes.push_back(node);
    return int(nodes.size()) - 1;
}

int Sdfg::addEdge(int from, int to)
{
    EdgeKind kind = EdgeKind::Internal;
    if (nodes[std::size_t(from)].kind == NodeKind::Read)
        kind = EdgeKind::Input;
    else if (nodes[std::size_t(to)].kind == NodeKind::Write)
        kind = EdgeKind::Output;
    edges.push_back({from, to, kind});
    return int(edges.size()) - 1;
}

int Sdfg::count(NodeKind kind) const
{
    int n = 0;
    for (const auto& node : nodes)
        n += node.kind == kind;
    return n;
}

std::vector<int> Sdfg::producers(int node) const
{
    std::vector<int> out;
    for (const auto& e : edges)
        if (e.to == node)
            out.push_back(e.from);
    return out;
}

std::vector<int> Sdfg::consumers(int node) const
{
    std::vector<int> out;
    for (const auto& e : edges)
        if (e.from == node)
            out.push_back(e.to);
    return out;
}

std::string Sdfg::label(int node) const
{
    const auto& n = nodes[std::size_t(node)];
    switch (n.kind) {
    case NodeKind::Read:
        return "r" + std::to_string(n.channel) + (n.multicastOf >= 0 ? "'" : "");
    case NodeKind::Mul:
        return "m" + std::to_string(n.kernel) + "." + std::to_string(n.channel);
    case NodeKind::Add:
        return "a" + std::to_string(n.kernel);
    case NodeKind::Cop:
        return n.channel >= 0 ? "cop.r" + std::to_string(n.channel) : "cop.w" + std::to_string(n.kernel);
    case NodeKind::Write:
        return "w" + std::to_string(n.kernel);
    }
    return "?";
}

std::vector<std::pair<int, int>> balancedTreePairs(int count)
{
    std::vector<std::pair<int, int>> pairs;
    std::vector<int> level;
    for (int i = 0; i < count; ++i)
        level.push_back(i);
    while (level.size() > 1) {
        std::vector<int> next;
        for (std::size_t i = 0; i + 1 < level.size(); i += 2) {
            pairs.emplace_back(level[i], level[i + 1]);
            next.push_back(-int(pairs.size()));
        }
        if (level.size() % 2)
            next.push_back(level.back());
        level = std::move(next);
    }
    return pairs;
}

Sdfg buildSdfg(const SparseBlock& block)
{
    Sdfg g;
    std::vector<int> readOf(std::size_t(block.channels), -1);
    for (int c = 0; c < block.channels; ++c)
        if (block.fanout(c) > 0)
            readOf[std::size_t(c)] = g.addNode({NodeKind::Read, c, -1, -1});
    for (int k = 0; k < block.kernels; ++k) {
        std::vector<int> leaves;
        for (int c = 0; c < block.channels; ++c)
            if (block.weight(k, c)) {
                const int m = g.addNode({NodeKind::Mul, c, k, -1});
                g.addEdge(readOf[std::size_t(c)], m);
                leaves.push_back(m);
            }
        if (leaves.empty())
            continue; // an all-zero kernel produces a constant zero: nothing to compute or write
        std::vector<int> adds;
        const auto resolve = [&](int ref) {
            return ref >= 0 ? leaves[std::size_t(ref)] : adds[std::size_t(-ref - 1)];
        };
        for (const auto& [a, b] : balancedTreePairs(int(leaves.size()))) {
            const int add = g.addNode({NodeKind::Add, -1, k, -1});
            g.addEdge(resolve(a), add);
            g.addEdge(resolve(b), add);
            adds.push_back(add);
        }
        const int root = adds.empty() ? leaves.front() : adds.back();
        const int w = g.addNode({NodeKind::Write, -1, k, -1});
        g.addEdge(root, w);
    }
    return g;
}

SdfgCounts countsOf(const SparseBlock& block)
{
    SdfgCounts counts;
    for (int c = 0; c < block.channels; ++c)
        counts.reads += block.fanout(c) > 0;
    for (int k = 0; k < block.kernels; ++k) {
        const int n = block.kernelSize(k);
        if (n > 0) {
            counts.ops += 2 * n - 1;
            ++counts.writes;
        }
    }
    return counts;
}

namespace {
int ceilDiv(int a, int b)
{
    return (a + b - 1) / b;
}
} // namespace

int minimumIi(const SdfgCounts& counts, const CgraSpec& cgra)
{
    return std::max({1, ceilDiv(counts.ops, cgra.peCount()), ceilDiv(counts.reads, cgra.inputBuses()),
                     ceilDiv(counts.writes, cgra.outputBuses())});
}

int denseMinimumIi(int channels, int kernels, const CgraSpec& cgra)
{
    return minimumIi({2 * channels * kernels - kernels, channels, kernels}, cgra);
}

} // namespace sparsemap::cgra
