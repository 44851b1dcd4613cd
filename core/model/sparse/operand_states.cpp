#include "model/sparse/operand_states.hpp"

#include <algorithm>

namespace sparsemap::model {

ComputeSiteActions computeSiteActions(const SparseStrategy& sparse, std::span<const int> inputs)
{
    ComputeSiteActions out;
    out.checked.assign(inputs.size(), 0);
    for (const auto& site : sparse.sites) {
        if (site.storageLevel != kComputeSite)
            continue;
        for (const auto& a : site.actions) {
            (a.kind == SgKind::Gate ? out.gate : out.skip) = true;
            for (std::size_t i = 0; i < inputs.size(); ++i)
                if (a.conditionOn.empty() ||
                    std::find(a.conditionOn.begin(), a.conditionOn.end(), inputs[i]) != a.conditionOn.end())
                    out.checked[i] = 1;
        }
    }
    return out;
}

ComputeFate computeFate(std::span<const OperandState> states, const ComputeSiteActions& site)
{
    switch (operandMix(states)) {
    case OperandMix::AllAbsent:
        return ComputeFate::None;
    case OperandMix::SomeAbsent:
        return site.skip ? ComputeFate::Skipped : site.gate ? ComputeFate::Gated : ComputeFate::Actual;
    case OperandMix::SomeZero: {
        // Gated when the compute unit gates on an operand that is a present zero; skipping cannot
        // drop it (Sparseloop's compute-gs-analyzer: cases 2, 4 and 5 are random or gated).
        bool seen = false;
        for (std::size_t i = 0; i < states.size() && i < site.checked.size(); ++i)
            seen = seen || (states[i] == OperandState::PresentZero && site.checked[i]);
        return site.gate && seen ? ComputeFate::Gated : ComputeFate::Actual;
    }
    case OperandMix::AllNonzero:
        break;
    }
    return ComputeFate::Actual;
}

} // namespace sparsemap::model
