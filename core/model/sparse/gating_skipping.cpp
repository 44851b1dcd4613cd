#include "model/sparse/gating_skipping.hpp"

#include "model/dataflow/loop_nest.hpp"
#include "util/limits.hpp"
#include "util/rounding.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace sparsemap::model {

namespace {

// Per-dim extents of a tile, on the stack (a workload has at most kMaxDims dims: workloadProblems).
using DimExtents = std::array<double, kMaxDims>;

double projected(const Workload& w, int tensor, const DimExtents& dims)
{
    double v = 1;
    for (const auto& rank : w.tensors[tensor].ranks) {
        double extent = 1;
        for (const auto& term : rank)
            extent += static_cast<double>(term.coefficient) * (dims[term.dim] - 1);
        v *= extent;
    }
    return v;
}

int keptAtOrAbove(const SparseContext& c, int s, int t)
{
    for (int l = s; l >= 0; --l)
        if (c.dense.levels[l].tensors[t].kept)
            return l;
    return -1;
}

int keptBelow(const SparseContext& c, int s, int t)
{
    for (int l = s + 1; l < c.arch.levelCount(); ++l)
        if (c.dense.levels[l].tensors[t].kept)
            return l;
    return -1;
}

TensorSparseState& state(const SparseContext& c, SparseScratch& scratch, int s, int t)
{
    return scratch.states[s * static_cast<int>(c.workload.tensors.size()) + t];
}

// Probability that a leader-follower SAF at level `lt` eliminates an access to `target`
// (§4.2): the follower tile is the operation space up to the target loop; each condition's
// leader tile grows by the spatial loops above it and shrinks along co-iterated dims.
double leaderFollowerProbability(const SparseContext& c, SparseScratch& scratch, int lt, int target,
                                 std::span<const int> conditions)
{
    // Sparseloop 2022's rule (storage-gs-analyzer, ComputeIneffectualReadImpact): the target tile an
    // SAF skips is the operation space of the *target loop* (and every loop inside it); the leader
    // tile adds the spatial loops above the target loop (and, for a spatial target, the temporal loops
    // above it up to the first one over the target's dims), minus one iteration of every such loop
    // the target shares with the leader (co-iteration: one leader element per follower element).
    const Workload& w = c.workload;
    const auto& loops = scratch.allLoops;
    const int child = keptBelow(c, lt, target);
    const int stop = child >= 0 ? child : c.arch.levelCount();
    const std::uint32_t targetDims = relevantDims(w, target);
    // Loops of levels [lt, stop), innermost first, as indices into `loops`.
    int targetLoop = -1, lastSpatial = -1;
    bool scalarMold = false;
    int first = -1, last = -1;
    for (int i = 0; i < static_cast<int>(loops.size()); ++i) {
        const auto& loop = loops[i];
        if (loop.storageLevel < lt || loop.storageLevel >= stop)
            continue;
        if (first < 0)
            first = i;
        last = i;
        if (targetLoop >= 0 || scalarMold)
            continue;
        const bool indexes = (targetDims >> loop.dim) & 1u;
        if (child >= 0) {
            if (loop.bound > 1 && indexes)
                targetLoop = i;
        } else if (loop.spatial) {
            if (loop.bound > 1 && indexes)
                targetLoop = i;
            else if (loop.bound > 1)
                lastSpatial = i;
        } else if (lastSpatial >= 0) {
            targetLoop = lastSpatial; // the MACs' whole spatial tile: the outermost spatial loop
        } else {
            scalarMold = true; // a MAC consumes one operand element per temporal step
        }
    }
    if (first < 0)
        return 0;
    if (!scalarMold && targetLoop < 0)
        targetLoop = lastSpatial >= 0 ? lastSpatial : last;
    // The target loop's operation space and the loops above it that join the leader's.
    const std::size_t dimCount = w.dims.size();
    DimExtents base;
    std::fill_n(base.begin(), dimCount, 1.0);
    auto& relevant = scratch.loopIndices;
    relevant.clear();
    // Sparseloop's granularity: the target tile the target loop's operation space holds (one
    // element for a scalar mold), and the dim of the target loop.
    double granularity = 1;
    const int targetLoopDim = loops[scalarMold ? first : targetLoop].dim;
    if (!scalarMold) {
        for (int i = 0; i <= targetLoop; ++i)
            base[loops[i].dim] *= static_cast<double>(loops[i].bound);
        granularity = projected(w, target, base);
        relevant.push_back(targetLoop);
        bool sawRelevantTemporal = false;
        const bool spatialTarget = loops[targetLoop].spatial;
        for (int i = targetLoop + 1; i <= last; ++i) {
            const auto& loop = loops[i];
            if (loop.bound <= 1)
                continue;
            if (loop.spatial) {
                base[loop.dim] *= static_cast<double>(loop.bound);
                relevant.push_back(i);
            } else if (spatialTarget && child >= 0 && !sawRelevantTemporal) {
                if ((targetDims >> loop.dim) & 1u) {
                    sawRelevantTemporal = true;
                } else {
                    base[loop.dim] *= static_cast<double>(loop.bound);
                    relevant.push_back(i);
                }
            }
        }
    } else {
        // A scalar mold still stays put across the spatial loops above it: they join the leader's
        // tile, with no co-iteration taken off (Sparseloop skips that step for a scalar mold).
        for (int i = first + 1; i <= last; ++i)
            if (loops[i].spatial && loops[i].bound > 1)
                base[loops[i].dim] *= static_cast<double>(loops[i].bound);
    }
    const double block = static_cast<double>(std::max(1, c.arch.levels[lt].blockSize));
    double keep = 1;
    DimExtents mold, coIteration;
    for (int cnd : conditions) {
        mold = base;
        std::fill_n(coIteration.begin(), dimCount, 1.0);
        const std::uint32_t conditionDims = relevantDims(w, cnd);
        const std::uint32_t shared = targetDims & conditionDims;
        bool coIterated = false, ineffective = false;
        double aggregated = 1;
        for (int i : relevant) {
            const auto& loop = loops[i];
            if (loop.bound <= 1)
                continue;
            // A spatial co-iteration below a loop over the leader: no concordant traversal.
            if (loops[targetLoop].spatial && coIterated && ((conditionDims >> loop.dim) & 1u)) {
                ineffective = true;
                break;
            }
            if ((shared >> loop.dim) & 1u) {
                coIteration[loop.dim] *= static_cast<double>(loop.bound);
                aggregated *= static_cast<double>(loop.bound);
                coIterated = true;
            }
        }
        if (ineffective)
            continue;
        // Co-iteration leaves one leader element per follower element, but the follower is handled
        // at least a block at a time: where the target loop's own tile holds fewer elements than
        // the co-iterated loops (times the block), the leader keeps that many of them per step
        // (Sparseloop: scaling_needed_to_fit_block_size, applied per co-iterated dim in dim order,
        // with the leader's extents held as integers).
        double scaling = std::ceil(block / (granularity / aggregated));
        for (std::size_t d = 0; d < dimCount; ++d) {
            if (coIteration[d] == 1.0)
                continue;
            const double effective = coIteration[d] / scaling;
            mold[d] = std::ceil(mold[d] / effective);
            scaling /= coIteration[d];
        }
        if (scaling > 1)
            mold[static_cast<std::size_t>(targetLoopDim)] =
                std::trunc(mold[static_cast<std::size_t>(targetLoopDim)] * scaling);
        keep *= 1 - probabilityEmptyOfVolume(*c.density[cnd], projected(w, cnd, mold));
    }
    return 1 - keep;
}

// The share of a level's format traffic an SAF there can remove: a read sends the child only the
// ranks the child's format has (the innermost ones; all of them towards the compute; none to a child
// without a format), so only those ranks' accesses are gated or skipped (Sparseloop 2022,
// ApplyLocalStorageSAFImpact).
double childRankShare(const SparseContext& c, SparseScratch& scratch, int level, int tensor)
{
    const auto& st = state(c, scratch, level, tensor);
    if (!st.hasFormat || st.rankCount == 0)
        return 1;
    const int child = keptBelow(c, level, tensor);
    int n = st.rankCount;
    if (child >= 0) {
        const auto& below = state(c, scratch, child, tensor);
        n = below.hasFormat ? std::min(below.rankCount, st.rankCount) : 0;
    }
    double all = 0, sent = 0;
    for (int q = 0; q < st.rankCount; ++q) {
        const double bits = st.expectedUnits[q].metadata * st.ranks[q].metadataBits +
                            st.expectedUnits[q].payload * st.ranks[q].payloadBits;
        all += bits;
        if (q < n)
            sent += bits;
    }
    return all > 0 ? sent / all : 0;
}

void eliminate(ActionSplit& split, double delta, SgKind kind)
{
    split.actual -= delta;
    (kind == SgKind::Gate ? split.gated : split.skipped) += delta;
}

// The share of a level's format traffic in its innermost rank.
double innermostRankShare(const TensorSparseState& st)
{
    double all = 0, inner = 0;
    for (int q = 0; q < st.rankCount; ++q) {
        const double bits = st.expectedUnits[q].metadata * st.ranks[q].metadataBits +
                            st.expectedUnits[q].payload * st.ranks[q].payloadBits;
        all += bits;
        if (q == 0)
            inner = bits;
    }
    return all > 0 ? inner / all : 0;
}

// Accesses below an SAF level simply do not happen for the eliminated sub-trees. Format accesses
// follow Sparseloop 2022 (storage-optimization-combiner, ScalePerTileFormatAccesses over the rank
// range [min(ranks below, ranks at the SAF level - 1), 0]): only the innermost rank's fills and reads,
// and only when the SAF level's format has a single rank; format updates never.
void removeShare(TensorLevelResult& r, double p, double formatShare)
{
    for (ActionSplit* split : {&r.reads, &r.fills, &r.updates})
        split->actual -= std::floor(split->actual * p);
    for (ActionSplit* split : {&r.metadataReads, &r.metadataFills})
        split->actual -= std::floor(split->actual * formatShare * p);
}

// leaderHasMetadata on the bound formats: a level holds a tensor with metadata when its sparse state has
// a format.
bool leaderHasBoundMetadata(const SparseContext& c, SparseScratch& scratch, int s, int cnd)
{
    return leaderHasMetadata(
        c.arch.levelCount(), s, cnd, [&](int l, int t) { return c.dense.levels[l].tensors[t].kept; },
        [&](int l, int t) { return state(c, scratch, l, t).hasFormat; });
}

} // namespace

bool skipNeedsLeaderMetadata(const ModelOptions& options, const SgAction& a)
{
    return a.kind == SgKind::Skip && options.skipNeedsLeaderMetadata;
}

std::string safStructureProblem(const SparseContext& c, SparseScratch& scratch)
{
    const Workload& w = c.workload;
    const int tensors = static_cast<int>(w.tensors.size());
    // In applyStorageSafs' order (outer levels first, then sites and actions as given), so that a design
    // with several problems reports the one it always did.
    for (int s = 0; s < c.arch.levelCount(); ++s)
        for (const auto& site : c.design.sparse.sites) {
            if (site.storageLevel != s)
                continue;
            for (const auto& a : site.actions) {
                if (a.target < 0 || a.target >= tensors)
                    return "an S/G action names an unknown tensor";
                if (a.conditionOn.empty())
                    continue; // position skipping
                const auto& targetName = w.tensors[a.target].name;
                if (keptAtOrAbove(c, s, a.target) < 0)
                    return "S/G at " + c.arch.levels[s].name + " targets " + targetName +
                           ", which no level above keeps";
                if (skipNeedsLeaderMetadata(c.options, a) &&
                    std::none_of(a.conditionOn.begin(), a.conditionOn.end(),
                                 [&](int cnd) { return leaderHasBoundMetadata(c, scratch, s, cnd); })) {
                    std::string names;
                    for (int cnd : a.conditionOn)
                        names += (names.empty() ? "" : ", ") + w.tensors[cnd].name;
                    return "Skip " + targetName + " <- " + names + " at " + c.arch.levels[s].name +
                           ": no leader has metadata there to skip by (compress a leader or gate "
                           "instead)";
                }
            }
        }
    return {};
}

void applyStorageSafs(const SparseContext& c, SparseScratch& scratch, EvaluationResult& result,
                      ComputeSafEffects& fx)
{
    const Workload& w = c.workload;
    const int tensors = static_cast<int>(w.tensors.size());
    const int levels = c.arch.levelCount();
    fx.operandSkipped.assign(tensors, false);
    fx.operandSkipProbability.assign(tensors, 0.0);
    fx.operandTargeted.assign(tensors, false);
    fx.positionSkipped.assign(tensors, false);
    double spatialRatio = 1; // average MAC share left by spatial skipping

    // Leader-follower SAFs, outer levels first so that inner ones see conditional probabilities.
    auto& upperP = scratch.upperP;
    auto& safP = scratch.safP;
    auto& safLevel = scratch.safLevel; // the outermost level with an SAF on the tensor
    upperP.assign(tensors, 0.0);
    safP.assign(tensors, 0.0);
    safLevel.assign(tensors, -1);
    for (int s = 0; s < levels; ++s) {
        for (const auto& site : c.design.sparse.sites) {
            if (site.storageLevel != s)
                continue;
            for (const auto& a : site.actions) {
                // safStructureProblem has passed: a known target, kept at or above s.
                if (a.conditionOn.empty()) {
                    fx.positionSkipped[a.target] = true;
                    continue; // position skipping: handled with compute (§4.7)
                }
                const int lt = keptAtOrAbove(c, s, a.target);
                // A skip can only jump over the zeros of leaders whose metadata says where they
                // are: leaders without metadata drop out (safStructureProblem: one is left).
                auto& leaders = scratch.leaders;
                leaders.assign(a.conditionOn.begin(), a.conditionOn.end());
                if (skipNeedsLeaderMetadata(c.options, a))
                    std::erase_if(leaders,
                                  [&](int cnd) { return !leaderHasBoundMetadata(c, scratch, s, cnd); });
                if (!w.tensors[a.target].isOutput)
                    fx.operandTargeted[a.target] = true;
                if (a.kind == SgKind::SpatialSkip) {
                    double ratio = 1, expansion = 1;
                    for (int cnd : a.conditionOn) {
                        const int at = keptAtOrAbove(c, s, cnd);
                        if (at < 0 || !state(c, scratch, at, cnd).hasFormat)
                            continue;
                        // The innermost spatial loop of this level over the condition's dims.
                        DimExtents mold;
                        std::fill_n(mold.begin(), w.dims.size(), 1.0);
                        const std::uint32_t dims = relevantDims(w, cnd);
                        for (const auto& loop : scratch.allLoops) {
                            if (loop.storageLevel == s && loop.spatial && loop.bound > 1 &&
                                ((dims >> loop.dim) & 1u))
                                break;
                            mold[loop.dim] *= static_cast<double>(loop.bound);
                        }
                        ratio *= 1 - probabilityEmptyOfVolume(*c.density[cnd], projected(w, cnd, mold));
                        // Fan-out needed: each spatial loop over the condition's dims only needs as
                        // many instances as a full fiber has non-empty elements.
                        std::fill_n(mold.begin(), w.dims.size(), 1.0);
                        for (const auto& loop : scratch.allLoops) {
                            if (loop.storageLevel == s && loop.spatial && loop.bound > 1 &&
                                ((dims >> loop.dim) & 1u)) {
                                const double elem = projected(w, cnd, mold);
                                const double fiber = elem * static_cast<double>(loop.bound);
                                const double full =
                                    static_cast<double>(maxOccupancyOfVolume(*c.density[cnd], fiber));
                                const double nonEmpty = ceilCount(
                                    static_cast<double>(loop.bound) *
                                    (1 - probabilityEmptyGiven(*c.density[cnd], elem, fiber, full)));
                                expansion *= std::min(1.0, nonEmpty / static_cast<double>(loop.bound));
                            }
                            if (loop.storageLevel < s)
                                break;
                            mold[loop.dim] *= static_cast<double>(loop.bound);
                        }
                    }
                    fx.spatialSkipLevel = s;
                    if (safLevel[a.target] < 0)
                        safLevel[a.target] = s;
                    fx.expansionScale = std::min(fx.expansionScale, expansion);
                    const double p = 1 - ratio;
                    if (!w.tensors[a.target].isOutput && p > safP[a.target]) {
                        safP[a.target] = p;
                        fx.operandSkipped[a.target] = true;
                    }
                    spatialRatio = std::min(spatialRatio, ratio);
                    continue;
                }
                const double pAbs = leaderFollowerProbability(c, scratch, lt, a.target, leaders);
                const double pLocal = upperP[a.target] > 0 && upperP[a.target] < 1
                                          ? 1 - (1 - pAbs) / (1 - upperP[a.target])
                                          : pAbs;
                const double p = std::clamp(pLocal, 0.0, 1.0);
                auto& r = result.levels[lt].tensors[a.target];
                const bool rw = w.tensors[a.target].isOutput;
                // Sparseloop 2022 (storage-optimization-combiner) finalizes a level whose SAF lies
                // below another SAF on the same tensor with its metadata updates in place of its
                // metadata reads: an input's metadata reads there are none, an output's equal its
                // metadata updates. Reproduced so that our numbers are Sparseloop's.
                if (safLevel[a.target] >= 0 && safLevel[a.target] < lt)
                    r.metadataReads = ActionSplit{r.metadataUpdates.actual, 0, 0};
                else if (safLevel[a.target] < 0)
                    safLevel[a.target] = lt;
                eliminate(r.reads, rw ? ceilCount(r.reads.actual * p) : std::floor(r.reads.actual * p),
                          a.kind);
                eliminate(r.updates, std::floor(r.updates.actual * p), a.kind);
                const double share = childRankShare(c, scratch, lt, a.target);
                eliminate(r.metadataReads, std::floor(r.metadataReads.actual * share * p), a.kind);
                eliminate(r.metadataUpdates, std::floor(r.metadataUpdates.actual * share * p), a.kind);
                // Propagate to the levels below that keep the target.
                const auto& safState = state(c, scratch, lt, a.target);
                const bool oneRank = safState.hasFormat && safState.rankCount == 1;
                for (int l = lt + 1; l < levels; ++l)
                    if (c.dense.levels[l].tensors[a.target].kept) {
                        const auto& below = state(c, scratch, l, a.target);
                        removeShare(result.levels[l].tensors[a.target], p,
                                    oneRank && below.hasFormat ? innermostRankShare(below) : 0.0);
                    }
                upperP[a.target] = std::max(upperP[a.target], pAbs);
                // Gating and skipping alike remove the computes of the operand they empty (Sparseloop
                // 2022, storage-optimization-combiner: max_computes -= floor(max_computes x p) for
                // either SAF type); the storage level's gated accesses still take its cycles.
                if (!rw && pAbs > safP[a.target]) {
                    safP[a.target] = pAbs;
                    fx.operandSkipped[a.target] = true;
                }
            }
        }
    }
    // Computes whose operands a storage skip or gate removed no longer exist.
    double available = c.dense.algorithmicComputes;
    for (int t = 0; t < tensors; ++t) {
        if (safP[t] > 0)
            available -= std::floor(available * safP[t]);
        fx.operandSkipProbability[t] = std::round(safP[t] * 1e6) / 1e6;
    }
    fx.availableComputes = available;
    fx.instanceShare = spatialRatio;
}

} // namespace sparsemap::model
