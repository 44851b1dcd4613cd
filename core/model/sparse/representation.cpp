#include "model/sparse/representation.hpp"

#include "mapping/tile_shape.hpp"
#include "model/format/format_walk.hpp"
#include "util/limits.hpp"
#include "util/rounding.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

namespace sparsemap::model {

namespace {

// Default bits per unit for formats written without explicit widths: Sparseloop's (0, a bitmask's
// 1 bit) for imported formats, genomeFormatWordBits for our genome's.
void defaultBits(WalkRank& rank, double tile, bool fromGenome, int storageWidth)
{
    if (!fromGenome) { // Sparseloop: unspecified widths are 0, except a bitmask's 1 bit
        rank.metadataBits = rank.format == RankFormat::B ? 1 : 0;
        rank.payloadBits = 0;
        return;
    }
    const auto bits =
        genomeFormatWordBits(rank.format, static_cast<double>(rank.fiberShape), tile, storageWidth);
    rank.metadataBits = bits.metadata;
    rank.payloadBits = bits.payload;
}

// Coordinates of `tensor` spanned by the per-dim extents in `dimTiles`.
double projectedVolume(const Workload& w, int tensor, const std::vector<std::int64_t>& dimTiles)
{
    double v = 1;
    for (const auto& rank : w.tensors[tensor].ranks) {
        std::int64_t extent = 1;
        for (const auto& term : rank)
            extent += term.coefficient * (dimTiles[term.dim] - 1);
        v *= static_cast<double>(extent);
    }
    return v;
}

} // namespace

std::string bindFormatRanks(const SparseContext& c, int s, int t, SparseScratch& scratch)
{
    const Workload& w = c.workload;
    const int tensors = static_cast<int>(w.tensors.size());
    auto& st = scratch.states[s * tensors + t];
    st.reset();
    const auto& dense = c.dense.levels[s].tensors[t];
    st.tile = dense.tile;
    if (!dense.kept || s >= static_cast<int>(c.formats.size()) || t >= static_cast<int>(c.formats[s].size()))
        return {};
    const auto& declared = c.formats[s][t].ranks;
    if (declared.empty())
        return {};
    const int n = static_cast<int>(declared.size());
    if (n > kMaxRanks)
        return "the format of " + w.tensors[t].name + " at " + c.arch.levels[s].name + " has more than " +
               std::to_string(kMaxRanks) + " ranks";
    const bool fromGenome = declared.front().mappingLevel >= 0;
    bool anyCompressed = false;
    for (const auto& r : declared)
        anyCompressed |= isCompressedRankFormat(r.format);
    st.hasFormat = c.formats[s][t].hasMetadata();
    if (!st.hasFormat)
        return {};
    st.compressed = anyCompressed;
    st.rankCount = n;
    std::pair<int, std::int64_t> loops[kMaxRanks];
    // Pre-tiled by the child's ranks: the child's state and its tile's extent along every dim.
    const TensorSparseState* pretiled = nullptr;
    thread_local std::vector<std::int64_t> childTiles;
    // Further loops a rank flattens (reused buffers; those of the n ranks emptied).
    thread_local std::array<std::vector<std::pair<int, std::int64_t>>, kMaxRanks> flattened;
    for (int r = 0; r < n; ++r)
        flattened[r].clear();
    // Not pre-tiled, with a child: the child's extents are folded into the first loop of each dim,
    // but a rank's coordinate tile is the nest's tile at its loop, which holds the whole child tile
    // (Sparseloop's singleton_metadata_subtile_point_set): the tiles grow from the child's extents by
    // the loops' own bounds.
    bool foldedChild = false;
    std::int64_t ownBound[kMaxRanks];
    std::fill(std::begin(ownBound), std::end(ownBound), std::int64_t{1});
    for (int r = 0; r < n; ++r) {
        const auto& d = declared[n - 1 - r]; // declared outer to inner; rank 0 is the innermost
        st.ranks[r].format = d.format;
        loops[r] = {-1, 1};
    }
    if (fromGenome) {
        // The genome bound every rank to its loop (dim at a mapping level).
        for (int r = 0; r < n; ++r) {
            const auto& d = declared[n - 1 - r];
            const auto& level = c.design.mapping.levels.at(d.mappingLevel);
            loops[r] = {d.dim, level.bounds.at(d.dim)};
        }
    } else {
        // Sparseloop binding (§3.2): pre-tile with the child's ranks when compressed, then hand the
        // loops of this level (and bypassed levels below it) to the next ranks.
        int child = -1;
        for (int l = s + 1; l < c.arch.levelCount(); ++l)
            if (c.dense.levels[l].tensors[t].kept) {
                child = l;
                break;
            }
        int firstFree = 0;
        if (st.compressed && child >= 0 && c.dense.levels[child].tensors[t].tile > 1) {
            const auto& cs = scratch.states[child * tensors + t];
            if (cs.rankCount > n)
                return "the format of " + w.tensors[t].name + " at " + c.arch.levels[s].name +
                       " has fewer ranks than the one below it";
            for (int r = 0; r < cs.rankCount; ++r) {
                if (cs.compressed && cs.ranks[r].format != st.ranks[r].format)
                    return "the format of " + w.tensors[t].name + " at " + c.arch.levels[s].name +
                           " differs from the one below it on the shared ranks";
            }
            firstFree = cs.rankCount;
        }
        // Loops of levels [s, child) that index the tensor, innermost first, child extents folded
        // into the first loop of each dim when not pre-tiled.
        // (Reused buffers: this runs for every level and tensor of every evaluation.)
        thread_local std::vector<std::pair<int, std::int64_t>> own;
        own.clear();
        const int stop = child >= 0 ? child : c.arch.levelCount();
        thread_local std::vector<std::int64_t> below;
        below.assign(w.dims.size(), 1);
        const std::uint32_t relevant = relevantDims(w, t);
        for (const auto& loop : scratch.allLoops) {
            if (loop.storageLevel >= stop)
                below[loop.dim] *= loop.bound;
            else if (loop.storageLevel >= s && ((1u << loop.dim) & relevant))
                own.push_back({loop.dim, loop.bound});
        }
        thread_local std::vector<std::int64_t> ownBounds;
        ownBounds.clear();
        for (const auto& l : own)
            ownBounds.push_back(l.second);
        if (firstFree == 0 && child >= 0) {
            foldedChild = true;
            thread_local std::vector<char> folded;
            folded.assign(w.dims.size(), 0);
            for (auto& [dim, bound] : own)
                if (!folded[dim]) {
                    bound *= below[dim];
                    folded[dim] = 1;
                }
        }
        thread_local std::vector<std::pair<int, std::int64_t>> nonTrivial;
        thread_local std::vector<std::int64_t> nonTrivialOwn;
        nonTrivial.clear();
        nonTrivialOwn.clear();
        for (std::size_t i = 0; i < own.size(); ++i)
            if (own[i].second > 1) {
                nonTrivial.push_back(own[i]);
                nonTrivialOwn.push_back(ownBounds[i]);
            }
        const int free = n - firstFree;
        const bool anyFlattening = std::any_of(declared.begin(), declared.end(),
                                               [](const FormatRank& r) { return !r.flattenedDims.empty(); });
        if (anyFlattening) {
            // Sparseloop's ApplyRanksInnerToOuter: each rank takes the next loop and, with a
            // flattening rule, the loops after it whose dims the rule names; a rank whose rule does
            // not name the next loop's dim stays empty (a dummy rank).
            std::size_t i = 0;
            for (int r = firstFree; r < n && i < nonTrivial.size(); ++r) {
                const auto& rule = declared[n - 1 - r].flattenedDims;
                const auto named = [&](int dim) {
                    return rule.empty() || std::find(rule.begin(), rule.end(), dim) != rule.end();
                };
                if (!named(nonTrivial[i].first))
                    continue;
                ownBound[r] = nonTrivialOwn[i];
                loops[r] = nonTrivial[i++];
                while (!rule.empty() && i < nonTrivial.size() && named(nonTrivial[i].first))
                    flattened[r].push_back(nonTrivial[i++]);
            }
            if (i < nonTrivial.size())
                return "the format of " + w.tensors[t].name + " at " + c.arch.levels[s].name + " has " +
                       std::to_string(n) + " ranks; with its flattening rules the tile's loops need more";
        } else if (static_cast<int>(nonTrivial.size()) > free) {
            return "the format of " + w.tensors[t].name + " at " + c.arch.levels[s].name + " has " +
                   std::to_string(n) + " ranks; the tile needs " +
                   std::to_string(firstFree + nonTrivial.size());
        }
        const bool innerToOuter = c.options.bindRanksInnerToOuter;
        for (std::size_t i = 0; i < nonTrivial.size() && !anyFlattening; ++i) {
            const int r = innerToOuter ? firstFree + static_cast<int>(i)
                                       : n - static_cast<int>(nonTrivial.size()) + static_cast<int>(i);
            loops[r] = nonTrivial[i];
            ownBound[r] = nonTrivialOwn[i];
        }
        if (firstFree > 0) {
            // Give pre-tiled ranks a pseudo loop with their fiber so that the shapes below keep it.
            const auto& cs = scratch.states[child * tensors + t];
            for (int r = 0; r < cs.rankCount; ++r)
                loops[r] = {-2 - r, cs.ranks[r].fiberShape};
            pretiled = &cs;
            childTiles = below;
        }
        if (foldedChild)
            childTiles = below;
    }
    // Shapes: pre-tiled pseudo loops carry a fiber but no dim.
    {
        thread_local std::vector<std::int64_t> dimTiles, single, coordTiles;
        dimTiles.assign(w.dims.size(), 1);
        if (foldedChild)
            coordTiles = childTiles;
        single.assign(w.dims.size(), 1);
        double pretiledVolume = 1;
        for (int r = 0; r < n; ++r) {
            auto& rank = st.ranks[r];
            rank.subTileVolume = static_cast<std::int64_t>(pretiledVolume * projectedVolume(w, t, dimTiles));
            if (loops[r].first <= -2) {
                // A pre-tiled rank keeps the child's shapes; the first rank above them holds whole
                // child tiles, whose volume comes from the child's extents: a sliding-window rank
                // (p + r) overlaps, so it is not the product of the child's fiber shapes.
                rank.fiberShape = loops[r].second;
                rank.subTileVolume = pretiled->ranks[r].subTileVolume;
                rank.dummy = rank.fiberShape <= 1;
                if (r + 1 == pretiled->rankCount) {
                    dimTiles = childTiles;
                    pretiledVolume = 1;
                } else {
                    pretiledVolume *= static_cast<double>(rank.fiberShape);
                }
            } else if (loops[r].first >= 0 && loops[r].second > 1) {
                single.assign(w.dims.size(), 1);
                single[loops[r].first] = loops[r].second;
                for (const auto& [dim, bound] : flattened[r])
                    single[dim] *= bound;
                rank.fiberShape = static_cast<std::int64_t>(projectedVolume(w, t, single));
                if (foldedChild) {
                    // The coordinate tile below this rank's fibers: the nest's tile at the rank
                    // below (see foldedChild).
                    if (r > 0 && !st.ranks[r - 1].dummy)
                        rank.subTileVolume = static_cast<std::int64_t>(projectedVolume(w, t, coordTiles));
                    coordTiles[loops[r].first] *= ownBound[r];
                }
                dimTiles[loops[r].first] *= loops[r].second;
                for (const auto& [dim, bound] : flattened[r])
                    dimTiles[dim] *= bound;
                rank.dummy = false;
            } else {
                rank.fiberShape = 1;
                rank.dummy = true;
            }
        }
        for (int r = n - 1; r >= 0; --r)
            st.ranks[r].maxFibers =
                r == n - 1 ? 1 : saturatingMul(st.ranks[r + 1].maxFibers, st.ranks[r + 1].fiberShape);
    }
    const auto& widths = c.options.metadataStorageWidthBits;
    const int storageWidth =
        s < static_cast<int>(widths.size()) ? widths[s] : c.arch.levels[s].metadataWordBits;
    for (int r = 0; r < n; ++r) {
        auto& rank = st.ranks[r];
        const auto& d = declared[n - 1 - r];
        defaultBits(rank, st.tile, fromGenome, storageWidth);
        if (d.metadataBits >= 0)
            rank.metadataBits = d.metadataBits;
        if (d.payloadBits >= 0)
            rank.payloadBits = d.payloadBits;
        rank.metadataBits = sparseloopFormatWordBits(rank.metadataBits, storageWidth);
        rank.payloadBits = sparseloopFormatWordBits(rank.payloadBits, storageWidth);
    }
    return {};
}

OccupancyValue* OccupancyCache::find(std::span<const std::int64_t> key)
{
    const auto at = m_keys.find(key);
    return at == FlatKeyIndex<std::int64_t>::npos ? nullptr : &m_values[at];
}

void OccupancyCache::insert(std::span<const std::int64_t> key, const TensorSparseState& st)
{
    if (m_values.size() > m_capacity) { // bounded memory; refilled by the designs in use
        m_keys.clear();
        m_values.clear();
        m_units.clear();
    }
    if (!m_keys.insert(key).second)
        return; // the first value stored under a key stays
    const auto ranks = static_cast<std::size_t>(st.rankCount);
    m_values.push_back({st.maxOccupancy, st.density, st.nonEmptyShare, st.vectorRatio, st.sparseloopDensity,
                        static_cast<std::uint32_t>(m_units.size()), static_cast<std::uint32_t>(ranks)});
    m_units.insert(m_units.end(), st.expectedUnits.begin(), st.expectedUnits.begin() + ranks);
    m_units.insert(m_units.end(), st.maxUnits.begin(), st.maxUnits.begin() + ranks);
}

void OccupancyCache::load(const OccupancyValue& value, TensorSparseState& st) const
{
    st.maxOccupancy = value.maxOccupancy;
    st.density = value.density;
    st.nonEmptyShare = value.nonEmptyShare;
    st.vectorRatio = value.vectorRatio;
    st.sparseloopDensity = value.sparseloopDensity;
    const auto units = m_units.begin() + value.unitsAt;
    const auto ranks = static_cast<std::ptrdiff_t>(value.rankCount);
    std::fill(std::copy(units, units + ranks, st.expectedUnits.begin()), st.expectedUnits.end(),
              RankOccupancy{});
    std::fill(std::copy(units + ranks, units + 2 * ranks, st.maxUnits.begin()), st.maxUnits.end(),
              RankOccupancy{});
}

namespace {

// The expectations over a tile's occupancy below can have steps (Sparseloop ceil()s the nonzeros of a
// CP or B fiber and a tile's blocks), which a quadrature on a few nodes does not resolve: those sum
// over the exact support while it has at most this many significant points, as Sparseloop does; the
// smooth ones (UOP, RLE) keep the quadrature.
constexpr int kFormatWalkPoints = 512;

bool walkHasSteps(std::span<const WalkRank> ranks)
{
    return std::any_of(ranks.begin(), ranks.end(), [](const WalkRank& r) {
        return r.format == RankFormat::CP || r.format == RankFormat::B;
    });
}

// Sparseloop's correction of block-wide (vector) data accesses for a compressed tile: `tile`
// coordinates holding n nonzeros take ceil(n / block) vectors, not n / block, so where a tile holds
// few blocks' worth of data (below the threshold of Sparseloop's table, by block width and tile
// density) accesses are scaled by E[ceil(n / block)] / (tile x density / block). `density` is the
// tile's expected density as the level sees it (conditioned on non-empty under a parent with
// metadata, as Sparseloop's expected_density is); the occupancy distribution is unconditioned.
double vectorAccessRatio(const DensityModel& model, TileShape shape, double tile, double density, int block,
                         std::vector<OccupancyPoint>& points)
{
    if (block <= 1 || tile <= 0)
        return 1;
    if (!(density < 1.0) || !(density > 0))
        return 1;
    // Per block width: below this many blocks per tile (by density 0.1, 0.2, ..., 1.0) the naive
    // count is corrected. Widths between rows take the row below (Sparseloop's table stops at 32).
    static constexpr std::array<std::pair<int, std::array<double, 10>>, 5> kThresholds{{
        {2, {251, 125, 84, 63, 51, 42, 36, 32, 28, 1}},
        {4, {375, 188, 125, 94, 75, 63, 54, 47, 42, 1}},
        {8, {438, 219, 146, 110, 88, 73, 63, 55, 49, 1}},
        {16, {469, 235, 157, 118, 94, 79, 67, 59, 52, 1}},
        {32, {485, 243, 162, 122, 97, 81, 70, 61, 52, 1}},
    }};
    const std::array<double, 10>* row = nullptr;
    for (const auto& [width, thresholds] : kThresholds)
        if (width <= block)
            row = &thresholds;
    if (!row)
        return 1;
    const int index = density >= 0.1 ? std::clamp(static_cast<int>(std::floor(density / 0.1)) - 1, 0, 9) : 0;
    if (!((*row)[static_cast<std::size_t>(index)] > tile / block))
        return 1;
    model.distribution(shape, points, kFormatWalkPoints);
    double total = 0;
    for (const auto& p : points)
        if (p.occupancy >= 1)
            total += std::ceil(static_cast<double>(p.occupancy) / block) * p.probability;
    const double naive = tile * density / block;
    return naive > 0 ? total / naive : 1;
}

} // namespace

void computeOccupancy(const SparseContext& c, int s, int t, bool parentHasFormat, SparseScratch& scratch)
{
    const int tensors = static_cast<int>(c.workload.tensors.size());
    auto& st = scratch.states[s * tensors + t];
    const auto& model = *c.density[t];
    // The tile's shape along the tensor's ranks, for coordinate-dependent density models.
    dimTileSizesInto(c.design.mapping, static_cast<int>(c.workload.dims.size()), s, scratch.dimTiles);
    rankExtentsInto(c.workload, t, scratch.dimTiles, scratch.shape);
    // The cache's key: tensor, condition, confidence, the tile's shape, then each rank's walk.
    auto& key = scratch.key;
    key.assign({t, parentHasFormat ? 1 : 0, std::bit_cast<std::int64_t>(c.options.occupancyConfidence),
                static_cast<std::int64_t>(scratch.shape.size())});
    key.insert(key.end(), scratch.shape.begin(), scratch.shape.end());
    for (int r = 0; r < st.rankCount; ++r) {
        const auto& rank = st.ranks[r];
        key.insert(key.end(), {static_cast<std::int64_t>(rank.format), rank.fiberShape, rank.subTileVolume,
                               rank.maxFibers, rank.dummy ? 1 : 0, rank.metadataBits, rank.payloadBits});
    }
    key.push_back(st.compressed ? 1 : 0);
    key.push_back(c.options.bindRanksInnerToOuter ? 1 : 0); // the walk's empty-rank order
    key.push_back(c.arch.levels[s].blockSize);              // the vector-access ratio's block
    if (const auto* hit = scratch.occupancyCache.find(key)) {
        scratch.occupancyCache.load(*hit, st);
        return;
    }
    const TileShape shape(scratch.shape);
    const auto ranks = st.walkRanks();
    const RankOrder order =
        c.options.bindRanksInnerToOuter ? RankOrder::InnerToOuter : RankOrder::OuterToInner;
    st.maxOccupancy = maxFormatOccupancy(model, ranks, shape, {st.maxUnits.data(), ranks.size()},
                                         c.options.occupancyConfidence, order);
    if (!st.compressed)
        st.maxOccupancy = static_cast<std::int64_t>(st.tile);
    // Expected occupancy, conditioned on the tile being non-empty when the parent's metadata lets
    // empty tiles be dropped (§3.5).
    const auto expected = expectedFormatOccupancy(
        model, ranks, shape, parentHasFormat, {st.expectedUnits.data(), ranks.size()}, scratch.points,
        walkHasSteps(ranks) ? kFormatWalkPoints : kDefaultDistributionPoints, order);
    st.density = st.tile > 0 ? expected.data / st.tile : 0;
    st.sparseloopDensity = std::numeric_limits<double>::quiet_NaN();
    st.nonEmptyShare = parentHasFormat ? expected.nonEmptyProbability : 1.0;
    st.vectorRatio = st.compressed ? vectorAccessRatio(model, shape, st.tile, st.density,
                                                       c.arch.levels[s].blockSize, scratch.points)
                                   : 1.0;
    scratch.occupancyCache.insert(key, st);
}

double nonEmptyTileProbability(const SparseContext& c, int s, int t, SparseScratch& scratch)
{
    dimTileSizesInto(c.design.mapping, static_cast<int>(c.workload.dims.size()), s, scratch.dimTiles);
    rankExtentsInto(c.workload, t, scratch.dimTiles, scratch.shape);
    return 1 - c.density[t]->droppedAsEmpty(TileShape(scratch.shape)).probability;
}

void applyRepresentation(const SparseContext& c, int s, int t, bool parentHasFormat, SparseScratch& scratch,
                         TensorLevelResult& r)
{
    const int tensors = static_cast<int>(c.workload.tensors.size());
    auto& st = scratch.states[s * tensors + t];
    if (!st.hasFormat)
        return;
    r.compressed = st.compressed;
    r.expectedDensity = st.density;
    r.sparseloopSeesNoOccupancy =
        st.density == 0 && c.density[t]->sparseloopSeesNoOccupancy(TileShape(scratch.shape));
    r.vectorRatio = st.vectorRatio;
    // Sparseloop (ProcessDataReprImpactOnStorageAccesses) keeps accesses - floor(accesses x (1 -
    // expected density)), a plain floor. Where the product is an integer in exact arithmetic (the
    // expected density of a uniform tile is r / N whatever its size), the rounding noise of its
    // expected density decides: 192 x (1 - 23.750000000000004 / 48) = 96.99999999999999 floors to
    // 96. Far from an integer our density gives the same floor; near one the floor takes Sparseloop's
    // density bit for bit (its sum, DensityModel::sparseloopExpectedOccupancy), and where that is not
    // available, the integer within the slack (floorCount).
    auto sparseloopDensity = [&]() {
        if (std::isnan(st.sparseloopDensity)) {
            const auto occupancy =
                c.density[t]->sparseloopExpectedOccupancy(TileShape(scratch.shape), parentHasFormat);
            st.sparseloopDensity = occupancy && st.tile > 0 ? *occupancy / st.tile : -1;
            if (auto* hit = scratch.occupancyCache.find(scratch.key))
                hit->sparseloopDensity = st.sparseloopDensity;
        }
        return st.sparseloopDensity;
    };
    const double rho = st.density;
    auto scale = [&](double algorithmic) {
        if (algorithmic == 0)
            return 0.0;
        const double kept = algorithmic * (1 - rho);
        const double slack = kCountSlack * std::max(1.0, std::fabs(kept));
        if (std::floor(kept - slack) == std::floor(kept + slack))
            return algorithmic - std::floor(kept);
        const double exact = sparseloopDensity();
        return exact >= 0 ? algorithmic - std::floor(algorithmic * (1 - exact))
                          : algorithmic - floorCount(kept);
    };
    r.reads.actual = scale(r.algorithmicReads);
    r.fills.actual = scale(r.algorithmicFills);
    r.updates.actual = scale(r.algorithmicUpdates);
    // The whole tile's format moves every time the tile does: per rank, units x accesses / tile.
    auto formatAccessBits = [&st](double accesses) {
        if (st.tile <= 0 || accesses <= 0)
            return 0.0;
        double bits = 0;
        for (int q = 0; q < st.rankCount; ++q) {
            const double md = ceilCount(st.expectedUnits[q].metadata * accesses / st.tile);
            const double pl = ceilCount(st.expectedUnits[q].payload * accesses / st.tile);
            bits += md * st.ranks[q].metadataBits + pl * st.ranks[q].payloadBits;
        }
        return bits;
    };
    r.metadataReads.actual = formatAccessBits(r.algorithmicReads);
    r.metadataFills.actual = formatAccessBits(r.algorithmicFills);
    r.metadataUpdates.actual = formatAccessBits(r.algorithmicUpdates);
    r.maxDataWords = static_cast<double>(st.maxOccupancy);
    r.maxMetadataBits =
        formatBits(st.walkRanks(), {st.maxUnits.data(), static_cast<std::size_t>(st.rankCount)});
}

} // namespace sparsemap::model
