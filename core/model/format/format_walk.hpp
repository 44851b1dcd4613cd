#pragma once
// Format (metadata) occupancy of a tile (spec §3.4-3.5): the fibertree walk from the top rank to rank 0
// for a tile holding exactly K nonzeros, its maximum (walk at the maximum data occupancy) and its
// expectation over the tile's occupancy distribution. Allocation-free: results go to caller-provided
// spans of ranks.size() entries (<= kMaxWalkRanks), the expectation reuses a caller-provided vector.
#include "model/density/density_model.hpp"
#include "model/format/walk_rank.hpp"

#include <span>
#include <vector>

namespace sparsemap::model {

// Per rank (metadata, payload) units of a tile of `tileVolume` coordinates holding exactly `nnz`
// nonzeros. Rank r sees pe_fiber = P(0 | s_{r+1}; S, K) (s_R = S) and pe_element = P(0 | s_r; S, K),
// from the density model's conditioned queries, and the format table of rank_format_model.hpp. A rank
// that is dummy or has f_r = 1 contributes (0, 0) unless it is the rank the binding order starts from
// (rank 0 inner-to-outer, spec §3.4; the top rank outer-to-inner, Sparseloop's default), and the
// innermost rank that contributes has payload 0 (its payloads are the data) -- Sparseloop's
// tiling-tile-info metadata walk. std::invalid_argument for more than kMaxWalkRanks ranks or `out`
// shorter than `ranks`.
enum class RankOrder { InnerToOuter, OuterToInner };
void walkFormat(const DensityModel& density, std::span<const WalkRank> ranks, std::int64_t tileVolume,
                std::int64_t nnz, std::span<RankOccupancy> out, RankOrder order = RankOrder::InnerToOuter);

// True when a rank is compressed (CP, RLE, B): then the data occupancy depends on the density.
bool hasCompressedRank(std::span<const WalkRank> ranks);

// Coordinates of the tile as the density model sees it (extents clamped to the tensor's).
std::int64_t walkTileVolume(const DensityModel& density, TileShape shape);

// "Max utilized data storage capacity" (§3.5): max_c(S) when compressed, else S.
std::int64_t maxDataOccupancy(const DensityModel& density, std::span<const WalkRank> ranks, TileShape shape,
                              double confidence = 1.0);

// "Max utilized format capacity" (§3.5): the walk at K = maxDataOccupancy, every value ceil'ed.
// Returns that K.
std::int64_t maxFormatOccupancy(const DensityModel& density, std::span<const WalkRank> ranks, TileShape shape,
                                std::span<RankOccupancy> out, double confidence = 1.0,
                                RankOrder order = RankOrder::InnerToOuter);

struct ExpectedOccupancy {
    double data = 0;                // E[K] (conditioned like the format occupancy)
    double nonEmptyProbability = 1; // 1 - P(tile empty)
};

// Expected format occupancy E_K[walk(K)] (not rounded) and expected data occupancy. With
// `conditionOnNonEmpty` (the parent level keeps metadata, §3.5) both are conditioned on K > 0:
// E[f | K > 0] = (E[f] - P(0) f(0)) / (1 - P(0)); an always-empty tile gives zeros. K runs over
// DensityModel::distribution(shape, ..., maxPoints): exact when the support has <= maxPoints points
// (default 33), else a quadrature on <= 16 integer occupancies exact for polynomials of degree < its
// size, which reproduces the smooth parts of the walk (UOP, RLE, B metadata, the fiber counts) to
// ~1e-13 relative for wide distributions and ~1e-6 for narrow ones, but resolves the ceil inside CP /
// B payloads only to the node spacing (~sigma / 3 near the mean); pass a larger maxPoints (e.g.
// 1 << 20) for the exact sum over the whole support as Sparseloop does.
ExpectedOccupancy expectedFormatOccupancy(const DensityModel& density, std::span<const WalkRank> ranks,
                                          TileShape shape, bool conditionOnNonEmpty,
                                          std::span<RankOccupancy> out, std::vector<OccupancyPoint>& scratch,
                                          int maxPoints = kDefaultDistributionPoints,
                                          RankOrder order = RankOrder::InnerToOuter);

// Bits of a tile's format data: sum over ranks of metadata * metadataBits + payload * payloadBits.
double formatBits(std::span<const WalkRank> ranks, std::span<const RankOccupancy> occupancy);

} // namespace sparsemap::model
