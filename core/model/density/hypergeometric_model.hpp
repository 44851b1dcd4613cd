#pragma once
// Sparseloop's `hypergeometric` density (the project's "uniform"): exactly r = ceil(d * N) nonzeros
// placed uniformly at random among the N coordinates of the tensor, so a tile of n coordinates holds k
// of them with the hypergeometric probability C(r, k) C(N - r, n - k) / C(N, n) (spec §2.1).
#include "model/density/distribution_cache.hpp"

namespace sparsemap::model {

class HypergeometricModel final : public DensityModel {
public:
    // `nnz` = r, 0 <= r <= volume (the factory computes ceil(d * N)).
    HypergeometricModel(std::vector<std::int64_t> extents, std::int64_t nnz);

    std::string_view name() const override { return "hypergeometric"; }
    double probability(std::int64_t k, TileShape shape) const override;
    double probabilityEmpty(TileShape shape) const override;
    // Sparseloop computes the minimum density (n - N + r) / n with n - N in unsigned 64 bits: for a
    // tile smaller than the tensor that must hold a nonzero it wraps to ~2^64 / n, and the minimum
    // occupancy floor(that x n) converts back to 0 (gcc's x86-64 conversion of a double >= 2^64),
    // so the lowest possible occupancy is dropped as if empty under a parent with metadata; or, when
    // the product rounds just below 2^64, to a huge minimum above the maximum, and Sparseloop sees
    // no occupancy at all (sparseloopSeesNoOccupancy). For the whole tensor it is r: nothing dropped.
    OccupancyPoint droppedAsEmpty(TileShape shape) const override;
    bool sparseloopSeesNoOccupancy(TileShape shape) const override;
    // boost's hypergeometric pdf (as Sparseloop calls it) summed over the points that can move the
    // double result; empty when that takes more than ~20,000 units of estimated cost (a pdf call
    // costs ~1 unit for N <= 170, ~N below 104729 (boost's prime factorisation), 5,000 above (boost's
    // Lanczos path, up to ~4 ms a call: only (nearly) whole-tensor tiles).
    std::optional<double> sparseloopExpectedOccupancy(TileShape shape,
                                                      bool conditionOnNonEmpty) const override;
    std::int64_t minOccupancy(TileShape shape) const override;
    std::int64_t maxOccupancy(TileShape shape, double confidence = 1.0) const override;
    double expectedOccupancy(TileShape shape) const override;
    void distribution(TileShape shape, std::vector<OccupancyPoint>& out,
                      int maxPoints = kDefaultDistributionPoints) const override;

private:
    std::optional<double> sparseloopSum(TileShape shape, bool conditionOnNonEmpty) const;

    DistributionCache m_distributions; // the distribution depends on the tile volume only
    // sparseloopExpectedOccupancy by (volume, conditioned): one point (1 if available, the sum).
    DistributionCache m_sparseloopSums;
};

} // namespace sparsemap::model
