#pragma once
// The S/G gene (paper IV-F): 0 none, 1 Gate P<-Q, 2 Gate Q<-P, 3 Gate P<->Q, 4 Skip P<-Q,
// 5 Skip Q<-P, 6 Skip P<->Q, where P and Q are the workload's two input operands.
#include "sparse/sparse_strategy.hpp"

#include <optional>
#include <vector>

namespace sparsemap {

inline constexpr int kSgGeneCount = 7;

std::vector<SgAction> sgActionsFromGene(int gene, int p, int q);
// The gene whose actions equal `actions` (order-insensitive), or nullopt when no gene encodes them.
std::optional<int> sgGeneFromActions(const std::vector<SgAction>& actions, int p, int q);

} // namespace sparsemap
