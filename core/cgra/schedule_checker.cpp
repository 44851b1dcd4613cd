#include "cgra/schedule_checker.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace sparsemap::cgra {

std::vector<std::string> checkSchedule(const Schedule& s, const SparseBlock& block, const CgraSpec& cgra)
{
    std::vector<std::string> problems;
    const auto& g = s.graph;
    const auto label = [&](int v) { return g.label(v) + "@" + std::to_string(s.time[std::size_t(v)]); };
    if (s.ii < 1)
        problems.push_back("II must be at least 1");
    if (s.time.size() != g.nodes.size()) {
        problems.push_back("schedule has " + std::to_string(s.time.size()) + " times for " +
                           std::to_string(g.nodes.size()) + " nodes");
        return problems;
    }
    for (std::size_t v = 0; v < g.nodes.size(); ++v)
        if (s.time[v] < 0)
            problems.push_back(g.label(int(v)) + " is not scheduled");
    if (!problems.empty())
        return problems;

    // Constraint (1).
    for (const auto& e : g.edges) {
        const int d = s.time[std::size_t(e.to)] - s.time[std::size_t(e.from)];
        const std::string edge = label(e.from) + " -> " + label(e.to);
        if (e.kind == EdgeKind::Input && d != 0)
            problems.push_back("input dependency " + edge + " must have distance 0");
        else if (e.kind == EdgeKind::Output && d != 1)
            problems.push_back("output dependency " + edge + " must have distance 1");
        else if (e.kind == EdgeKind::Internal && d < 1)
            problems.push_back("internal dependency " + edge + " must have distance >= 1");
    }
    // Constraint (2).
    std::vector<int> reads(std::size_t(s.ii)), writes(std::size_t(s.ii)), ops(std::size_t(s.ii));
    for (std::size_t v = 0; v < g.nodes.size(); ++v) {
        const auto slot = std::size_t(s.modulo(int(v)));
        const auto kind = g.nodes[v].kind;
        if (kind == NodeKind::Read)
            ++reads[slot];
        else if (kind == NodeKind::Write)
            ++writes[slot];
        else
            ++ops[slot];
    }
    for (int m = 0; m < s.ii; ++m) {
        const auto i = std::size_t(m);
        if (reads[i] > cgra.inputBuses())
            problems.push_back("slot " + std::to_string(m) + ": " + std::to_string(reads[i]) +
                               " input readings > " + std::to_string(cgra.inputBuses()) + " input buses");
        if (writes[i] > cgra.outputBuses())
            problems.push_back("slot " + std::to_string(m) + ": " + std::to_string(writes[i]) +
                               " output writings > " + std::to_string(cgra.outputBuses()) + " output buses");
        if (ops[i] > cgra.peCount())
            problems.push_back("slot " + std::to_string(m) + ": " + std::to_string(ops[i]) +
                               " PE operations > " + std::to_string(cgra.peCount()) + " PEs");
    }
    // The graph computes the block.
    const auto channelOfSource = [&](int v) -> int {
        const auto& n = g.nodes[std::size_t(v)];
        return (n.kind == NodeKind::Read || n.kind == NodeKind::Cop) ? n.channel : -2;
    };
    std::map<int, std::set<int>> sumOf; // node -> the multiplications (as k*C + c) it accumulates
    std::set<std::pair<int, int>> seenMul;
    for (std::size_t v = 0; v < g.nodes.size(); ++v) {
        const auto& n = g.nodes[v];
        const auto producers = g.producers(int(v));
        const auto consumers = g.consumers(int(v));
        switch (n.kind) {
        case NodeKind::Read:
            if (!producers.empty())
                problems.push_back(g.label(int(v)) + " has a producer");
            if (int(consumers.size()) > cgra.busFanout())
                problems.push_back(g.label(int(v)) + " feeds " + std::to_string(consumers.size()) +
                                   " PEs; a bus reaches " + std::to_string(cgra.busFanout()));
            break;
        case NodeKind::Mul:
            if (producers.size() != 1 || channelOfSource(producers.front()) != n.channel)
                problems.push_back(g.label(int(v)) + " must be fed once by channel " +
                                   std::to_string(n.channel));
            if (!block.weight(n.kernel, n.channel) || !seenMul.insert({n.kernel, n.channel}).second)
                problems.push_back(g.label(int(v)) + " is not a distinct nonzero weight of the block");
            break;
        case NodeKind::Add:
            if (producers.size() != 2)
                problems.push_back(g.label(int(v)) + " has " + std::to_string(producers.size()) +
                                   " producers; an addition needs 2");
            break;
        case NodeKind::Cop:
            if (producers.size() != 1)
                problems.push_back(g.label(int(v)) + " must cache exactly one value");
            break;
        case NodeKind::Write:
            if (producers.size() != 1)
                problems.push_back(g.label(int(v)) + " must write exactly one value");
            break;
        }
    }
    if (int(seenMul.size()) != block.nnz())
        problems.push_back("the schedule has " + std::to_string(seenMul.size()) +
                           " multiplications; the block has " + std::to_string(block.nnz()) +
                           " nonzero weights");
    // Accumulate sums in scheduling order (every dependency goes forward in time or is an input one).
    std::vector<int> order(g.nodes.size());
    for (std::size_t v = 0; v < order.size(); ++v)
        order[v] = int(v);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const auto ta = s.time[std::size_t(a)], tb = s.time[std::size_t(b)];
        if (ta != tb)
            return ta < tb;
        return g.nodes[std::size_t(a)].kind == NodeKind::Read &&
               g.nodes[std::size_t(b)].kind != NodeKind::Read;
    });
    for (int v : order) {
        const auto& n = g.nodes[std::size_t(v)];
        if (n.kind == NodeKind::Mul)
            sumOf[v] = {n.kernel * block.channels + n.channel};
        else if (n.kind == NodeKind::Add || (n.kind == NodeKind::Cop && n.channel < 0) ||
                 n.kind == NodeKind::Write) {
            std::set<int> total;
            for (int p : g.producers(v)) {
                for (int term : sumOf[p])
                    if (!total.insert(term).second)
                        problems.push_back(g.label(v) + " adds a multiplication twice");
            }
            sumOf[v] = total;
            if (n.kind == NodeKind::Write) {
                std::set<int> expected;
                for (int c = 0; c < block.channels; ++c)
                    if (block.weight(n.kernel, c))
                        expected.insert(n.kernel * block.channels + c);
                if (total != expected)
                    problems.push_back(g.label(v) + " does not receive the sum of kernel " +
                                       std::to_string(n.kernel) + "'s multiplications");
            }
        }
    }
    int writesSeen = g.count(NodeKind::Write);
    if (writesSeen != countsOf(block).writes)
        problems.push_back("the schedule has " + std::to_string(writesSeen) +
                           " output writings; the block needs " + std::to_string(countsOf(block).writes));
    return problems;
}

} // namespace sparsemap::cgra
