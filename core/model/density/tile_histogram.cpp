#include "model/density/tile_histogram.hpp"

#include <algorithm>
#include <stdexcept>

namespace sparsemap::model {

TileHistogram::TileHistogram(std::vector<std::pair<std::int64_t, std::int64_t>> counts,
                             std::int64_t positions)
    : m_positions(positions)
{
    std::sort(counts.begin(), counts.end());
    std::int64_t listed = 0;
    for (const auto& [occupancy, tiles] : counts) {
        if (tiles <= 0)
            continue;
        listed += tiles;
        if (!m_occupancies.empty() && m_occupancies.back() == occupancy) {
            m_tiles.back() += tiles;
        } else {
            m_occupancies.push_back(occupancy);
            m_tiles.push_back(tiles);
        }
    }
    if (listed > positions || positions <= 0)
        throw std::logic_error("tile histogram lists more tiles than the grid has");
    if (listed < positions) {
        if (!m_occupancies.empty() && m_occupancies.front() == 0) {
            m_tiles.front() += positions - listed;
        } else {
            m_occupancies.insert(m_occupancies.begin(), 0);
            m_tiles.insert(m_tiles.begin(), positions - listed);
        }
    }
    std::int64_t sum = 0;
    for (const std::int64_t t : m_tiles)
        m_cumulativeTiles.push_back(sum += t);
}

double TileHistogram::probability(std::size_t index) const
{
    return static_cast<double>(static_cast<long double>(m_tiles[index]) / m_positions);
}

double TileHistogram::probabilityOf(std::int64_t k) const
{
    const auto it = std::lower_bound(m_occupancies.begin(), m_occupancies.end(), k);
    if (it == m_occupancies.end() || *it != k)
        return 0;
    return probability(static_cast<std::size_t>(it - m_occupancies.begin()));
}

std::int64_t TileHistogram::quantile(double confidence) const
{
    if (confidence >= 1)
        return maximum();
    const long double target = static_cast<long double>(confidence) * m_positions;
    const auto it =
        std::partition_point(m_cumulativeTiles.begin(), m_cumulativeTiles.end(),
                             [&](std::int64_t c) { return static_cast<long double>(c) < target; });
    if (it == m_cumulativeTiles.end())
        return maximum();
    return m_occupancies[static_cast<std::size_t>(it - m_cumulativeTiles.begin())];
}

void TileHistogram::appendMeasure(double weight, std::vector<OccupancyPoint>& out) const
{
    for (std::size_t i = 0; i < m_occupancies.size(); ++i)
        out.push_back({m_occupancies[i], weight * probability(i)});
}

} // namespace sparsemap::model
