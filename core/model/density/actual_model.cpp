#include "model/density/actual_model.hpp"

#include "model/density/occupancy_quadrature.hpp"
#include "util/error.hpp"

#include <algorithm>
#include <unordered_map>

namespace sparsemap::model {

namespace {

std::string shapeText(std::int64_t rows, std::int64_t columns)
{
    return std::to_string(rows) + " x " + std::to_string(columns);
}

// Checks the pattern against the tensor; a 1-rank tensor accepts one row or one column (both have the
// same linear indices) and is stored as one row.
NonzeroPattern checked(const std::vector<std::int64_t>& extents, NonzeroPattern pattern)
{
    const auto fail = [&](int line, const std::string& message) {
        throw InputError({Diagnostic{pattern.file, line, 0, {}, message}});
    };
    if (extents.empty() || extents.size() > 2)
        fail(0, "actual density data needs a tensor of 1 or 2 ranks; this tensor has " +
                    std::to_string(extents.size()));
    const std::int64_t rows = extents.size() == 2 ? extents[0] : 1;
    const std::int64_t columns = extents.back();
    const bool matches = (pattern.rows == rows && pattern.columns == columns) ||
                         (extents.size() == 1 && pattern.columns == 1 && pattern.rows == columns);
    if (!matches)
        fail(pattern.shapeLine,
             "the file holds a " + shapeText(pattern.rows, pattern.columns) + " matrix but the tensor is " +
                 (extents.size() == 2 ? shapeText(rows, columns) : "1-D of " + std::to_string(columns)));
    pattern.rows = rows;
    pattern.columns = columns;
    return pattern;
}

} // namespace

ActualModel::ActualModel(std::vector<std::int64_t> extents, NonzeroPattern pattern)
    : ActualModel(extents, checked(extents, std::move(pattern)), Checked{})
{
}

ActualModel::ActualModel(std::vector<std::int64_t> extents, NonzeroPattern pattern, Checked)
    : DensityModel(std::move(extents), static_cast<std::int64_t>(pattern.nonzeros.size())),
      m_pattern(std::move(pattern))
{
}

const TileHistogram& ActualModel::histogram(TileShape shape) const
{
    checkShape(shape);
    const std::int64_t h = shape.size() == 2 ? std::min(shape[0], m_pattern.rows) : 1;
    const std::int64_t w = std::min(shape.back(), m_pattern.columns);
    if (const TileHistogram* cached = m_cache.find(h, w))
        return *cached;
    return *m_cache.insert(h, w, buildHistogram(h, w));
}

TileHistogram ActualModel::buildHistogram(std::int64_t tileRows, std::int64_t tileColumns) const
{
    const std::int64_t columns = m_pattern.columns;
    const std::int64_t gridColumns = (columns + tileColumns - 1) / tileColumns;
    const std::int64_t positions = (m_pattern.rows + tileRows - 1) / tileRows * gridColumns;
    const auto tileOf = [&](std::int64_t linear) {
        return linear / columns / tileRows * gridColumns + linear % columns / tileColumns;
    };
    // Nonzeros per tile: a counter per grid position when the grid is small, else sorted tile ids.
    std::unordered_map<std::int64_t, std::int64_t> tilesByCount;
    const auto nnzCount = static_cast<std::int64_t>(m_pattern.nonzeros.size());
    if (positions <= 4 * nnzCount + 4096) {
        std::vector<std::int64_t> perTile(static_cast<std::size_t>(positions), 0);
        for (const std::int64_t z : m_pattern.nonzeros)
            ++perTile[static_cast<std::size_t>(tileOf(z))];
        for (const std::int64_t c : perTile)
            if (c > 0)
                ++tilesByCount[c];
    } else {
        std::vector<std::int64_t> ids;
        ids.reserve(m_pattern.nonzeros.size());
        for (const std::int64_t z : m_pattern.nonzeros)
            ids.push_back(tileOf(z));
        std::sort(ids.begin(), ids.end());
        for (std::size_t i = 0; i < ids.size();) {
            std::size_t j = i;
            while (j < ids.size() && ids[j] == ids[i])
                ++j;
            ++tilesByCount[static_cast<std::int64_t>(j - i)];
            i = j;
        }
    }
    return TileHistogram({tilesByCount.begin(), tilesByCount.end()}, positions);
}

double ActualModel::probability(std::int64_t k, TileShape shape) const
{
    return histogram(shape).probabilityOf(k);
}

std::int64_t ActualModel::minOccupancy(TileShape shape) const
{
    return histogram(shape).minimum();
}

std::int64_t ActualModel::maxOccupancy(TileShape shape, double confidence) const
{
    return histogram(shape).quantile(confidence);
}

double ActualModel::expectedOccupancy(TileShape shape) const
{
    return static_cast<double>(static_cast<long double>(nnz()) / histogram(shape).positions());
}

void ActualModel::distribution(TileShape shape, std::vector<OccupancyPoint>& out, int maxPoints) const
{
    const TileHistogram& h = histogram(shape);
    const DistributionCache::Key key{shape.size() == 2 ? std::min(shape[0], m_pattern.rows) : 1,
                                     std::min(shape.back(), m_pattern.columns), maxPoints};
    if (m_distributions.find(key, out))
        return;
    thread_local std::vector<OccupancyPoint> measure;
    measure.clear();
    h.appendMeasure(1.0, measure);
    detail::reduceDistribution(measure, true, maxPoints, out);
    m_distributions.insert(key, out);
}

} // namespace sparsemap::model
