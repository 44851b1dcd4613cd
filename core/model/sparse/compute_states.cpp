#include "model/sparse/compute_states.hpp"

#include "model/dataflow/loop_nest.hpp"

#include <cmath>

namespace sparsemap::model {

namespace {

double round6(double x)
{
    return std::round(x * 1e6) / 1e6;
}

int innermostKeeping(const SparseContext& c, int t)
{
    for (int l = c.arch.levelCount() - 1; l >= 0; --l)
        if (c.dense.levels[l].tensors[t].kept)
            return l;
    return -1;
}

// Position skipping of `x` at level `level` (§4.7): its nonzeros are packed into the level's spatial
// lanes, so the other operand is read only for the temporal steps x still needs, and only the
// lanes holding nonzeros compute.
struct Compaction {
    double steps = 1;       // E[ceil(n / lanes)] / temporal steps
    double utilization = 1; // E[n / (lanes * ceil(n / lanes))]
};

Compaction compaction(const SparseContext& c, const SparseScratch& scratch, int level, int x, int y)
{
    const Workload& w = c.workload;
    const std::uint32_t only = relevantDims(w, x) & ~relevantDims(w, y);
    double lanes = 1, steps = 1;
    for (const auto& loop : scratch.allLoops)
        if (loop.storageLevel == level && loop.bound > 1 && ((only >> loop.dim) & 1u))
            (loop.spatial ? lanes : steps) *= static_cast<double>(loop.bound);
    Compaction out;
    if (lanes * steps <= 1)
        return out;
    std::vector<std::pair<std::int64_t, double>> dist;
    const std::int64_t volume = static_cast<std::int64_t>(lanes * steps);
    occupancyDistribution(*c.density[x], std::span<const std::int64_t>(&volume, 1), dist);
    double meanSteps = 0, util = 0;
    for (const auto& [k, p] : dist) {
        const double rounds = std::ceil(static_cast<double>(k) / lanes);
        meanSteps += p * rounds;
        if (k > 0)
            util += p * static_cast<double>(k) / (lanes * rounds);
    }
    out.steps = meanSteps / steps;
    out.utilization = util;
    return out;
}

} // namespace

void computeSparseComputes(const SparseContext& c, SparseScratch& scratch, const ComputeSafEffects& fx,
                           EvaluationResult& result)
{
    const Workload& w = c.workload;
    auto& compute = result.compute;
    const auto inputs = w.inputTensors();
    double available = fx.availableComputes;
    double instances = compute.instances * fx.instanceShare;

    // Position skipping: own empty scalars vanish; the other operand is read less often.
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const int x = inputs[i];
        if (!fx.positionSkipped[x])
            continue;
        const int level = innermostKeeping(c, x);
        if (level < 0 || !scratch.states[level * static_cast<int>(w.tensors.size()) + x].hasFormat)
            continue; // no metadata: nothing to compact
        available -= std::floor(available * probabilityEmptyOfVolume(*c.density[x], 1));
        if (inputs.size() == 2) {
            const int y = inputs[1 - i];
            const auto comp = compaction(c, scratch, level, x, y);
            auto& ry = result.levels[level].tensors[y];
            if (ry.kept) {
                const double rho =
                    scratch.states[level * static_cast<int>(w.tensors.size()) + y].hasFormat
                        ? scratch.states[level * static_cast<int>(w.tensors.size()) + y].density
                        : 1.0;
                ry.reads.actual =
                    ry.algorithmicReads - std::floor(ry.algorithmicReads * (1 - rho * comp.steps));
            }
            instances *= comp.utilization;
        }
    }

    // Operand states: ENZ (nonzero), EZ (a zero that is present), NE (absent: compressed away).
    double enz[2] = {1, 1}, ez[2] = {0, 0}, ne[2] = {0, 0};
    bool checked[2] = {false, false};
    bool gate = false, skip = false;
    for (const auto& site : c.design.sparse.sites) {
        if (site.storageLevel != kComputeSite)
            continue;
        for (const auto& a : site.actions) {
            (a.kind == SgKind::Gate ? gate : skip) = true;
            for (int cnd : a.conditionOn)
                for (std::size_t i = 0; i < inputs.size() && i < 2; ++i)
                    if (inputs[i] == cnd)
                        checked[i] = true;
            if (a.conditionOn.empty())
                for (std::size_t i = 0; i < inputs.size() && i < 2; ++i)
                    checked[i] = true;
        }
    }
    if (inputs.size() == 2 && !fx.positionSkipped[inputs[0]] && !fx.positionSkipped[inputs[1]]) {
        for (int i = 0; i < 2; ++i) {
            const int t = inputs[i];
            const int level = innermostKeeping(c, t);
            const bool meta =
                level >= 0 && scratch.states[level * static_cast<int>(w.tensors.size()) + t].hasFormat;
            const double d = round6(scalarDensity(*c.density[t]));
            enz[i] = d;
            (meta ? ne[i] : ez[i]) = 1 - d;
        }
        // A storage SAF on x conditions the other operand on x's leader being non-empty.
        for (int i = 0; i < 2; ++i) {
            const int x = inputs[i];
            if (!fx.operandSkipped[x] || fx.operandSkipProbability[x] >= 1)
                continue;
            const int j = 1 - i;
            const int y = inputs[j];
            const int level = innermostKeeping(c, y);
            const bool meta =
                level >= 0 && scratch.states[level * static_cast<int>(w.tensors.size()) + y].hasFormat;
            enz[j] = std::min(1.0, enz[j] / (1 - fx.operandSkipProbability[x]));
            ez[j] = meta ? 0 : 1 - enz[j];
            ne[j] = meta ? 1 - enz[j] : 0;
        }
        double pActual = enz[0] * enz[1], pGated = 0, pSkipped = 0, pNone = ne[0] * ne[1];
        // Present zeros with no absent partner: gated when the compute unit gates on that operand.
        // Skipping cannot drop them: both operands are there, so the MAC runs (Sparseloop's
        // compute-gs-analyzer: cases 2, 4 and 5 are random or gated, never skipped).
        const double ezPairs[3][2] = {{ez[0] * enz[1], 0}, {enz[0] * ez[1], 1}, {ez[0] * ez[1], 2}};
        for (const auto& [share, who] : ezPairs) {
            const bool seen = who == 2 ? (checked[0] || checked[1]) : checked[static_cast<int>(who)];
            if (gate && seen)
                pGated += share;
            else
                pActual += share;
        }
        // Exactly one absent operand: the other one arrives without a partner.
        const double oneAbsent = ne[0] * (enz[1] + ez[1]) + ne[1] * (enz[0] + ez[0]);
        if (skip)
            pSkipped += oneAbsent;
        else if (gate)
            pGated += oneAbsent;
        else
            pActual += oneAbsent;
        (void)pNone;
        compute.skipped = std::floor(available * pSkipped);
        compute.gated = std::floor(available * pGated);
        compute.actual = available - compute.skipped - compute.gated - std::floor(available * pNone);
    } else {
        compute.actual = available;
        compute.gated = compute.skipped = 0;
    }
    compute.instances = std::max(1.0, instances);
}

} // namespace sparsemap::model
