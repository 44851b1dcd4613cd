#include "model/dataflow/dense_traffic.hpp"

#include "util/limits.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace sparsemap::model {

double tileVolume(const Workload& workload, int tensor, const std::vector<NestLoop>& loops, std::size_t end,
                  DataflowScratch& scratch)
{
    auto& dimTiles = scratch.dimTiles;
    dimTiles.assign(workload.dims.size(), 1);
    for (std::size_t i = 0; i < end; ++i)
        dimTiles[loops[i].dim] *= loops[i].bound;
    double volume = 1;
    for (const auto& rank : workload.tensors[tensor].ranks) {
        std::int64_t extent = 1;
        for (const auto& term : rank)
            extent += term.coefficient * (dimTiles[term.dim] - 1);
        volume *= static_cast<double>(extent);
    }
    return volume;
}

namespace {

// Where each storage level's loops sit in the innermost-first list: [begin, spatialEnd) are its
// spatial loops, [spatialEnd, end) its temporal loops.
struct LevelSpan {
    std::size_t begin = 0, spatialEnd = 0, end = 0;
};

// The fraction of a tile that is new when the loop `step` advances by one, for sliding windows:
// a rank indexed as coef*dim + ... moves by coef * (the dim's extent inside the loop); the overlap
// with the previous tile is reused. 1 when the loop's dim indexes only single-term ranks.
double slidingDelta(const Workload& w, int tensor, const std::vector<NestLoop>& loops, std::size_t step,
                    DataflowScratch& scratch, std::size_t childEnd)
{
    const int dim = loops[step].dim;
    bool windowed = false;
    for (const auto& rank : w.tensors[tensor].ranks)
        if (rank.size() > 1)
            for (const auto& term : rank)
                windowed |= term.dim == dim;
    if (!windowed)
        return 1.0;
    // Extent of the dim covered by all loops inside `step` (its displacement per step), and the
    // child tile's per-dim sizes.
    std::int64_t stride = 1;
    for (std::size_t i = 0; i < step; ++i)
        if (loops[i].dim == dim)
            stride *= loops[i].bound;
    auto& dimTiles = scratch.dimTiles;
    dimTiles.assign(w.dims.size(), 1);
    for (std::size_t i = 0; i < childEnd; ++i)
        dimTiles[loops[i].dim] *= loops[i].bound;
    double fraction = 1.0;
    for (const auto& rank : w.tensors[tensor].ranks) {
        std::int64_t extent = 1, shift = 0;
        for (const auto& term : rank) {
            extent += term.coefficient * (dimTiles[term.dim] - 1);
            if (term.dim == dim)
                shift += term.coefficient * stride;
        }
        if (shift > 0)
            fraction *= std::min<double>(1.0, static_cast<double>(shift) / static_cast<double>(extent));
    }
    return fraction;
}

// The extent one step of spatial loop `l` moves its dim: the bounds of the loops inside it (the
// child tile and the inner spatial loops) over the same dim.
std::int64_t spatialStride(const std::vector<NestLoop>& loops, std::size_t l)
{
    std::int64_t stride = 1;
    for (std::size_t i = 0; i < l; ++i)
        if (loops[i].dim == loops[l].dim)
            stride *= loops[i].bound;
    return stride;
}

// Distinct tiles of `tensor` among the children of one instance (the level's spatial loops are
// loops[begin, end)). Timeloop multicasts a delta only to children whose deltas are exactly equal,
// so children whose tiles sit at the same coordinates cost one read. Children differ wherever a
// spatial loop moves a rank of the tensor; in a sliding-window rank (p + r) two spatial loops can
// put two children at the same offset, so that rank has fewer distinct offsets than children.
double distinctChildTiles(const Workload& w, int tensor, std::uint32_t relevant,
                          const std::vector<NestLoop>& loops, std::size_t begin, std::size_t end)
{
    double product = 1;
    for (std::size_t i = begin; i < end; ++i)
        if ((relevant >> loops[i].dim) & 1u)
            product *= static_cast<double>(loops[i].bound);
    const auto& ranks = w.tensors[tensor].ranks;
    auto termOf = [](const RankProjection& rank, int dim) -> const ProjectionTerm* {
        for (const auto& term : rank)
            if (term.dim == dim)
                return &term;
        return nullptr;
    };
    // Which ranks have two or more spatial loops moving them, and does any such loop's dim index a
    // second rank (then ranks are not independent and the offsets are enumerated jointly)?
    bool overlap = false, shared = false;
    for (const auto& rank : ranks) {
        if (rank.size() < 2)
            continue;
        int moving = 0;
        for (std::size_t i = begin; i < end; ++i)
            moving += termOf(rank, loops[i].dim) != nullptr && loops[i].bound > 1;
        overlap |= moving >= 2;
    }
    if (!overlap)
        return product;
    for (std::size_t i = begin; i < end; ++i) {
        if (loops[i].bound <= 1)
            continue;
        int ranksIndexed = 0;
        for (const auto& rank : ranks)
            ranksIndexed += termOf(rank, loops[i].dim) != nullptr;
        shared |= ranksIndexed > 1;
    }
    thread_local std::vector<std::size_t> moving;
    moving.clear();
    for (std::size_t i = begin; i < end; ++i)
        if (loops[i].bound > 1 && ((relevant >> loops[i].dim) & 1u))
            moving.push_back(i);
    // Offsets of the children over the ranks `which` (all ranks when `which` < 0), sorted and made
    // unique: a mixed-radix walk over the moving spatial loops.
    // Offsets of the children over the ranks `which` (all ranks when `which` < 0), counted once
    // each: a mixed-radix walk over the moving spatial loops. (Reused buffers: this runs for every
    // windowed tensor of every evaluation.)
    thread_local std::vector<std::size_t> used;
    thread_local std::vector<std::int64_t> index, strides, offsets;
    auto distinctOffsets = [&](int which) {
        used.clear();
        for (std::size_t i : moving)
            for (std::size_t r = 0; r < ranks.size(); ++r)
                if ((which < 0 || static_cast<int>(r) == which) && termOf(ranks[r], loops[i].dim)) {
                    used.push_back(i);
                    break;
                }
        if (which >= 0 && used.size() <= 1) // one loop moves the rank: every child has its own offset
            return used.empty() ? 1.0 : static_cast<double>(loops[used.front()].bound);
        strides.clear();
        for (std::size_t i : used)
            strides.push_back(spatialStride(loops, i));
        const std::size_t width = which < 0 ? ranks.size() : 1;
        index.assign(used.size(), 0);
        offsets.clear();
        for (;;) {
            for (std::size_t r = 0; r < ranks.size(); ++r) {
                if (which >= 0 && static_cast<int>(r) != which)
                    continue;
                std::int64_t offset = 0;
                for (std::size_t k = 0; k < used.size(); ++k)
                    if (const auto* term = termOf(ranks[r], loops[used[k]].dim))
                        offset += term->coefficient * strides[k] * index[k];
                offsets.push_back(offset);
            }
            std::size_t k = 0;
            while (k < used.size() && ++index[k] == loops[used[k]].bound)
                index[k++] = 0;
            if (k == used.size())
                break;
        }
        if (width == 1) {
            std::sort(offsets.begin(), offsets.end());
            return static_cast<double>(std::unique(offsets.begin(), offsets.end()) - offsets.begin());
        }
        // Unique rows of `width` offsets.
        std::vector<std::vector<std::int64_t>> rows;
        for (std::size_t i = 0; i < offsets.size(); i += width)
            rows.emplace_back(offsets.begin() + static_cast<std::ptrdiff_t>(i),
                              offsets.begin() + static_cast<std::ptrdiff_t>(i + width));
        std::sort(rows.begin(), rows.end());
        return static_cast<double>(std::unique(rows.begin(), rows.end()) - rows.begin());
    };
    if (shared)
        return distinctOffsets(-1);
    double distinct = 1;
    for (std::size_t r = 0; r < ranks.size(); ++r)
        distinct *= distinctOffsets(static_cast<int>(r));
    return distinct;
}

// Timeloop's temporal delta for a sliding-window tensor, emulated (nest-analysis.cpp,
// ComputeTemporalWorkingSet with temporal extrapolation, and SaveAndSubtractIfSameStride). Timeloop
// runs only iterations #0 and #1 of every temporal loop and counts #1's delta for all the others
// (b - 1 times); a child tile's delta is the part not in the previous tile it saw, but only while
// the tile moves by the same translation as the step before (a change of stride refetches the whole
// tile and forgets the stride; the next step then keeps the overlap again). So a loop inside the
// sliding one that leaves the tile put does not break the reuse at the slide that follows it: the
// extrapolated iterations never show Timeloop that step. The tile is a box per rank; its state is
// the last offset and stride, relative to the loops' base, which a memo per loop shares between
// the paths that reach it in the same state.
class WindowSimulation {
public:
    static constexpr std::size_t kMaxRanks = 8;
    using Offsets = std::array<std::int64_t, kMaxRanks>;

    struct State {
        bool seen = false;     // a previous tile exists
        bool strided = false;  // the previous step's translation is known
        Offsets last{};        // offset of the previous tile, relative to the current base
        Offsets translation{}; // the previous step's translation (when strided)
        bool operator==(const State&) const = default;
    };

    // `extents` = the child tile's extents per rank; then addLoop for every loop, outermost first.
    void reset(std::size_t ranks, const Offsets& extents)
    {
        m_ranks = ranks;
        m_extents = extents;
        m_volume = 1;
        for (std::size_t r = 0; r < ranks; ++r)
            m_volume *= static_cast<double>(extents[r]);
        m_bounds.clear();
        m_shifts.clear();
    }
    void addLoop(std::int64_t bound, const Offsets& shift)
    {
        m_bounds.push_back(bound);
        m_shifts.push_back(shift);
    }
    // Coordinates fetched over the whole nest, in tiles.
    double changes()
    {
        m_memo.resize(m_bounds.size() + 1);
        m_memoCount.assign(m_bounds.size() + 1, 0);
        State state;
        return solve(0, state) / m_volume;
    }

private:
    struct Memo {
        State in, out;
        double sum = 0;
    };
    static constexpr std::size_t kMemoPerLoop = 8;

    double leaf(State& st) const
    {
        double delta = m_volume;
        if (st.seen) {
            Offsets t{};
            for (std::size_t r = 0; r < m_ranks; ++r)
                t[r] = -st.last[r]; // the current tile sits at offset 0
            const bool same =
                st.strided && std::equal(t.begin(), t.begin() + m_ranks, st.translation.begin());
            if (!st.strided || same) {
                double overlap = 1;
                for (std::size_t r = 0; r < m_ranks; ++r)
                    overlap *= static_cast<double>(std::max<std::int64_t>(0, m_extents[r] - std::abs(t[r])));
                delta = m_volume - overlap;
                st.strided = true;
                st.translation = t;
            } else {
                st.strided = false; // stride changed: the whole tile, and the stride is forgotten
            }
        }
        st.seen = true;
        st.last.fill(0);
        return delta;
    }

    double solve(std::size_t i, State& st)
    {
        if (i == m_bounds.size())
            return leaf(st);
        for (std::size_t k = 0; k < m_memoCount[i]; ++k)
            if (m_memo[i][k].in == st) {
                st = m_memo[i][k].out;
                return m_memo[i][k].sum;
            }
        const State in = st;
        double sum = solve(i + 1, st); // iteration #0
        // Iteration #1, counted for the b - 1 iterations after #0: its base is one step further.
        for (std::size_t r = 0; r < m_ranks; ++r)
            st.last[r] -= m_shifts[i][r];
        sum += static_cast<double>(m_bounds[i] - 1) * solve(i + 1, st);
        for (std::size_t r = 0; r < m_ranks; ++r)
            st.last[r] += m_shifts[i][r];
        if (m_memoCount[i] < kMemoPerLoop)
            m_memo[i][m_memoCount[i]++] = {in, st, sum};
        return sum;
    }

    std::size_t m_ranks = 0;
    Offsets m_extents{};
    double m_volume = 1;
    std::vector<std::int64_t> m_bounds;
    std::vector<Offsets> m_shifts;
    std::vector<std::array<Memo, kMemoPerLoop>> m_memo;
    std::vector<std::size_t> m_memoCount;
};

bool isWindowed(const Workload& w, int tensor)
{
    for (const auto& rank : w.tensors[tensor].ranks)
        if (rank.size() > 1)
            return true;
    return false;
}

// Child tile changes of a sliding-window tensor as Timeloop counts them (see WindowSimulation); the
// temporal loops from `firstDriver` outwards move the tile held by the loops below `childEnd`.
double simulatedWindowChanges(const Workload& w, int tensor, const std::vector<NestLoop>& loops,
                              std::size_t firstDriver, std::size_t childEnd, DataflowScratch& scratch)
{
    const auto& ranks = w.tensors[tensor].ranks;
    auto& dimTiles = scratch.dimTiles;
    dimTiles.assign(w.dims.size(), 1);
    for (std::size_t i = 0; i < childEnd; ++i)
        dimTiles[loops[i].dim] *= loops[i].bound;
    WindowSimulation::Offsets extents{};
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        std::int64_t extent = 1;
        for (const auto& term : ranks[r])
            extent += term.coefficient * (dimTiles[term.dim] - 1);
        extents[r] = extent;
    }
    thread_local WindowSimulation sim; // reused buffers: this runs for every windowed tensor
    sim.reset(ranks.size(), extents);
    for (std::size_t i = loops.size(); i-- > firstDriver;) {
        const auto& loop = loops[i];
        if (loop.spatial || loop.bound <= 1)
            continue;
        std::int64_t stride = 1; // the dim's extent inside this loop: one step's displacement
        for (std::size_t j = 0; j < i; ++j)
            if (loops[j].dim == loop.dim)
                stride *= loops[j].bound;
        WindowSimulation::Offsets shift{};
        for (std::size_t r = 0; r < ranks.size(); ++r)
            for (const auto& term : ranks[r])
                if (term.dim == loop.dim)
                    shift[r] += term.coefficient * stride;
        sim.addLoop(loop.bound, shift);
    }
    return sim.changes();
}

// How many times the tile of `tensor` held below `span` changes, counting the first fill: the
// temporal loops of this storage level and every outer one (innermost first), minus the innermost
// run of loops that do not index the tensor (the tile stays put while only they advance).
double childChanges(const Workload& w, int tensor, std::uint32_t relevant, const std::vector<NestLoop>& loops,
                    std::size_t firstDriver, bool computeChildren, DataflowScratch& scratch,
                    std::size_t childEnd)
{
    if (!computeChildren && isWindowed(w, tensor) &&
        w.tensors[tensor].ranks.size() <= WindowSimulation::kMaxRanks)
        return simulatedWindowChanges(w, tensor, loops, firstDriver, childEnd, scratch);
    double changes = 1;
    bool started = computeChildren; // MACs keep nothing: every iteration is a new operand
    bool stayed = false;            // a loop that leaves the tile put ran inside the first mover
    for (std::size_t i = firstDriver; i < loops.size(); ++i) {
        const auto& loop = loops[i];
        if (loop.spatial)
            continue;
        const bool indexes = (relevant >> loop.dim) & 1u;
        if (!started) {
            if (!indexes) {
                stayed |= loop.bound > 1;
                continue;
            }
            started = true;
            // The first loop that moves the tile: a sliding window reuses the overlap, but only
            // while the tile keeps moving by the same step. Timeloop keeps the overlap only when
            // a step translates the tile as the previous step did; a loop inside that leaves the
            // tile put makes the steps alternate between no move and the slide, so every slide
            // refetches the whole tile.
            const double delta = stayed ? 1.0 : slidingDelta(w, tensor, loops, i, scratch, childEnd);
            changes *= 1.0 + static_cast<double>(loop.bound - 1) * delta;
            continue;
        }
        changes *= static_cast<double>(loop.bound);
    }
    return changes;
}

} // namespace

void analyzeDataflow(const Workload& w, const Architecture& arch, const Mapping& mapping, DenseTraffic& out,
                     DataflowScratch& scratch)
{
    auto& loops = scratch.loops;
    flattenLoops(mapping, loops);
    const int levelCount = arch.levelCount();
    const int tensorCount = static_cast<int>(w.tensors.size());

    // Spans of every storage level in the innermost-first list (inner levels come first); the readers
    // and the Evaluator limit architectures to kMaxStorageLevels.
    if (levelCount > kMaxStorageLevels)
        throw std::logic_error("analyzeDataflow: more storage levels than kMaxStorageLevels");
    LevelSpan spans[kMaxStorageLevels];
    {
        std::size_t i = 0;
        for (int s = levelCount - 1; s >= 0; --s) {
            spans[s].begin = i;
            while (i < loops.size() && loops[i].storageLevel == s && loops[i].spatial)
                ++i;
            spans[s].spatialEnd = i;
            while (i < loops.size() && loops[i].storageLevel == s)
                ++i;
            spans[s].end = i;
        }
    }

    out.levels.resize(static_cast<std::size_t>(levelCount));
    out.temporalIterations = 1;
    out.spatialInstances = 1;
    out.computeX = out.computeY = 1;
    for (const auto& loop : loops) {
        if (loop.spatial) {
            out.spatialInstances *= static_cast<double>(loop.bound);
            (loop.alongY ? out.computeY : out.computeX) *= static_cast<double>(loop.bound);
        } else {
            out.temporalIterations *= static_cast<double>(loop.bound);
        }
    }
    out.algorithmicComputes = out.temporalIterations * out.spatialInstances;

    for (int s = 0; s < levelCount; ++s) {
        auto& level = out.levels[s];
        level.instances = level.fanout = level.xExpansion = level.yExpansion = 1;
        for (std::size_t i = spans[s].end; i < loops.size(); ++i)
            if (loops[i].spatial) {
                level.instances *= static_cast<double>(loops[i].bound);
                (loops[i].alongY ? level.yExpansion : level.xExpansion) *=
                    static_cast<double>(loops[i].bound);
            }
        for (std::size_t i = spans[s].begin; i < spans[s].spatialEnd; ++i)
            level.fanout *= static_cast<double>(loops[i].bound);
        level.tensors.resize(static_cast<std::size_t>(tensorCount));
    }

    auto& raw = scratch.raw; // C'(s, t): accesses level s serves, after bypass propagation
    raw.assign(static_cast<std::size_t>(levelCount * tensorCount), 0.0);
    for (int t = 0; t < tensorCount; ++t) {
        const std::uint32_t relevant = relevantDims(w, t);
        const bool output = w.tensors[t].isOutput;
        for (int s = 0; s < levelCount; ++s) {
            auto& tt = out.levels[s].tensors[t];
            tt = TensorTraffic{};
            tt.kept = mapping.holds(s, t);
            tt.streamed = !tt.kept && mapping.streams(s, t);
            tt.tile = tileVolume(w, t, loops, spans[s].end, scratch);
            const bool innermost = s == levelCount - 1;
            const std::size_t childEnd = innermost ? 0 : spans[s + 1].end;
            const double childTile = innermost ? 1.0 : tileVolume(w, t, loops, childEnd, scratch);
            tt.scatter = distinctChildTiles(w, t, relevant, loops, spans[s].begin, spans[s].spatialEnd);
            tt.multicast = out.levels[s].fanout / tt.scatter;
            tt.childChanges =
                childChanges(w, t, relevant, loops, spans[s].spatialEnd, innermost, scratch, childEnd);
            raw[s * tensorCount + t] = childTile * tt.childChanges * tt.scatter;
        }
        // Partitions, outer to inner: an instance owns its share of its parent's partition.
        for (int s = 0; s < levelCount; ++s) {
            auto& tt = out.levels[s].tensors[t];
            if (s == 0) {
                tt.partition = tt.tile;
                continue;
            }
            const auto& parent = spans[s - 1];
            const double footprint = parent.spatialEnd > parent.begin
                                         ? tileVolume(w, t, loops, parent.spatialEnd, scratch)
                                         : tt.tile;
            tt.partition = std::floor(out.levels[s - 1].tensors[t].partition * tt.tile / footprint);
        }
        // Bypass, inner to outer: the next outer level serves a bypassed level's children directly.
        for (int s = levelCount - 1; s >= 1; --s) {
            auto& tt = out.levels[s].tensors[t];
            const double served = raw[s * tensorCount + t];
            if (tt.kept)
                continue;
            raw[(s - 1) * tensorCount + t] = served * out.levels[s - 1].tensors[t].scatter;
            if (tt.streamed) {
                tt.reads = served;
                tt.fills = output ? 0 : served;
                tt.updates = output ? served : 0;
            }
        }
        // Reads, fills and updates of the levels that keep the tensor.
        for (int s = 0; s < levelCount; ++s) {
            auto& tt = out.levels[s].tensors[t];
            if (!tt.kept) {
                tt.tile = 0;
                continue;
            }
            const double served = raw[s * tensorCount + t];
            // Fills: the level's own tile, once per change seen from the parent's loops.
            tt.fills = s == 0 ? 0.0 : tt.tile * out.levels[s - 1].tensors[t].childChanges;
            if (output) {
                tt.updates = served;
                tt.reads = std::max(0.0, served - tt.partition); // the first write needs no read
                tt.temporalReductions = tt.reads;
            } else {
                tt.reads = served;
            }
        }
    }
}

} // namespace sparsemap::model
