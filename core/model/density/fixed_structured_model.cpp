#include "model/density/fixed_structured_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sparsemap::model {

namespace {

using Split = FixedStructuredModel::Split;

Split splitReal(std::int64_t volume, double density)
{
    const long double x = static_cast<long double>(volume) * density;
    long double whole = std::floor(x);
    long double frac = x - whole;
    const long double tolerance = 1e-12L * std::max(1.0L, x);
    if (frac < tolerance) {
        frac = 0;
    } else if (1 - frac < tolerance) {
        whole += 1;
        frac = 0;
    }
    return {static_cast<std::int64_t>(whole), static_cast<double>(frac)};
}

double probabilityOf(std::int64_t k, const Split& s)
{
    if (k == s.floor)
        return 1 - s.frac;
    if (k == s.floor + 1)
        return s.frac;
    return 0;
}

std::int64_t ceilOf(const Split& s)
{
    return s.floor + (s.frac > 0 ? 1 : 0);
}

std::int64_t product(const std::vector<std::int64_t>& extents)
{
    std::int64_t v = 1;
    for (const std::int64_t e : extents)
        v *= e;
    return v;
}

void checkGiven(std::int64_t volume, std::int64_t outerVolume, std::int64_t outerNnz)
{
    if (volume < 0 || volume > outerVolume || outerNnz < 0 || outerNnz > outerVolume || outerVolume <= 0)
        throw std::invalid_argument("fixed-structured: invalid conditioned occupancy query");
}

} // namespace

Split FixedStructuredModel::splitRatio(std::int64_t volume, std::int64_t numerator, std::int64_t denominator)
{
    const __int128 product = static_cast<__int128>(volume) * numerator;
    const auto whole = static_cast<std::int64_t>(product / denominator);
    const auto rest = static_cast<std::int64_t>(product % denominator);
    return {whole, static_cast<double>(static_cast<long double>(rest) / denominator)};
}

FixedStructuredModel::FixedStructuredModel(std::vector<std::int64_t> extents, std::int64_t numerator,
                                           std::int64_t denominator)
    : DensityModel(extents, ceilOf(splitRatio(product(extents), numerator, denominator))),
      m_numerator(numerator), m_denominator(denominator),
      m_density(static_cast<double>(static_cast<long double>(numerator) / denominator))
{
}

FixedStructuredModel::FixedStructuredModel(std::vector<std::int64_t> extents, double density)
    : DensityModel(extents, ceilOf(splitReal(product(extents), density))), m_density(density)
{
}

Split FixedStructuredModel::split(std::int64_t volume) const
{
    return m_numerator > 0 ? splitRatio(volume, m_numerator, m_denominator) : splitReal(volume, m_density);
}

double FixedStructuredModel::probability(std::int64_t k, TileShape shape) const
{
    return probabilityOf(k, split(tileVolume(shape)));
}

double FixedStructuredModel::probabilityEmpty(TileShape shape) const
{
    return probabilityOf(0, split(tileVolume(shape)));
}

double FixedStructuredModel::probabilityGiven(std::int64_t k, std::int64_t volume, std::int64_t outerVolume,
                                              std::int64_t outerNnz) const
{
    checkGiven(volume, outerVolume, outerNnz);
    return probabilityOf(k, splitRatio(volume, outerNnz, outerVolume));
}

double FixedStructuredModel::probabilityEmptyGiven(std::int64_t volume, std::int64_t outerVolume,
                                                   std::int64_t outerNnz) const
{
    checkGiven(volume, outerVolume, outerNnz);
    return probabilityOf(0, splitRatio(volume, outerNnz, outerVolume));
}

std::int64_t FixedStructuredModel::minOccupancy(TileShape shape) const
{
    return split(tileVolume(shape)).floor;
}

std::int64_t FixedStructuredModel::maxOccupancy(TileShape shape, double confidence) const
{
    const Split s = split(tileVolume(shape));
    return confidence <= 1 - s.frac ? s.floor : ceilOf(s);
}

double FixedStructuredModel::expectedOccupancy(TileShape shape) const
{
    const Split s = split(tileVolume(shape));
    return static_cast<double>(s.floor) + s.frac;
}

void FixedStructuredModel::distribution(TileShape shape, std::vector<OccupancyPoint>& out, int) const
{
    const Split s = split(tileVolume(shape));
    out.clear();
    out.push_back({s.floor, 1 - s.frac});
    if (s.frac > 0)
        out.push_back({s.floor + 1, s.frac});
}

} // namespace sparsemap::model
