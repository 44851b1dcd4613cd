#include "model/density/hypergeometric_model.hpp"

#include "model/density/hypergeometric_math.hpp"
#include "model/density/occupancy_quadrature.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace sparsemap::model {

HypergeometricModel::HypergeometricModel(std::vector<std::int64_t> extents, std::int64_t nnz)
    : DensityModel(std::move(extents), nnz)
{
}

double HypergeometricModel::probability(std::int64_t k, TileShape shape) const
{
    return detail::hypergeometricPmf(k, tileVolume(shape), nnz(), volume());
}

double HypergeometricModel::probabilityEmpty(TileShape shape) const
{
    return detail::hypergeometricEmpty(tileVolume(shape), nnz(), volume());
}

namespace {

// Sparseloop's minimum occupancy of a tile of n coordinates (DataMovementInfo::
// GetMinDataTileOccupancy over HypergeometricDistribution::GetMinTileDensity) with its arithmetic:
// n - N in unsigned 64 bits, the rest in double, and the double converted back to uint64 as gcc does
// on x86-64 (subtract 2^63 above it, truncate, flip the top bit: 2^64 and above give 0).
std::uint64_t sparseloopMinOccupancy(std::uint64_t n, std::uint64_t N, double r)
{
    double minDensity = 0;
    if (!(static_cast<double>(n) <= static_cast<double>(N) - r))
        minDensity = (static_cast<double>(n - N) + r) / static_cast<double>(n);
    const double m = std::floor(minDensity * static_cast<double>(n));
    constexpr double kTwo63 = 9223372036854775808.0;
    if (!(m >= 0))
        return 0;
    if (m < kTwo63)
        return static_cast<std::uint64_t>(m);
    const double high = m - kTwo63;
    if (!(high < kTwo63))
        return 0; // the truncation overflows to 0x8000...0, and the top bit flips back to 0
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(high)) ^ (std::uint64_t{1} << 63);
}

} // namespace

bool HypergeometricModel::sparseloopSeesNoOccupancy(TileShape shape) const
{
    const std::int64_t n = tileVolume(shape);
    if (n <= 0 || nnz() >= volume())
        return false;
    const auto lowest = sparseloopMinOccupancy(
        static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(volume()), static_cast<double>(nnz()));
    return lowest > static_cast<std::uint64_t>(std::min(n, nnz()));
}

OccupancyPoint HypergeometricModel::droppedAsEmpty(TileShape shape) const
{
    const std::int64_t n = tileVolume(shape);
    if (n >= volume() || nnz() >= volume())
        return {n, 0}; // the whole tensor, or a dense one: Sparseloop's minimum is r, nothing dropped
    if (sparseloopMinOccupancy(static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(volume()),
                               static_cast<double>(nnz())) != 0)
        return {n, 0}; // no minimum of 0: nothing dropped
    const std::int64_t lowest = detail::hypergeometricMin(n, nnz(), volume());
    return {lowest, lowest == 0 ? detail::hypergeometricEmpty(n, nnz(), volume())
                                : detail::hypergeometricPmf(lowest, n, nnz(), volume())};
}

std::int64_t HypergeometricModel::minOccupancy(TileShape shape) const
{
    return detail::hypergeometricMin(tileVolume(shape), nnz(), volume());
}

std::int64_t HypergeometricModel::maxOccupancy(TileShape shape, double confidence) const
{
    return detail::hypergeometricQuantile(confidence, tileVolume(shape), nnz(), volume());
}

double HypergeometricModel::expectedOccupancy(TileShape shape) const
{
    return detail::hypergeometricMean(tileVolume(shape), nnz(), volume());
}

void HypergeometricModel::distribution(TileShape shape, std::vector<OccupancyPoint>& out, int maxPoints) const
{
    const std::int64_t n = tileVolume(shape);
    const DistributionCache::Key key{n, 0, maxPoints};
    if (m_distributions.find(key, out))
        return;
    thread_local std::vector<OccupancyPoint> measure;
    measure.clear();
    const bool exact = detail::appendHypergeometricMeasure(n, nnz(), volume(), 1.0, maxPoints, measure);
    detail::reduceDistribution(measure, exact, maxPoints, out);
    m_distributions.insert(key, out);
}

} // namespace sparsemap::model
