#pragma once
// Maximum independent set (MIS) on an undirected graph whose vertices are partitioned into cliques
// ("groups"). The CGRA binder's conflict graph has that shape: the candidate bindings of one s-DFG node
// conflict with each other, so each node's candidates form a clique, and an independent set holds at
// most one binding per node.
//  - solveMisExact: depth-first branch and bound; branches on the group with the fewest still-allowed
//    vertices (each allowed vertex, then "leave the group empty"); the bound is the size so far plus
//    the number of open groups with an allowed vertex (a clique-cover bound). Optimal unless the node
//    limit stops it.
//  - solveMisGreedy: the minimum-degree greedy (repeatedly take a vertex of least degree in what is
//    left, drop it and its neighbours), taken from the group with the fewest vertices left so that no
//    clique loses its last candidate to a careless pick, then (1,2)-swap local search in the manner of
//    Andrade, Resende and Werneck (J. Heuristics 2012): take out one solution vertex and put in two
//    non-adjacent vertices whose only solution neighbour it was, until no swap helps; finally, for a group
//    left empty, put in one of its vertices whose only solution neighbour can move to another vertex of its
//    own group.
// These are our own choices: the paper solves the MIS with SBTS (Jin and Hao 2015), not described there.
#include <cstdint>
#include <string>
#include <vector>

namespace sparsemap::cgra {

struct MisGraph {
    std::vector<std::vector<int>> adjacency; // sorted, no self loops, symmetric
    std::vector<std::vector<int>> groups;    // a partition of the vertices into cliques
    int vertexCount() const { return int(adjacency.size()); }
    int edgeCount() const;
    bool adjacent(int a, int b) const;
};

struct MisResult {
    std::vector<int> vertices; // an independent set
    bool optimal = false;      // proven maximum
    std::int64_t searchNodes = 0;
};

MisResult solveMisExact(const MisGraph& graph, std::int64_t nodeLimit);
MisResult solveMisGreedy(const MisGraph& graph, int maxSwapRounds = 1000);
bool isIndependentSet(const MisGraph& graph, const std::vector<int>& vertices);

} // namespace sparsemap::cgra
