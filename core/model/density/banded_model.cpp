#include "model/density/banded_model.hpp"

#include "model/density/band_tiles.hpp"
#include "model/density/hypergeometric_math.hpp"
#include "model/density/occupancy_quadrature.hpp"

#include <algorithm>
#include <stdexcept>

namespace sparsemap::model {

namespace {

std::int64_t bandPointsOf(const std::vector<std::int64_t>& extents, std::int64_t bandwidth)
{
    if (extents.size() != 2 || bandwidth < 0)
        throw std::invalid_argument("banded density needs a 2-rank tensor and a bandwidth >= 0");
    return detail::bandPointsInRect(bandwidth, 0, extents[0], 0, extents[1]);
}

} // namespace

BandedModel::BandedModel(std::vector<std::int64_t> extents, std::int64_t bandwidth, double inBandDensity)
    : DensityModel(extents, ceilNonzeros(inBandDensity, bandPointsOf(extents, bandwidth))),
      m_bandwidth(bandwidth), m_bandPoints(bandPointsOf(extents, bandwidth))
{
}

const TileHistogram& BandedModel::bandHistogram(TileShape shape) const
{
    checkShape(shape);
    const std::int64_t h = std::min(shape[0], extents()[0]), w = std::min(shape[1], extents()[1]);
    if (const TileHistogram* cached = m_cache.find(h, w))
        return *cached;
    return *m_cache.insert(h, w, detail::bandTileHistogram(extents()[0], extents()[1], m_bandwidth, h, w));
}

double BandedModel::probability(std::int64_t k, TileShape shape) const
{
    const TileHistogram& band = bandHistogram(shape);
    if (fullBand())
        return band.probabilityOf(k);
    long double p = 0;
    for (std::size_t i = 0; i < band.occupancies().size(); ++i)
        p += band.probability(i) * detail::hypergeometricPmf(k, band.occupancies()[i], nnz(), m_bandPoints);
    return static_cast<double>(p);
}

double BandedModel::probabilityEmpty(TileShape shape) const
{
    const TileHistogram& band = bandHistogram(shape);
    if (fullBand())
        return band.probabilityOf(0);
    long double p = 0;
    for (std::size_t i = 0; i < band.occupancies().size(); ++i)
        p += band.probability(i) * detail::hypergeometricEmpty(band.occupancies()[i], nnz(), m_bandPoints);
    return static_cast<double>(p);
}

std::int64_t BandedModel::minOccupancy(TileShape shape) const
{
    return detail::hypergeometricMin(bandHistogram(shape).minimum(), nnz(), m_bandPoints);
}

std::int64_t BandedModel::maxOccupancy(TileShape shape, double confidence) const
{
    const TileHistogram& band = bandHistogram(shape);
    if (fullBand())
        return band.quantile(confidence);
    const std::int64_t top = std::min(band.maximum(), nnz());
    if (confidence >= 1)
        return top;
    // Exact mixture CDF, summed from the bottom (only used with overbooking).
    long double cdf = 0;
    for (std::int64_t k = minOccupancy(shape); k < top; ++k) {
        cdf += probability(k, shape);
        if (cdf >= confidence)
            return k;
    }
    return top;
}

double BandedModel::expectedOccupancy(TileShape shape) const
{
    // Every nonzero lies in exactly one tile position.
    return static_cast<double>(static_cast<long double>(nnz()) / bandHistogram(shape).positions());
}

void BandedModel::distribution(TileShape shape, std::vector<OccupancyPoint>& out, int maxPoints) const
{
    const TileHistogram& band = bandHistogram(shape);
    const DistributionCache::Key key{std::min(shape[0], extents()[0]), std::min(shape[1], extents()[1]),
                                     maxPoints};
    if (m_distributions.find(key, out))
        return;
    thread_local std::vector<OccupancyPoint> measure;
    measure.clear();
    bool exact = true;
    if (fullBand()) {
        band.appendMeasure(1.0, measure);
    } else {
        for (std::size_t i = 0; i < band.occupancies().size(); ++i)
            exact &= detail::appendHypergeometricMeasure(band.occupancies()[i], nnz(), m_bandPoints,
                                                         band.probability(i), maxPoints, measure);
    }
    detail::reduceDistribution(measure, exact, maxPoints, out);
    m_distributions.insert(key, out);
}

} // namespace sparsemap::model
