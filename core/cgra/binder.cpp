#include "cgra/binder.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace sparsemap::cgra {

ConflictGraph buildConflictGraph(const Schedule& s, const CgraSpec& cgra)
{
    ConflictGraph cg;
    const auto& g = s.graph;
    const int nodes = int(g.nodes.size());
    cg.graph.groups.resize(std::size_t(nodes));
    for (int v = 0; v < nodes; ++v) {
        const auto kind = g.nodes[std::size_t(v)].kind;
        const int options = kind == NodeKind::Read    ? cgra.inputBuses()
                            : kind == NodeKind::Write ? cgra.outputBuses()
                                                      : cgra.peCount();
        for (int r = 0; r < options; ++r) {
            cg.graph.groups[std::size_t(v)].push_back(int(cg.vertices.size()));
            cg.vertices.push_back({v, r});
        }
    }
    auto& adj = cg.graph.adjacency;
    adj.assign(cg.vertices.size(), {});
    const auto connect = [&](int a, int b) {
        adj[std::size_t(a)].push_back(b);
        adj[std::size_t(b)].push_back(a);
    };
    // One node, one resource.
    for (const auto& group : cg.graph.groups)
        for (std::size_t i = 0; i < group.size(); ++i)
            for (std::size_t j = i + 1; j < group.size(); ++j)
                connect(group[i], group[j]);
    // One resource per modulo slot: bucket by (resource class, resource, slot).
    std::map<std::tuple<int, int, int>, std::vector<int>> buckets;
    for (std::size_t x = 0; x < cg.vertices.size(); ++x) {
        const auto& cv = cg.vertices[x];
        const auto kind = g.nodes[std::size_t(cv.node)].kind;
        const int cls = kind == NodeKind::Read ? 0 : kind == NodeKind::Write ? 1 : 2;
        buckets[{cls, cv.resource, s.modulo(cv.node)}].push_back(int(x));
    }
    for (const auto& [key, members] : buckets)
        for (std::size_t i = 0; i < members.size(); ++i)
            for (std::size_t j = i + 1; j < members.size(); ++j)
                connect(members[i], members[j]);
    // R2: I/O data must be bus-connected to the PEs consuming or producing it.
    for (const auto& e : g.edges) {
        if (e.kind == EdgeKind::Internal)
            continue;
        const bool input = e.kind == EdgeKind::Input;
        const int busNode = input ? e.from : e.to;
        const int peNode = input ? e.to : e.from;
        for (int bv : cg.graph.groups[std::size_t(busNode)])
            for (int pv : cg.graph.groups[std::size_t(peNode)]) {
                const int pe = cg.vertices[std::size_t(pv)].resource;
                const int bus = cg.vertices[std::size_t(bv)].resource;
                const int line = input ? pe % cgra.cols : pe / cgra.cols; // column for input, row for output
                if (line != bus)
                    connect(bv, pv);
            }
    }
    for (auto& row : adj) {
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
    }
    return cg;
}

namespace {

struct RegisterUse {
    std::vector<int> lrf; // per PE: weights + values kept for MCIDs whose consumers all share the PE
    int grf = 0;
};

// Registers, counted per produced value (one register serves all late consumers of a value): a value
// whose last MCID consumer is d cycles later stays live d - 1 cycles beyond the one-cycle hand-over,
// i.e. ceil((d - 1) / II) copies of overlapping iterations. It sits in the producer's LRF when every
// MCID consumer runs on that PE, in the GRF otherwise.
RegisterUse registerUse(const Schedule& s, const CgraSpec& cgra, const std::vector<int>& resource)
{
    RegisterUse use;
    use.lrf.assign(std::size_t(cgra.peCount()), 0);
    for (std::size_t v = 0; v < s.graph.nodes.size(); ++v)
        if (s.graph.nodes[v].kind == NodeKind::Mul)
            ++use.lrf[std::size_t(resource[v])];
    std::map<int, std::pair<int, bool>> values; // producer -> (longest distance, all on its PE)
    for (int e : s.mcidEdges()) {
        const auto& edge = s.graph.edges[std::size_t(e)];
        const int distance = s.time[std::size_t(edge.to)] - s.time[std::size_t(edge.from)];
        auto [it, fresh] = values.try_emplace(edge.from, distance, true);
        it->second.first = std::max(it->second.first, distance);
        it->second.second =
            it->second.second && resource[std::size_t(edge.from)] == resource[std::size_t(edge.to)];
    }
    for (const auto& [producer, value] : values) {
        const int registers = (value.first - 1 + s.ii - 1) / s.ii;
        if (value.second)
            use.lrf[std::size_t(resource[std::size_t(producer)])] += registers;
        else
            use.grf += registers;
    }
    return use;
}

// After the MIS: move MCID consumers onto their producer's PE (or swap with the node there) when the
// move keeps R2 (a moved producer of a writing takes the writing along to its new row's output bus), so that
// their values can stay in the LRF instead of the GRF. Hill-climbing on the GRF registers; accepted only when
// they drop and every LRF still fits.
void colocateMcids(const Schedule& s, const CgraSpec& cgra, std::vector<int>& resource)
{
    const auto& g = s.graph;
    std::vector<std::pair<int, int>> undo; // (node, previous resource) of the move being tried
    const auto assign = [&](int node, int value) {
        undo.emplace_back(node, resource[std::size_t(node)]);
        resource[std::size_t(node)] = value;
    };
    const auto busFree = [&](int write, int bus) {
        for (std::size_t v = 0; v < g.nodes.size(); ++v)
            if (int(v) != write && g.nodes[v].kind == NodeKind::Write && resource[v] == bus &&
                s.modulo(int(v)) == s.modulo(write))
                return false;
        return true;
    };
    // Puts `node` on `pe` if R2 still holds: its input buses must feed that column; its writing may
    // follow it to another output bus when the bus of the new row is free in the writing's slot.
    const auto place = [&](int node, int pe) {
        for (const auto& e : g.edges)
            if (e.kind == EdgeKind::Input && e.to == node && resource[std::size_t(e.from)] != pe % cgra.cols)
                return false;
        for (const auto& e : g.edges)
            if (e.kind == EdgeKind::Output && e.from == node &&
                resource[std::size_t(e.to)] != pe / cgra.cols) {
                if (!busFree(e.to, pe / cgra.cols))
                    return false;
                assign(e.to, pe / cgra.cols);
            }
        assign(node, pe);
        return true;
    };
    const auto occupant = [&](int slot, int pe) {
        for (std::size_t v = 0; v < g.nodes.size(); ++v)
            if (executesOnPe(g.nodes[v].kind) && s.modulo(int(v)) == slot && resource[v] == pe)
                return int(v);
        return -1;
    };
    const auto revert = [&] {
        for (auto it = undo.rbegin(); it != undo.rend(); ++it)
            resource[std::size_t(it->first)] = it->second;
        undo.clear();
    };
    int grf = registerUse(s, cgra, resource).grf;
    for (int round = 0; round < 4 && grf > 0; ++round) {
        bool improved = false;
        for (int e : s.mcidEdges()) {
            const auto& edge = g.edges[std::size_t(e)];
            const int target = resource[std::size_t(edge.from)];
            const int consumer = edge.to;
            const int from = resource[std::size_t(consumer)];
            if (from == target)
                continue;
            const int other = occupant(s.modulo(consumer), target);
            undo.clear();
            // Vacate the target first (the occupant takes the consumer's PE), then move the consumer.
            if (other >= 0) {
                assign(other, -1);
                if (!place(consumer, target) || !place(other, from)) {
                    revert();
                    continue;
                }
            } else if (!place(consumer, target)) {
                revert();
                continue;
            }
            const auto now = registerUse(s, cgra, resource);
            if (now.grf < grf && *std::max_element(now.lrf.begin(), now.lrf.end()) <= cgra.lrfCapacity) {
                grf = now.grf;
                improved = true;
                undo.clear();
            } else {
                revert();
            }
        }
        if (!improved)
            break;
    }
}

} // namespace

BindingResult bindSchedule(const Schedule& s, const CgraSpec& cgra, const BinderOptions& options)
{
    BindingResult result;
    result.totalNodes = int(s.graph.nodes.size());
    result.resource.assign(s.graph.nodes.size(), -1);
    // Weights stay in the LRFs: when they cannot all fit, no binding can succeed; say so plainly
    // instead of building a conflict graph.
    const int weights = s.graph.count(NodeKind::Mul);
    if (weights > cgra.peCount() * cgra.lrfCapacity) {
        result.failure = std::to_string(weights) + " weights do not fit in the LRFs (" +
                         std::to_string(cgra.peCount()) + " PEs x " + std::to_string(cgra.lrfCapacity) +
                         " registers)";
        return result;
    }
    const auto cg = buildConflictGraph(s, cgra);
    result.conflictVertices = cg.graph.vertexCount();
    result.conflictEdges = cg.graph.edgeCount();
    MisResult mis;
    if (result.conflictVertices <= options.exactVertexLimit) {
        mis = solveMisExact(cg.graph, options.exactNodeLimit);
        result.solver = "exact";
        if (!mis.optimal && int(mis.vertices.size()) < result.totalNodes) {
            auto greedy = solveMisGreedy(cg.graph);
            if (greedy.vertices.size() > mis.vertices.size()) {
                mis = std::move(greedy);
                result.solver = "greedy (exact search hit its node limit)";
            }
        }
    } else {
        mis = solveMisGreedy(cg.graph);
        result.solver = "greedy";
    }
    result.optimal = mis.optimal;
    result.boundNodes = int(mis.vertices.size());
    for (int x : mis.vertices)
        result.resource[std::size_t(cg.vertices[std::size_t(x)].node)] = cg.vertices[std::size_t(x)].resource;
    if (result.boundNodes < result.totalNodes) {
        std::string unbound;
        int shown = 0;
        for (std::size_t v = 0; v < s.graph.nodes.size(); ++v)
            if (result.resource[v] < 0 && shown++ < 4)
                unbound +=
                    (unbound.empty() ? "" : ", ") + s.graph.label(int(v)) + "@" + std::to_string(s.time[v]);
        result.failure = "conflict graph MIS binds " + std::to_string(result.boundNodes) + " of " +
                         std::to_string(result.totalNodes) + " nodes (" + result.solver +
                         "); unbound: " + unbound +
                         (result.totalNodes - result.boundNodes > 4 ? ", ..." : "");
        return result;
    }
    colocateMcids(s, cgra, result.resource);
    const auto regs = registerUse(s, cgra, result.resource);
    const auto& lrf = regs.lrf;
    result.grfRegisters = regs.grf;
    result.maxLrfRegisters = *std::max_element(lrf.begin(), lrf.end());
    if (result.maxLrfRegisters > cgra.lrfCapacity) {
        const int pe = int(std::max_element(lrf.begin(), lrf.end()) - lrf.begin());
        result.failure = "PE (" + std::to_string(pe / cgra.cols) + "," + std::to_string(pe % cgra.cols) +
                         ") needs " + std::to_string(result.maxLrfRegisters) +
                         " LRF registers (weights and MCIDs); capacity " + std::to_string(cgra.lrfCapacity);
        return result;
    }
    if (result.grfRegisters > cgra.grfCapacity) {
        result.failure = "MCIDs between PEs need " + std::to_string(result.grfRegisters) +
                         " GRF registers; capacity " + std::to_string(cgra.grfCapacity);
        return result;
    }
    result.success = true;
    return result;
}

} // namespace sparsemap::cgra
