#pragma once
// The `actual` density (spec §2.4, paper §V-C2): the real nonzero pattern of the tensor, read once from
// a Matrix Market or 0/1 mask file (read by io/nonzero_pattern_io.hpp; DensitySpec::data). A tile's occupancy
// distribution is the exact fraction of tile positions (grid of that shape, edge tiles zero-padded) holding k
// nonzeros: a histogram built on first use of each shape in O(nnz + grid positions) or O(nnz log nnz), then
// cached (thread-safe, tile_histogram_cache.hpp), so repeated queries are O(log). Tensors of 1 rank (a file
// of one row or one column) or 2 ranks (rows = rank 0, columns = rank 1) only.
#include "model/density/distribution_cache.hpp"
#include "model/density/tile_histogram_cache.hpp"
#include "workload/nonzero_pattern.hpp"

namespace sparsemap::model {

class ActualModel final : public DensityModel {
public:
    // InputError (with the file's path and line) when the pattern's shape differs from `extents`, or when
    // the tensor has more than 2 ranks.
    ActualModel(std::vector<std::int64_t> extents, NonzeroPattern pattern);

    std::string_view name() const override { return "actual"; }
    const NonzeroPattern& pattern() const { return m_pattern; }

    double probability(std::int64_t k, TileShape shape) const override;
    std::int64_t minOccupancy(TileShape shape) const override;
    std::int64_t maxOccupancy(TileShape shape, double confidence = 1.0) const override;
    double expectedOccupancy(TileShape shape) const override;
    void distribution(TileShape shape, std::vector<OccupancyPoint>& out,
                      int maxPoints = kDefaultDistributionPoints) const override;

    const TileHistogram& histogram(TileShape shape) const;

private:
    struct Checked {};
    ActualModel(std::vector<std::int64_t> extents, NonzeroPattern pattern, Checked);
    TileHistogram buildHistogram(std::int64_t tileRows, std::int64_t tileColumns) const;

    NonzeroPattern m_pattern; // a 1-rank tensor is stored as one row
    TileHistogramCache m_cache;
    DistributionCache m_distributions;
};

} // namespace sparsemap::model
