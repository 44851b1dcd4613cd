#include "cgra/mis_solver.hpp"

#include <algorithm>

namespace sparsemap::cgra {

int MisGraph::edgeCount() const
{
    std::size_t twice = 0;
    for (const auto& a : adjacency)
        twice += a.size();
    return int(twice / 2);
}

bool MisGraph::adjacent(int a, int b) const
{
    const auto& row = adjacency[std::size_t(a)];
    return std::binary_search(row.begin(), row.end(), b);
}

bool isIndependentSet(const MisGraph& graph, const std::vector<int>& vertices)
{
    for (std::size_t i = 0; i < vertices.size(); ++i)
        for (std::size_t j = i + 1; j < vertices.size(); ++j)
            if (vertices[i] == vertices[j] || graph.adjacent(vertices[i], vertices[j]))
                return false;
    return true;
}

namespace {

class BranchAndBound {
public:
    BranchAndBound(const MisGraph& g, std::int64_t limit)
        : m_g(g), m_limit(limit), m_blocked(std::size_t(g.vertexCount()), 0),
          m_groupOf(std::size_t(g.vertexCount()), -1), m_open(g.groups.size(), 1),
          m_allowed(g.groups.size(), 0)
    {
        for (std::size_t gi = 0; gi < g.groups.size(); ++gi) {
            for (int v : g.groups[gi])
                m_groupOf[std::size_t(v)] = int(gi);
            m_allowed[gi] = int(g.groups[gi].size());
        }
    }

    MisResult run()
    {
        search();
        MisResult result;
        result.vertices = m_best;
        result.optimal = !m_aborted;
        result.searchNodes = m_nodes;
        return result;
    }

private:
    void choose(int v)
    {
        m_chosen.push_back(v);
        m_open[std::size_t(m_groupOf[std::size_t(v)])] = 0;
        for (int u : m_g.adjacency[std::size_t(v)])
            if (m_blocked[std::size_t(u)]++ == 0)
                --m_allowed[std::size_t(m_groupOf[std::size_t(u)])];
    }

    void unchoose(int v)
    {
        m_chosen.pop_back();
        m_open[std::size_t(m_groupOf[std::size_t(v)])] = 1;
        for (int u : m_g.adjacency[std::size_t(v)])
            if (--m_blocked[std::size_t(u)] == 0)
                ++m_allowed[std::size_t(m_groupOf[std::size_t(u)])];
    }

    void search()
    {
        if (m_aborted)
            return;
        if (++m_nodes > m_limit) {
            m_aborted = true;
            return;
        }
        int bound = int(m_chosen.size()), branch = -1;
        for (std::size_t gi = 0; gi < m_open.size(); ++gi) {
            if (!m_open[gi] || m_allowed[gi] == 0)
                continue;
            ++bound;
            if (branch < 0 || m_allowed[gi] < m_allowed[std::size_t(branch)])
                branch = int(gi);
        }
        if (m_chosen.size() > m_best.size())
            m_best = m_chosen;
        if (branch < 0 || bound <= int(m_best.size()))
            return;
        for (int v : m_g.groups[std::size_t(branch)]) {
            if (m_blocked[std::size_t(v)])
                continue;
            choose(v);
            search();
            unchoose(v);
            if (m_aborted)
                return;
        }
        m_open[std::size_t(branch)] = 0; // leave this group without a vertex
        search();
        m_open[std::size_t(branch)] = 1;
    }

    const MisGraph& m_g;
    std::int64_t m_limit;
    std::int64_t m_nodes = 0;
    bool m_aborted = false;
    std::vector<int> m_blocked; // chosen neighbours per vertex
    std::vector<int> m_groupOf;
    std::vector<char> m_open;
    std::vector<int> m_allowed; // per group: vertices with no chosen neighbour
    std::vector<int> m_chosen, m_best;
};

} // namespace

MisResult solveMisExact(const MisGraph& graph, std::int64_t nodeLimit)
{
    return BranchAndBound(graph, nodeLimit).run();
}

MisResult solveMisGreedy(const MisGraph& graph, int maxSwapRounds)
{
    const int n = graph.vertexCount();
    std::vector<char> alive(std::size_t(n), 1), inSet(std::size_t(n), 0);
    std::vector<int> degree(static_cast<std::size_t>(n), 0), groupOf(std::size_t(n), -1);
    std::vector<int> groupAlive(graph.groups.size(), 0);
    for (std::size_t gi = 0; gi < graph.groups.size(); ++gi)
        for (int v : graph.groups[gi]) {
            groupOf[std::size_t(v)] = int(gi);
            ++groupAlive[gi];
        }
    for (int v = 0; v < n; ++v)
        degree[std::size_t(v)] = int(graph.adjacency[std::size_t(v)].size());
    for (;;) {
        // Least degree in the remaining graph, within the clique (group) with the fewest remaining
        // vertices: a clique about to lose its last candidates is served first.
        int pick = -1;
        const auto key = [&](int v) {
            return std::pair{groupAlive[std::size_t(groupOf[std::size_t(v)])], degree[std::size_t(v)]};
        };
        for (int v = 0; v < n; ++v)
            if (alive[std::size_t(v)] && (pick < 0 || key(v) < key(pick)))
                pick = v;
        if (pick < 0)
            break;
        inSet[std::size_t(pick)] = 1;
        std::vector<int> removed{pick};
        for (int u : graph.adjacency[std::size_t(pick)])
            if (alive[std::size_t(u)])
                removed.push_back(u);
        for (int u : removed) {
            alive[std::size_t(u)] = 0;
            --groupAlive[std::size_t(groupOf[std::size_t(u)])];
        }
        for (int u : removed)
            for (int w : graph.adjacency[std::size_t(u)])
                if (alive[std::size_t(w)])
                    --degree[std::size_t(w)];
    }
    // (1,2)-swaps. tight[u] = number of solution neighbours of u.
    std::vector<int> tight(std::size_t(n), 0);
    for (int v = 0; v < n; ++v)
        if (inSet[std::size_t(v)])
            for (int u : graph.adjacency[std::size_t(v)])
                ++tight[std::size_t(u)];
    const auto insert = [&](int v) {
        inSet[std::size_t(v)] = 1;
        for (int u : graph.adjacency[std::size_t(v)])
            ++tight[std::size_t(u)];
    };
    const auto remove = [&](int v) {
        inSet[std::size_t(v)] = 0;
        for (int u : graph.adjacency[std::size_t(v)])
            --tight[std::size_t(u)];
    };
    for (int round = 0; round < maxSwapRounds; ++round) {
        bool improved = false;
        for (int x = 0; x < n && !improved; ++x) {
            if (!inSet[std::size_t(x)])
                continue;
            std::vector<int> oneTight;
            for (int u : graph.adjacency[std::size_t(x)])
                if (!inSet[std::size_t(u)] && tight[std::size_t(u)] == 1)
                    oneTight.push_back(u);
            for (std::size_t i = 0; i < oneTight.size() && !improved; ++i)
                for (std::size_t j = i + 1; j < oneTight.size() && !improved; ++j)
                    if (!graph.adjacent(oneTight[i], oneTight[j])) {
                        remove(x);
                        insert(oneTight[i]);
                        insert(oneTight[j]);
                        // Any vertex freed by the swap goes in too.
                        for (int u : graph.adjacency[std::size_t(x)])
                            if (!inSet[std::size_t(u)] && tight[std::size_t(u)] == 0)
                                insert(u);
                        improved = true;
                    }
        }
        if (!improved)
            break;
    }
    // Repair moves for empty groups: insert v whose only solution neighbour x is then moved to another
    // vertex of its own group (an ejection chain of length one); kept only when x finds a place.
    std::vector<int> groupFilled(graph.groups.size(), 0);
    for (int v = 0; v < n; ++v)
        if (inSet[std::size_t(v)])
            ++groupFilled[std::size_t(groupOf[std::size_t(v)])];
    for (int round = 0; round < maxSwapRounds; ++round) {
        bool improved = false;
        for (std::size_t gi = 0; gi < graph.groups.size() && !improved; ++gi) {
            if (groupFilled[gi])
                continue;
            for (int v : graph.groups[gi]) {
                if (tight[std::size_t(v)] != 1)
                    continue;
                int x = -1;
                for (int u : graph.adjacency[std::size_t(v)])
                    if (inSet[std::size_t(u)])
                        x = u;
                remove(x);
                insert(v);
                int moved = -1;
                for (int w : graph.groups[std::size_t(groupOf[std::size_t(x)])])
                    if (!inSet[std::size_t(w)] && tight[std::size_t(w)] == 0 && w != x) {
                        moved = w;
                        break;
                    }
                if (moved >= 0) {
                    insert(moved);
                    groupFilled[gi] = 1;
                    improved = true;
                    break;
                }
                remove(v);
                insert(x);
            }
        }
        if (!improved)
            break;
    }
    MisResult result;
    for (int v = 0; v < n; ++v)
        if (inSet[std::size_t(v)])
            result.vertices.push_back(v);
    return result;
}

} // namespace sparsemap::cgra
