#include "model/density/band_tiles.hpp"

#include <algorithm>
#include <numeric>

namespace sparsemap::model::detail {

namespace {

// sum_{t = t0}^{t1} clamp(t, 0, width).
__int128 sumClamped(std::int64_t t0, std::int64_t t1, std::int64_t width)
{
    if (t0 > t1)
        return 0;
    __int128 sum = 0;
    const std::int64_t a = std::max<std::int64_t>(t0, 1), z = std::min(t1, width - 1);
    if (a <= z)
        sum += static_cast<__int128>(a + z) * (z - a + 1) / 2;
    const std::int64_t full = std::max(t0, width);
    if (full <= t1)
        sum += static_cast<__int128>(width) * (t1 - full + 1);
    return sum;
}

// Points of the rectangle with column - row <= y: each row i contributes clamp(i + y - column0 + 1, 0, W).
__int128 pointsBelowDiagonal(std::int64_t y, std::int64_t row0, std::int64_t row1, std::int64_t column0,
                             std::int64_t column1)
{
    const std::int64_t shift = y - column0 + 1;
    return sumClamped(row0 + shift, row1 - 1 + shift, column1 - column0);
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

} // namespace

std::int64_t bandPointsInRect(std::int64_t bandwidth, std::int64_t row0, std::int64_t row1,
                              std::int64_t column0, std::int64_t column1)
{
    if (row0 >= row1 || column0 >= column1)
        return 0;
    return static_cast<std::int64_t>(pointsBelowDiagonal(bandwidth, row0, row1, column0, column1) -
                                     pointsBelowDiagonal(-bandwidth - 1, row0, row1, column0, column1));
}

TileHistogram bandTileHistogram(std::int64_t rows, std::int64_t columns, std::int64_t bandwidth,
                                std::int64_t tileRows, std::int64_t tileColumns)
{
    const std::int64_t b = bandwidth, h = tileRows, w = tileColumns;
    const std::int64_t gridRows = (rows + h - 1) / h, gridColumns = (columns + w - 1) / w;
    std::vector<std::pair<std::int64_t, std::int64_t>> counts;
    // Tile row I's band columns are [I h - b, I h + h - 1 + b]; its tiles crossing the band are counted,
    // every other tile of the grid is empty.
    const auto addRow = [&](std::int64_t tileRow, std::int64_t multiplicity) {
        const std::int64_t r0 = tileRow * h, r1 = std::min(rows, r0 + h);
        const std::int64_t first = std::max<std::int64_t>(0, r0 - b),
                           last = std::min(columns - 1, r1 - 1 + b);
        for (std::int64_t j = first / w; first <= last && j <= last / w; ++j) {
            const std::int64_t c0 = j * w;
            counts.emplace_back(bandPointsInRect(b, r0, r1, c0, std::min(columns, c0 + w)), multiplicity);
        }
    };
    // Steady tile rows: full height, band starting at column >= 0 and ending inside the last full tile
    // column, so nothing is clipped by an edge.
    const std::int64_t steadyFirst = (b + h - 1) / h;
    const std::int64_t steadyLast = std::min(rows / h - 1, floorDiv(w * (columns / w) - h - b, h));
    const std::int64_t period = w / std::gcd(h, w);
    const std::int64_t lastBandRow = std::min(gridRows - 1, (columns - 1 + b) / h);
    for (std::int64_t i = 0; i <= lastBandRow; ++i) {
        if (i < steadyFirst || i > steadyLast) {
            addRow(i, 1);
        } else if (i < steadyFirst + period) {
            addRow(i, (steadyLast - i) / period + 1);
        } else {
            i = steadyLast; // the rest of the steady rows repeat the first period
        }
    }
    return TileHistogram(std::move(counts), gridRows * gridColumns);
}

} // namespace sparsemap::model::detail
