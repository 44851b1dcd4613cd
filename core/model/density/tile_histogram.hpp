#pragma once
// The exact occupancy distribution of one tile shape of a coordinate-dependent tensor (banded, actual
// data): the tensor is cut into the grid of tiles of that shape (edge tiles zero-padded when the shape
// does not divide the tensor) and every grid position counts once (spec §2.3, §2.4).
#include "model/density/density_model.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace sparsemap::model {

class TileHistogram {
public:
    // `counts`: (occupancy, number of tile positions) pairs in any order, repeats allowed; positions not
    // listed hold no nonzero. `positions` = all tile positions of the grid.
    TileHistogram(std::vector<std::pair<std::int64_t, std::int64_t>> counts, std::int64_t positions);

    std::int64_t positions() const { return m_positions; }
    // Distinct occupancies, ascending, and the number of positions holding each.
    const std::vector<std::int64_t>& occupancies() const { return m_occupancies; }
    const std::vector<std::int64_t>& tiles() const { return m_tiles; }
    double probability(std::size_t index) const;

    double probabilityOf(std::int64_t k) const;     // O(log distinct occupancies)
    std::int64_t quantile(double confidence) const; // smallest k with P(K <= k) >= confidence
    std::int64_t minimum() const { return m_occupancies.front(); }
    std::int64_t maximum() const { return m_occupancies.back(); }
    // Appends the distribution as a measure (exact points), scaled by `weight`.
    void appendMeasure(double weight, std::vector<OccupancyPoint>& out) const;

private:
    std::vector<std::int64_t> m_occupancies;
    std::vector<std::int64_t> m_tiles;
    std::vector<std::int64_t> m_cumulativeTiles;
    std::int64_t m_positions = 0;
};

} // namespace sparsemap::model
