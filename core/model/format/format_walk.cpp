#include "model/format/format_walk.hpp"

#include "model/format/rank_format_model.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace sparsemap::model {

namespace {

void checkSizes(std::span<const WalkRank> ranks, std::size_t outSize)
{
    if (ranks.size() > static_cast<std::size_t>(kMaxWalkRanks) || outSize < ranks.size())
        throw std::invalid_argument("format walk: at most 16 ranks and an output entry per rank");
}

} // namespace

void walkFormat(const DensityModel& density, std::span<const WalkRank> ranks, std::int64_t tileVolume,
                std::int64_t nnz, std::span<RankOccupancy> out, RankOrder order)
{
    checkSizes(ranks, out.size());
    const std::size_t count = ranks.size();
    // empty[r] = P(one sub-tile of s_r coordinates is empty | tile of S holds K); empty[R] is the whole
    // tile. Rank r's fibers span s_{r+1} coordinates, its elements s_r.
    std::array<double, kMaxWalkRanks + 1> empty{};
    empty[count] = nnz == 0 ? 1.0 : 0.0;
    for (std::size_t r = 0; r < count; ++r) {
        const std::int64_t s = std::min(ranks[r].subTileVolume, tileVolume);
        empty[r] = s == tileVolume ? empty[count] : density.probabilityEmptyGiven(s, tileVolume, nnz);
    }
    const std::size_t evaluated = order == RankOrder::InnerToOuter ? 0 : count - 1;
    bool payloadIsData = true; // until the innermost rank that contributes
    for (std::size_t r = 0; r < count; ++r) {
        const WalkRank& rank = ranks[r];
        if (r != evaluated && (rank.dummy || rank.fiberShape == 1)) {
            out[r] = {};
            continue;
        }
        out[r] = rankFormatOccupancy(rank.format, rank.fiberShape, rank.maxFibers, empty[r + 1], empty[r]);
        if (payloadIsData)
            out[r].payload = 0;
        payloadIsData = false;
    }
}

bool hasCompressedRank(std::span<const WalkRank> ranks)
{
    return std::any_of(ranks.begin(), ranks.end(), [](const WalkRank& r) {
        return r.format == RankFormat::CP || r.format == RankFormat::RLE || r.format == RankFormat::B;
    });
}

std::int64_t walkTileVolume(const DensityModel& density, TileShape shape)
{
    if (shape.size() != density.extents().size())
        throw std::invalid_argument("format walk: tile shape and tensor have different rank counts");
    std::int64_t volume = 1;
    for (std::size_t i = 0; i < shape.size(); ++i)
        volume *= std::min(shape[i], density.extents()[i]);
    return volume;
}

std::int64_t maxDataOccupancy(const DensityModel& density, std::span<const WalkRank> ranks, TileShape shape,
                              double confidence)
{
    return hasCompressedRank(ranks) ? density.maxOccupancy(shape, confidence)
                                    : walkTileVolume(density, shape);
}

std::int64_t maxFormatOccupancy(const DensityModel& density, std::span<const WalkRank> ranks, TileShape shape,
                                std::span<RankOccupancy> out, double confidence, RankOrder order)
{
    const std::int64_t k = maxDataOccupancy(density, ranks, shape, confidence);
    walkFormat(density, ranks, walkTileVolume(density, shape), k, out, order);
    for (std::size_t r = 0; r < ranks.size(); ++r)
        out[r] = {ceilTolerant(out[r].metadata), ceilTolerant(out[r].payload)};
    return k;
}

ExpectedOccupancy expectedFormatOccupancy(const DensityModel& density, std::span<const WalkRank> ranks,
                                          TileShape shape, bool conditionOnNonEmpty,
                                          std::span<RankOccupancy> out, std::vector<OccupancyPoint>& scratch,
                                          int maxPoints, RankOrder order)
{
    checkSizes(ranks, out.size());
    const std::size_t count = ranks.size();
    const std::int64_t volume = walkTileVolume(density, shape);
    std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(count), RankOccupancy{});
    if (density.sparseloopSeesNoOccupancy(shape))
        return {0, 1.0}; // Sparseloop's distribution of the tile is empty: no data, no metadata
    std::array<RankOccupancy, kMaxWalkRanks> one{};
    density.distribution(shape, scratch, maxPoints);
    for (const OccupancyPoint& point : scratch) {
        walkFormat(density, ranks, volume, point.occupancy, one, order);
        for (std::size_t r = 0; r < count; ++r) {
            out[r].metadata += point.probability * one[r].metadata;
            out[r].payload += point.probability * one[r].payload;
        }
    }
    ExpectedOccupancy result{density.expectedOccupancy(shape), 1.0};
    if (!conditionOnNonEmpty)
        return result;
    const OccupancyPoint dropped = density.droppedAsEmpty(shape);
    const double empty = dropped.probability;
    result.nonEmptyProbability = 1 - empty;
    if (!(empty < 1)) {
        std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(count), RankOccupancy{});
        result.data = 0;
        return result;
    }
    if (empty > 0) {
        walkFormat(density, ranks, volume, dropped.occupancy, one, order); // zero at occupancy 0
        for (std::size_t r = 0; r < count; ++r) {
            out[r].metadata = (out[r].metadata - empty * one[r].metadata) / (1 - empty);
            out[r].payload = (out[r].payload - empty * one[r].payload) / (1 - empty);
        }
        result.data = (result.data - empty * static_cast<double>(dropped.occupancy)) / (1 - empty);
    }
    return result;
}

double formatBits(std::span<const WalkRank> ranks, std::span<const RankOccupancy> occupancy)
{
    double bits = 0;
    for (std::size_t r = 0; r < ranks.size() && r < occupancy.size(); ++r)
        bits += occupancy[r].metadata * ranks[r].metadataBits + occupancy[r].payload * ranks[r].payloadBits;
    return bits;
}

} // namespace sparsemap::model
