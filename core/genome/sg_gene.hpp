#pragma once
// The S/G gene (paper IV-F) for a workload of k >= 1 input operands (in workload order; for k = 2
// they are the paper's P and Q). Its values, 1 + 3k(k-1) of them:
//
//   0                      none
//   then for Gate, then for Skip, each:
//     every ordered pair "X <- Y" (follower X conditioned on leader Y, X != Y), in lexicographic
//     order of (follower's input index, leader's input index): k(k-1) values;
//     then every double-sided pair "X <-> Y" (X before Y), lexicographic: k(k-1)/2 values.
//
//   k = 1: 0 none (the only value)
//   k = 2: 0 none, 1 Gate P<-Q, 2 Gate Q<-P, 3 Gate P<->Q, 4 Skip P<-Q, 5 Skip Q<-P, 6 Skip P<->Q
//   k = 3 (A, B, C): 0 none, 1 Gate A<-B, 2 Gate A<-C, 3 Gate B<-A, 4 Gate B<-C, 5 Gate C<-A,
//          6 Gate C<-B, 7 Gate A<->B, 8 Gate A<->C, 9 Gate B<->C, 10 Skip A<-B, 11 Skip A<-C,
//          12 Skip B<-A, 13 Skip B<-C, 14 Skip C<-A, 15 Skip C<-B, 16 Skip A<->B, 17 Skip A<->C,
//          18 Skip B<->C
//
// A double-sided pair X <-> Y is the two actions X <- Y and Y <- X, in that order.
#include "sparse/sparse_strategy.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sparsemap {

// The number of S/G gene values for `inputs` input operands: 1 + 3 * inputs * (inputs - 1).
int sgGeneCount(int inputs);

// One value of the gene: kind, follower and leader as input indices (0-based, into the operand list),
// and whether the pair is double-sided. Value 0 (none) has follower = leader = -1.
struct SgChoice {
    SgKind kind = SgKind::Gate;
    int follower = -1;
    int leader = -1;
    bool doubleSided = false;
};
// Throws std::out_of_range when the gene is not in [0, sgGeneCount(inputs)).
SgChoice sgChoice(int gene, int inputs);

// `inputs` are the tensor indices of the input operands, in workload order.
std::vector<SgAction> sgActionsFromGene(int gene, std::span<const int> inputs);
// The same into `out`, reusing its storage (the decoder's hot path).
void sgActionsFromGeneInto(int gene, std::span<const int> inputs, std::vector<SgAction>& out);
// The gene whose actions equal `actions` (order-insensitive), or nullopt when no gene encodes them.
std::optional<int> sgGeneFromActions(const std::vector<SgAction>& actions, std::span<const int> inputs);
// A value as the genome's gene descriptions write it, e.g. "Gate P<-Q", "Skip A<->C", "none".
std::string sgGeneLabel(int gene, std::span<const std::string> inputNames);

} // namespace sparsemap
