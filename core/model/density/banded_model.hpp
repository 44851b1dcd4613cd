#pragma once
// Sparseloop's `banded` density (spec §2.3), generalised: a 2-D tensor (rows = rank 0, columns =
// rank 1, not necessarily square) whose nonzeros lie within |row - column| <= bandwidth. With in-band
// density 1 every band point is nonzero (Sparseloop's model) and a tile's occupancy distribution is the
// exact histogram over the grid of tile positions. With in-band density d < 1 the nonzeros are a
// uniform random subset of ceil(d * band points) band points, so a tile with m band points holds a
// hypergeometric number of them; its distribution is the mixture over the histogram of m.
//
// Differences from Sparseloop's code: every tile row is enumerated exactly (Sparseloop reuses its
// warm-up rows, which is exact only for some shapes); non-square tensors and shapes that do not divide
// the tensor are allowed (edge tiles zero-padded); maxOccupancy(c < 1) is the c-quantile.
// Cost: a histogram per tile shape (band_tiles.hpp), cached; with d = 1 queries are O(log) lookups, with
// d < 1 they are O(distinct band counts of the shape) (and maxOccupancy(c < 1) O(support x that)).
#include "model/density/distribution_cache.hpp"
#include "model/density/tile_histogram_cache.hpp"

namespace sparsemap::model {

class BandedModel final : public DensityModel {
public:
    // `extents` must have exactly 2 ranks (std::invalid_argument otherwise; the factory reports it as
    // an InputError first). 0 < inBandDensity <= 1.
    BandedModel(std::vector<std::int64_t> extents, std::int64_t bandwidth, double inBandDensity = 1.0);

    std::string_view name() const override { return "banded"; }
    std::int64_t bandwidth() const { return m_bandwidth; }
    std::int64_t bandPoints() const { return m_bandPoints; }

    double probability(std::int64_t k, TileShape shape) const override;
    double probabilityEmpty(TileShape shape) const override;
    std::int64_t minOccupancy(TileShape shape) const override;
    std::int64_t maxOccupancy(TileShape shape, double confidence = 1.0) const override;
    double expectedOccupancy(TileShape shape) const override;
    void distribution(TileShape shape, std::vector<OccupancyPoint>& out,
                      int maxPoints = kDefaultDistributionPoints) const override;

    // The histogram of band points per tile position for this shape (built on first use).
    const TileHistogram& bandHistogram(TileShape shape) const;

private:
    bool fullBand() const { return nnz() == m_bandPoints; }

    std::int64_t m_bandwidth = 0;
    std::int64_t m_bandPoints = 0;
    TileHistogramCache m_cache;
    DistributionCache m_distributions;
};

} // namespace sparsemap::model
