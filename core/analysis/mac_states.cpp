#include "analysis/mac_states.hpp"

#include "model/sparse/operand_states.hpp"

#include <algorithm>
#include <numeric>

namespace sparsemap::analysis {

MacCounts countMacStates(std::span<const MacState> states)
{
    MacCounts c;
    for (auto s : states) {
        switch (s) {
        case MacState::Idle:
            ++c.idle;
            break;
        case MacState::Active:
            ++c.active;
            break;
        case MacState::Gated:
            ++c.gated;
            break;
        case MacState::Skipped:
            ++c.skipped;
            break;
        case MacState::Empty:
            ++c.empty;
            break;
        }
    }
    return c;
}

void sampledMacStates(const HardwareGeometry& geometry, const OperandSampling& operands, const Design& design,
                      std::int64_t step, std::vector<MacState>& out)
{
    const Workload& workload = geometry.workload();
    const int levels = geometry.storageLevels();
    const int tensors = static_cast<int>(workload.tensors.size());
    out.assign(static_cast<std::size_t>(std::max<std::int64_t>(0, geometry.architecture().compute.instances)),
               MacState::Idle);
    const auto inputs = workload.inputTensors();

    // Storage S/G whose target is an operand: they remove (skip) or idle (gate) computes below.
    struct StorageSaf {
        int level;
        bool gate;
        std::vector<int> leaders;
        std::vector<signed char> emptyCache; // per used instance of the child level: -1 unknown
    };
    std::vector<StorageSaf> storage;
    const auto computeSite = model::computeSiteActions(design.sparse, inputs);
    for (const auto& site : design.sparse.sites) {
        for (const auto& a : site.actions) {
            if (site.storageLevel == kComputeSite)
                continue;
            if (site.storageLevel < 0 || site.storageLevel >= levels || a.target < 0 || a.target >= tensors ||
                workload.tensors[a.target].isOutput)
                continue; // output targets never reduce compute
            StorageSaf saf{site.storageLevel,
                           a.kind == SgKind::Gate,
                           a.conditionOn.empty() ? std::vector<int>{a.target} : a.conditionOn,
                           {}};
            if (site.storageLevel + 1 < levels)
                saf.emptyCache.assign(geometry.used(site.storageLevel + 1).size(), -1);
            storage.push_back(std::move(saf));
        }
    }
    // Operand presence of zeros: absent when the innermost level that holds it has metadata.
    std::vector<char> metadata(inputs.size(), 0);
    for (std::size_t i = 0; i < inputs.size(); ++i)
        for (int l = levels - 1; l >= 0; --l)
            if (design.mapping.holds(l, inputs[i])) {
                const auto& f = design.sparse.formats;
                metadata[i] = l < static_cast<int>(f.size()) && inputs[i] < static_cast<int>(f[l].size()) &&
                              f[l][inputs[i]].hasMetadata();
                break;
            }

    const auto tOff = geometry.temporalOffsets(step, levels);
    std::vector<std::vector<std::int64_t>> levelOffsets(static_cast<std::size_t>(levels));
    for (int s = 0; s < levels; ++s)
        levelOffsets[s] = geometry.temporalOffsets(step, s);
    std::vector<std::int64_t> point(workload.dims.size());
    std::vector<std::int64_t> dimBegin(workload.dims.size());
    std::vector<model::OperandState> st(inputs.size());

    for (const auto& mac : geometry.used(levels)) {
        for (std::size_t d = 0; d < point.size(); ++d)
            point[d] = tOff[d] + mac.offset[d];
        MacState state = MacState::Active;
        bool removed = false, gatedAbove = false;
        for (auto& saf : storage) {
            // With several leaders the access happens only where every leader's tile has a nonzero
            // (the model's keep = prod (1 - P(leader tile empty)), Sparseloop's rule): one empty
            // leader tile removes it.
            bool empty = false;
            if (saf.level + 1 >= levels) {
                for (int leader : saf.leaders)
                    empty = empty || !operands.nonzeroAt(leader, point);
            } else {
                // The MAC's ancestor at the child level of the site.
                const int child = saf.level + 1;
                std::int64_t idx = mac.parent;
                for (int slot = levels - 1; slot > child; --slot)
                    idx = geometry.used(slot)[idx].parent;
                signed char& cached = saf.emptyCache[idx];
                if (cached < 0) {
                    const auto& inst = geometry.used(child)[idx];
                    for (std::size_t d = 0; d < dimBegin.size(); ++d)
                        dimBegin[d] = levelOffsets[child][d] + inst.offset[d];
                    bool anyEmpty = false;
                    for (int leader : saf.leaders)
                        anyEmpty = anyEmpty || operands.tileEmpty(leader, dimBegin, geometry.dimTiles(child));
                    cached = anyEmpty ? 1 : 0;
                }
                empty = cached == 1;
            }
            if (empty)
                (saf.gate ? gatedAbove : removed) = true;
        }
        if (removed) {
            state = MacState::Skipped;
        } else if (!inputs.empty()) {
            for (std::size_t i = 0; i < inputs.size(); ++i)
                st[i] = operands.nonzeroAt(inputs[i], point) ? model::OperandState::Nonzero
                        : metadata[i]                        ? model::OperandState::Absent
                                                             : model::OperandState::PresentZero;
            switch (model::computeFate(st, computeSite)) {
            case model::ComputeFate::None:
                state = MacState::Empty;
                break;
            case model::ComputeFate::Skipped:
                state = MacState::Skipped;
                break;
            case model::ComputeFate::Gated:
                state = MacState::Gated;
                break;
            case model::ComputeFate::Actual:
                break;
            }
            if (state == MacState::Active && gatedAbove)
                state = MacState::Gated;
        }
        out[static_cast<std::size_t>(mac.global)] = state;
    }
}

ModelCountStates::ModelCountStates(std::int64_t macSteps, std::int64_t actual, std::int64_t gated,
                                   std::int64_t skipped)
{
    m_total = std::max<std::int64_t>(1, macSteps);
    const auto clamp = [&](std::int64_t x) { return std::clamp<std::int64_t>(x, 0, m_total); };
    m_actual = clamp(actual);
    m_gated = clamp(m_actual + std::max<std::int64_t>(0, gated));
    m_skipped = clamp(m_gated + std::max<std::int64_t>(0, skipped));
    // K near D / golden ratio and coprime to D: n -> n K mod D is a bijection of 0 .. D-1.
    std::int64_t k =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(double(m_total) * 0.6180339887498949));
    while (std::gcd(k, m_total) != 1)
        ++k;
    m_multiplier = k;
}

void ModelCountStates::states(const HardwareGeometry& geometry, std::int64_t step,
                              std::vector<MacState>& out) const
{
    out.assign(static_cast<std::size_t>(std::max<std::int64_t>(0, geometry.architecture().compute.instances)),
               MacState::Idle);
    const auto& macs = geometry.used(geometry.storageLevels());
    const auto first =
        static_cast<unsigned __int128>(std::clamp<std::int64_t>(step, 0, geometry.stepCount() - 1)) *
        macs.size();
    for (std::size_t i = 0; i < macs.size(); ++i) {
        const auto p = static_cast<std::int64_t>((first + i) * static_cast<unsigned __int128>(m_multiplier) %
                                                 static_cast<unsigned __int128>(m_total));
        out[static_cast<std::size_t>(macs[i].global)] = p < m_actual    ? MacState::Active
                                                        : p < m_gated   ? MacState::Gated
                                                        : p < m_skipped ? MacState::Skipped
                                                                        : MacState::Empty;
    }
}

} // namespace sparsemap::analysis
