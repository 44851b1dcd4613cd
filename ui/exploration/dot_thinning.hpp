#pragma once
// Fewer dots for a scatter plot of millions of points: QCustomPlot paints ~3 us a dot, so a 2M-point
// run took seconds of the GUI thread on every repaint. Of the dots that fall into one cell of a grid
// of `cellPx`-pixel cells laid over the data's range at the plot's size, only the one drawn on top
// (the highest layer, the latest of equal layers) is kept. Dots are 4 px wide, as the cells, so
// the fitted view looks the same; zoomed far in, the map shows the kept dots only (hover and click
// still find every point). Runs of at most `keepAll` drawable dots are drawn whole. dotsToDraw touches
// no widget: made on the plots' worker thread.
#include <QSize>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace sparsemap::ui {

inline constexpr int kDotCellPx = 4;
inline constexpr std::size_t kDrawAllDots = 20000;

// The indices of the dots to draw: layer[i] < 0 is not drawn at all; x, y as drawn (log10 of a value on
// a logarithmic axis). `margin` is the share of the range the plot adds on each side.
inline std::vector<std::size_t> dotsToDraw(std::span<const double> x, std::span<const double> y,
                                           std::span<const std::int8_t> layer, QSize pixels, double margin,
                                           std::size_t keepAll = kDrawAllDots)
{
    std::vector<std::size_t> kept;
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (std::size_t i = 0; i < layer.size(); ++i)
        if (layer[i] >= 0) {
            kept.push_back(i);
            x0 = std::min(x0, x[i]);
            x1 = std::max(x1, x[i]);
            y0 = std::min(y0, y[i]);
            y1 = std::max(y1, y[i]);
        }
    if (kept.size() <= keepAll || pixels.width() <= 0 || pixels.height() <= 0)
        return kept;
    const double wx = std::max(x1 - x0, 1e-300) * (1 + 2 * margin);
    const double wy = std::max(y1 - y0, 1e-300) * (1 + 2 * margin);
    x0 -= (x1 - x0) * margin;
    y0 -= (y1 - y0) * margin;
    const auto cols = static_cast<std::size_t>(std::max(1, pixels.width() / kDotCellPx));
    const auto rows = static_cast<std::size_t>(std::max(1, pixels.height() / kDotCellPx));
    constexpr std::size_t kEmpty = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> top(cols * rows, kEmpty);
    for (const std::size_t i : kept) {
        const auto c = std::min(cols - 1, static_cast<std::size_t>((x[i] - x0) / wx * double(cols)));
        const auto r = std::min(rows - 1, static_cast<std::size_t>((y[i] - y0) / wy * double(rows)));
        std::size_t& cell = top[r * cols + c];
        if (cell == kEmpty || layer[i] >= layer[cell])
            cell = i;
    }
    kept.clear();
    for (const std::size_t i : top)
        if (i != kEmpty)
            kept.push_back(i);
    std::sort(kept.begin(), kept.end());
    return kept;
}

} // namespace sparsemap::ui
