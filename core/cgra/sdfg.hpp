#pragma once
// The sparse data-flow graph (s-DFG) of a block (paper Section 3.1): input readings V_R (one per
// channel that some kernel uses, plus multicast copies made by Mul-CI), multiplications V_M (one per
// nonzero weight), additions V_A (an adder tree per kernel), output writings V_W (one per kernel with a
// nonzero weight) and caching operations (COPs) inserted by the schedulers. Edges are input
// dependencies E_R (reading -> operation), output dependencies E_W (operation -> writing) and internal
// dependencies E_I (everything else).
#include "cgra/cgra_spec.hpp"
#include "cgra/sparse_block.hpp"

#include <string>
#include <vector>

namespace sparsemap::cgra {

enum class NodeKind { Read, Mul, Add, Cop, Write };
enum class EdgeKind { Input, Output, Internal };

struct SdfgNode {
    NodeKind kind = NodeKind::Mul;
    int channel = -1;     // Read, Mul, and a COP that caches an input
    int kernel = -1;      // Mul, Add, Write, and a COP that caches an output
    int multicastOf = -1; // a Read that is a Mul-CI copy: the original reading's node
};

struct SdfgEdge {
    int from = 0;
    int to = 0;
    EdgeKind kind = EdgeKind::Internal;
};

struct Sdfg {
    std::vector<SdfgNode> nodes;
    std::vector<SdfgEdge> edges;

    int addNode(const SdfgNode& node);
    // The edge kind follows from the endpoint kinds (Read -> x is Input, x -> Write is Output).
    int addEdge(int from, int to);
    int count(NodeKind kind) const;
    int opCount() const { return count(NodeKind::Mul) + count(NodeKind::Add); } // |V_OP|
    // Nodes executed by a PE: multiplications, additions and COPs.
    int peNodeCount() const { return opCount() + count(NodeKind::Cop); }
    std::vector<int> producers(int node) const;
    std::vector<int> consumers(int node) const;
    std::string label(int node) const; // "r3", "r3'", "m2.3", "a2.1", "cop1", "w2"
};

bool executesOnPe(NodeKind kind);

// The s-DFG of a block before scheduling: every kernel's adder tree is the balanced tree over its
// multiplications in channel order (pairs (m0+m1), (m2+m3), ..., an odd one carried up), which is the
// fixed tree a scheduler without RID-AT keeps.
Sdfg buildSdfg(const SparseBlock& block);

// Leaf pairs of the balanced tree over `count` leaves: entries >= 0 are leaves, entries < 0 are
// -(1 + index of an earlier pair). Shared by buildSdfg and the schedulers.
std::vector<std::pair<int, int>> balancedTreePairs(int count);

struct SdfgCounts {
    int ops = 0;    // |V_OP| = |V_M| + |V_A| = 2 nnz - (kernels with a nonzero weight)
    int reads = 0;  // |V_R|
    int writes = 0; // |V_W|
};
SdfgCounts countsOf(const SparseBlock& block);

// MII = max(ceil(|V_OP| / (N M)), ceil(|V_R| / M), ceil(|V_W| / N)) (paper Section 4.1).
int minimumIi(const SdfgCounts& counts, const CgraSpec& cgra);
// The dense block's MII: the reference of the speed-up.
int denseMinimumIi(int channels, int kernels, const CgraSpec& cgra);

} // namespace sparsemap::cgra
