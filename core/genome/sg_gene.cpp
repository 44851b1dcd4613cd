#include "genome/sg_gene.hpp"

#include <algorithm>
#include <stdexcept>

namespace sparsemap {

int sgGeneCount(int inputs)
{
    return 1 + 3 * inputs * (inputs - 1);
}

SgChoice sgChoice(int gene, int inputs)
{
    if (gene < 0 || gene >= sgGeneCount(inputs))
        throw std::out_of_range("S/G gene " + std::to_string(gene) + " is beyond 0.." +
                                std::to_string(sgGeneCount(inputs) - 1) + " for " + std::to_string(inputs) +
                                " inputs");
    SgChoice choice;
    if (gene == 0)
        return choice;
    const int ordered = inputs * (inputs - 1);
    const int perKind = ordered + ordered / 2;
    int rest = gene - 1;
    choice.kind = rest < perKind ? SgKind::Gate : SgKind::Skip;
    rest %= perKind;
    if (rest < ordered) {
        // Ordered pairs (follower, leader), follower != leader: inputs - 1 leaders per follower.
        choice.follower = rest / (inputs - 1);
        const int leader = rest % (inputs - 1);
        choice.leader = leader < choice.follower ? leader : leader + 1;
        return choice;
    }
    rest -= ordered;
    choice.doubleSided = true;
    for (int x = 0; x < inputs; ++x) {
        const int pairs = inputs - 1 - x; // (x, y) with y > x
        if (rest < pairs) {
            choice.follower = x;
            choice.leader = x + 1 + rest;
            return choice;
        }
        rest -= pairs;
    }
    throw std::logic_error("sgChoice: unreachable");
}

std::vector<SgAction> sgActionsFromGene(int gene, std::span<const int> inputs)
{
    std::vector<SgAction> actions;
    sgActionsFromGeneInto(gene, inputs, actions);
    return actions;
}

void sgActionsFromGeneInto(int gene, std::span<const int> inputs, std::vector<SgAction>& out)
{
    const SgChoice c = sgChoice(gene, static_cast<int>(inputs.size()));
    if (c.follower < 0) {
        out.clear();
        return;
    }
    const int x = inputs[c.follower], y = inputs[c.leader];
    out.resize(c.doubleSided ? 2 : 1);
    const auto set = [&](SgAction& a, int target, int leader) {
        a.kind = c.kind;
        a.target = target;
        a.conditionOn.assign(1, leader);
    };
    set(out[0], x, y);
    if (c.doubleSided)
        set(out[1], y, x);
}

std::optional<int> sgGeneFromActions(const std::vector<SgAction>& actions, std::span<const int> inputs)
{
    auto sameSet = [](std::vector<SgAction> a, std::vector<SgAction> b) {
        auto key = [](const SgAction& x, const SgAction& y) { return x.target < y.target; };
        std::sort(a.begin(), a.end(), key);
        std::sort(b.begin(), b.end(), key);
        return a == b;
    };
    const int count = sgGeneCount(static_cast<int>(inputs.size()));
    for (int gene = 0; gene < count; ++gene)
        if (sameSet(actions, sgActionsFromGene(gene, inputs)))
            return gene;
    return std::nullopt;
}

std::string sgGeneLabel(int gene, std::span<const std::string> inputNames)
{
    const SgChoice c = sgChoice(gene, static_cast<int>(inputNames.size()));
    if (c.follower < 0)
        return "none";
    return std::string(c.kind == SgKind::Gate ? "Gate " : "Skip ") + inputNames[c.follower] +
           (c.doubleSided ? "<->" : "<-") + inputNames[c.leader];
}

} // namespace sparsemap
