#include "genome/sg_gene.hpp"

#include <algorithm>

namespace sparsemap {

std::vector<SgAction> sgActionsFromGene(int gene, int p, int q)
{
    const SgKind kind = gene >= 4 ? SgKind::Skip : SgKind::Gate;
    const SgAction pFollowsQ{kind, p, {q}};
    const SgAction qFollowsP{kind, q, {p}};
    switch (gene) {
    case 1:
    case 4:
        return {pFollowsQ};
    case 2:
    case 5:
        return {qFollowsP};
    case 3:
    case 6:
        return {pFollowsQ, qFollowsP};
    default:
        return {};
    }
}

std::optional<int> sgGeneFromActions(const std::vector<SgAction>& actions, int p, int q)
{
    auto sameSet = [](std::vector<SgAction> a, std::vector<SgAction> b) {
        auto key = [](const SgAction& x, const SgAction& y) { return x.target < y.target; };
        std::sort(a.begin(), a.end(), key);
        std::sort(b.begin(), b.end(), key);
        return a == b;
    };
    for (int gene = 0; gene < kSgGeneCount; ++gene)
        if (sameSet(actions, sgActionsFromGene(gene, p, q)))
            return gene;
    return std::nullopt;
}

} // namespace sparsemap
