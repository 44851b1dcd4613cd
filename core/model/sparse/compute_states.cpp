#include "model/sparse/compute_states.hpp"

#include "model/dataflow/loop_nest.hpp"
#include "model/sparse/operand_states.hpp"

#include <algorithm>
#include <array>
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

struct ComputeShares {
    double actual = 0, gated = 0, skipped = 0, none = 0; // computes (not yet rounded)
    double& of(ComputeFate fate)
    {
        switch (fate) {
        case ComputeFate::Gated:
            return gated;
        case ComputeFate::Skipped:
            return skipped;
        case ComputeFate::None:
            return none;
        case ComputeFate::Actual:
            break;
        }
        return actual;
    }
};

// k >= 3 operands: Sparseloop's own k-operand rule (compute-gs-analyzer.cpp,
// CalculateFineGrainedComputeAccesses, the code public Timeloop compiles with USE_MULTI_OPERAND; its
// default build asserts two operands and aborts; docs/oracle.md). Each operand is nonzero with its
// scalar density d, else a present zero (no metadata) or absent (metadata), independently, except:
//  * every operand the target of a storage gate or skip (whatever its probability: Sparseloop's
//    storage_gs_saf_): all nonzero with prod d, all absent with the rest;
//  * some such operands: the first one x (tensor order) takes its own states while the others are all
//    nonzero (prod d of the others), and x absent while the others are all absent (prod (1 - d) of the
//    others); every other mix has probability 0, so the shares do not sum to 1 and the computes no
//    mix claims stay actual (Sparseloop's "the calculated compute is not meeting the constraints").
// The states are not conditioned on the leaders being non-empty (the two-operand rule is).
// Each mix is counted as total x its probability, summed in Sparseloop's order (operand 0 the fastest
// digit of a base-3 counter over nonzero, present zero, absent).
ComputeShares multiOperandShares(std::span<const std::array<double, 3>> p, std::span<const char> safOperand,
                                 double total, const ComputeSiteActions& site)
{
    const std::size_t k = p.size();
    std::size_t count = 1;
    for (std::size_t i = 0; i < k; ++i)
        count *= 3;
    std::vector<double> flat(count, 0.0);
    std::vector<OperandState> st(k);
    const auto decode = [&](std::size_t s) {
        for (std::size_t i = 0; i < k; ++i, s /= 3)
            st[i] = static_cast<OperandState>(s % 3);
    };
    const bool all = std::all_of(safOperand.begin(), safOperand.end(), [](char b) { return b != 0; });
    const auto first = std::find(safOperand.begin(), safOperand.end(), char{1});
    if (all) {
        double enz = 1.0;
        std::size_t allAbsent = 0, digit = 1;
        for (std::size_t i = 0; i < k; ++i, digit *= 3) {
            enz = enz * p[i][0];
            allAbsent += 2 * digit;
        }
        flat[0] = enz;
        flat[allAbsent] = 1 - enz;
    } else if (first != safOperand.end()) {
        const auto x = static_cast<std::size_t>(first - safOperand.begin());
        for (std::size_t s = 0; s < count; ++s) {
            decode(s);
            bool othersNonzero = true, othersAbsent = true;
            double pNonzero = 1.0, pAbsent = 1.0;
            for (std::size_t i = 0; i < k; ++i) {
                if (i == x)
                    continue;
                othersNonzero = othersNonzero && st[i] == OperandState::Nonzero;
                othersAbsent = othersAbsent && st[i] == OperandState::Absent;
                if (othersAbsent)
                    pAbsent = pAbsent * (p[i][2] + p[i][1]);
                if (othersNonzero)
                    pNonzero = pNonzero * p[i][0];
            }
            if (othersNonzero)
                flat[s] = pNonzero * p[x][static_cast<std::size_t>(st[x])];
            else if (othersAbsent && st[x] == OperandState::Absent)
                flat[s] = pAbsent;
        }
    } else {
        for (std::size_t s = 0; s < count; ++s) {
            decode(s);
            double v = 1.0;
            for (std::size_t i = 0; i < k; ++i)
                v = v * p[i][static_cast<std::size_t>(st[i])];
            flat[s] = v;
        }
    }
    ComputeShares out;
    for (std::size_t s = 0; s < count; ++s) {
        decode(s);
        out.of(computeFate(st, site)) += total * flat[s];
    }
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
    const auto site = computeSiteActions(c.design.sparse, inputs);
    const bool anyPositionSkipped =
        std::any_of(inputs.begin(), inputs.end(), [&](int t) { return fx.positionSkipped[t]; });
    const auto hasMetadata = [&](int t) {
        const int level = innermostKeeping(c, t);
        return level >= 0 && scratch.states[level * static_cast<int>(w.tensors.size()) + t].hasFormat;
    };
    if (inputs.size() > 2 && !anyPositionSkipped) {
        std::vector<std::array<double, 3>> p(inputs.size());
        std::vector<char> saf(inputs.size(), 0);
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            const int t = inputs[i];
            const double d = round6(scalarDensity(*c.density[t]));
            p[i] = hasMetadata(t) ? std::array<double, 3>{d, 0, 1 - d} : std::array<double, 3>{d, 1 - d, 0};
            saf[i] = fx.operandTargeted[t] ? 1 : 0;
        }
        const auto shares = multiOperandShares(p, saf, available, site);
        compute.skipped = std::floor(shares.skipped);
        compute.gated = std::floor(shares.gated);
        compute.actual = available - compute.skipped - compute.gated - std::floor(shares.none);
    } else if (inputs.size() == 2 && !anyPositionSkipped) {
        for (int i = 0; i < 2; ++i) {
            const int t = inputs[i];
            const bool meta = hasMetadata(t);
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
            const bool meta = hasMetadata(inputs[j]);
            enz[j] = std::min(1.0, enz[j] / (1 - fx.operandSkipProbability[x]));
            ez[j] = meta ? 0 : 1 - enz[j];
            ne[j] = meta ? 1 - enz[j] : 0;
        }
        // Each group of mixes goes where computeFate sends it (summed in this order, Sparseloop's).
        ComputeShares p;
        p.actual = enz[0] * enz[1];
        p.none = ne[0] * ne[1];
        using S = OperandState;
        // Present zeros with no absent partner: gated or computed, never skipped.
        const std::pair<double, std::array<S, 2>> ezPairs[3] = {
            {ez[0] * enz[1], {S::PresentZero, S::Nonzero}},
            {enz[0] * ez[1], {S::Nonzero, S::PresentZero}},
            {ez[0] * ez[1], {S::PresentZero, S::PresentZero}}};
        for (const auto& [share, states] : ezPairs)
            p.of(computeFate(states, site)) += share;
        // Exactly one absent operand: the other one arrives without a partner.
        const std::array<S, 2> oneAbsentMix{S::Absent, S::Nonzero};
        p.of(computeFate(oneAbsentMix, site)) += ne[0] * (enz[1] + ez[1]) + ne[1] * (enz[0] + ez[0]);
        compute.skipped = std::floor(available * p.skipped);
        compute.gated = std::floor(available * p.gated);
        compute.actual = available - compute.skipped - compute.gated - std::floor(available * p.none);
    } else {
        compute.actual = available;
        compute.gated = compute.skipped = 0;
    }
    compute.instances = std::max(1.0, instances);
}

} // namespace sparsemap::model
