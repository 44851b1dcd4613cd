#pragma once
// Geometry of a band matrix (nonzeros exactly where |row - column| <= bandwidth) cut into tiles, in
// closed form: counting the band points of a rectangle is O(1), and the histogram of a tile shape needs
// only the tile rows near the matrix edges plus one period of the steady state (spec §2.3).
#include "model/density/tile_histogram.hpp"

#include <cstdint>

namespace sparsemap::model::detail {

// Band points in rows [row0, row1) x columns [column0, column1).
std::int64_t bandPointsInRect(std::int64_t bandwidth, std::int64_t row0, std::int64_t row1,
                              std::int64_t column0, std::int64_t column1);

// The histogram of band points per tile over the grid of tileRows x tileColumns tiles of a rows x
// columns matrix (edge tiles zero-padded). Tile rows away from the edges repeat with period
// tileColumns / gcd(tileRows, tileColumns) (shifting a tile row by lcm(tileRows, tileColumns) shifts its
// band by whole tiles), so the cost is O((edge tile rows + period) * tiles crossing the band per row).
TileHistogram bandTileHistogram(std::int64_t rows, std::int64_t columns, std::int64_t bandwidth,
                                std::int64_t tileRows, std::int64_t tileColumns);

} // namespace sparsemap::model::detail
