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
    thread_local std::vector<OccupancyPoint> measure;
    measure.clear();
    const bool exact =
        detail::appendHypergeometricMeasure(tileVolume(shape), nnz(), volume(), 1.0, maxPoints, measure);
    detail::reduceDistribution(measure, exact, maxPoints, out);
}

} // namespace sparsemap::model
