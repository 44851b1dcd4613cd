#include "model/sparse/sparse_analysis.hpp"

#include "model/sparse/compute_states.hpp"
#include "model/sparse/gating_skipping.hpp"
#include "model/sparse/representation.hpp"

namespace sparsemap::model {

namespace {

// Whether `tensor` is position-skipped at storage level `s` (a skip with no condition: the level
// reads only the non-empty positions). Block-wide reads of such a tile are not corrected for
// partly filled blocks: the Fig. 15 reference (a Sparseloop that has position-skipping, which
// 019f107 does not parse) charges the DSTC designs' position-skipped register files naively, while
// 019f107 corrects every other compressed tile (the conv1d exercise; generated toy designs).
bool positionSkippedAt(const SparseStrategy& sparse, int s, int tensor)
{
    for (const auto& site : sparse.sites)
        if (site.storageLevel == s)
            for (const auto& a : site.actions)
                if (a.kind == SgKind::Skip && a.conditionOn.empty() && a.target == tensor)
                    return true;
    return false;
}

} // namespace

std::string analyzeSparse(const SparseContext& c, EvaluationResult& result, SparseScratch& scratch)
{
    const Workload& w = c.workload;
    const int tensors = static_cast<int>(w.tensors.size());
    const int levels = c.arch.levelCount();
    flattenLoops(c.design.mapping, scratch.allLoops, true);
    scratch.states.resize(static_cast<std::size_t>(levels * tensors));

    // Stage 1: formats bound to tiles, inner levels first (a compressed level pre-tiles with the
    // ranks of the level below it).
    for (int t = 0; t < tensors; ++t)
        for (int s = levels - 1; s >= 0; --s) {
            if (auto problem = bindFormatRanks(c, s, t, scratch); !problem.empty())
                return problem;
            const auto& st = scratch.states[s * tensors + t];
            // (A UOP with 0-bit words is an uncompressed rank: our export writes U so, and Sparseloop
            // accepts it.)
            if (st.hasFormat && st.rankCount > 0 && st.ranks[0].format == RankFormat::UOP &&
                !st.ranks[0].dummy && st.ranks[0].payloadBits != 0)
                return "the format of " + w.tensors[t].name + " at " + c.arch.levels[s].name +
                       " ends in UOP: an offset pair as the innermost rank has no payload to point to";
        }

    // The S/G actions must be buildable on those formats: checked before any cost (a malformed design).
    if (auto problem = safStructureProblem(c, scratch); !problem.empty())
        return problem;

    // Stage 2: occupancy (capacity, expected density, format units) and the accesses it implies.
    for (int t = 0; t < tensors; ++t) {
        bool parentHasFormat = false;
        for (int s = 0; s < levels; ++s) {
            auto& st = scratch.states[s * tensors + t];
            auto& r = result.levels[s].tensors[t];
            if (!r.kept)
                continue;
            if (st.hasFormat) {
                computeOccupancy(c, s, t, parentHasFormat, scratch);
                applyRepresentation(c, s, t, parentHasFormat, scratch, r);
                r.instances *= st.nonEmptyShare;
                if (positionSkippedAt(c.design.sparse, s, t))
                    r.vectorRatio = 1;
            } else if (parentHasFormat) {
                r.instances *= nonEmptyTileProbability(c, s, t, scratch);
            }
            parentHasFormat = st.hasFormat;
        }
    }

    // Stage 3: gating and skipping at storage levels, then stage 4: compute.
    ComputeSafEffects effects;
    applyStorageSafs(c, scratch, result, effects);
    computeSparseComputes(c, scratch, effects, result);

    // Spatial skipping needs fewer instances below its level.
    if (effects.spatialSkipLevel >= 0) {
        for (int s = effects.spatialSkipLevel + 1; s < levels; ++s)
            result.levels[s].maxInstances *= effects.expansionScale;
        result.compute.maxInstances *= effects.expansionScale;
    }
    for (auto& level : result.levels) {
        double used = 0;
        for (const auto& t : level.tensors)
            if (t.kept)
                used = std::max(used, t.instances);
        if (used > 0)
            level.instances = used;
    }
    return {};
}

} // namespace sparsemap::model
