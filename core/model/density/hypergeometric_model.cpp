#include "model/density/hypergeometric_model.hpp"

#include "model/density/hypergeometric_math.hpp"
#include "model/density/occupancy_quadrature.hpp"

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

OccupancyPoint HypergeometricModel::droppedAsEmpty(TileShape shape) const
{
    const std::int64_t n = tileVolume(shape);
    if (n >= volume() || nnz() >= volume())
        return {n, 0}; // the whole tensor, or a dense one: Sparseloop's minimum is r, nothing dropped
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
