#include "model/density/density_model.hpp"

#include "model/density/hypergeometric_math.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace sparsemap::model {

namespace {

// The throws out of line: the checks run on every occupancy query of the model.
[[noreturn, gnu::cold, gnu::noinline]] void badGiven(std::int64_t volume, std::int64_t outerVolume,
                                                     std::int64_t outerNnz)
{
    throw std::invalid_argument("conditioned occupancy query with sub-tile " + std::to_string(volume) +
                                " in a tile of " + std::to_string(outerVolume) + " holding " +
                                std::to_string(outerNnz));
}

[[noreturn, gnu::cold, gnu::noinline]] void badShapeSize(std::size_t ranks, std::size_t tensorRanks)
{
    throw std::invalid_argument("tile shape has " + std::to_string(ranks) + " ranks, the tensor has " +
                                std::to_string(tensorRanks));
}

[[noreturn, gnu::cold, gnu::noinline]] void badExtent(std::int64_t extent)
{
    throw std::invalid_argument("tile extent " + std::to_string(extent) + " is not positive");
}

inline void checkGiven(std::int64_t volume, std::int64_t outerVolume, std::int64_t outerNnz)
{
    if (volume < 0 || volume > outerVolume || outerNnz < 0 || outerNnz > outerVolume)
        badGiven(volume, outerVolume, outerNnz);
}

} // namespace

std::int64_t ceilNonzeros(double density, std::int64_t coordinates)
{
    const long double x = static_cast<long double>(density) * static_cast<long double>(coordinates);
    const long double nearest = std::round(x);
    if (std::fabs(x - nearest) <= 1e-12L * std::max(1.0L, x))
        return static_cast<std::int64_t>(nearest);
    return static_cast<std::int64_t>(std::ceil(x));
}

DensityModel::DensityModel(std::vector<std::int64_t> extents, std::int64_t nnz)
    : m_extents(std::move(extents)), m_nnz(nnz)
{
    for (const std::int64_t e : m_extents)
        m_volume *= e;
}

double DensityModel::density() const
{
    return static_cast<double>(static_cast<long double>(m_nnz) / static_cast<long double>(m_volume));
}

double DensityModel::probabilityGiven(std::int64_t k, std::int64_t volume, std::int64_t outerVolume,
                                      std::int64_t outerNnz) const
{
    checkGiven(volume, outerVolume, outerNnz);
    return detail::hypergeometricPmf(k, volume, outerNnz, outerVolume);
}

double DensityModel::probabilityEmptyGiven(std::int64_t volume, std::int64_t outerVolume,
                                           std::int64_t outerNnz) const
{
    checkGiven(volume, outerVolume, outerNnz);
    return detail::hypergeometricEmpty(volume, outerNnz, outerVolume);
}

void DensityModel::checkShape(TileShape shape) const
{
    if (shape.size() != m_extents.size())
        badShapeSize(shape.size(), m_extents.size());
    for (const std::int64_t e : shape)
        if (e <= 0)
            badExtent(e);
}

std::int64_t DensityModel::tileVolume(TileShape shape) const
{
    checkShape(shape);
    std::int64_t v = 1;
    for (std::size_t i = 0; i < shape.size(); ++i)
        v *= std::min(shape[i], m_extents[i]);
    return v;
}

} // namespace sparsemap::model
