#pragma once
// A plot legend below the axes instead of over the curves: small screens and many runs would otherwise
// cover the plot. Entries fill as many columns as the plot's width holds (at most `maxColumns`), then
// wrap to the next row; the legend's row takes only the height its entries need. The columns are
// worked out again before every replot, so a narrower plot gets more rows, never a wider minimum: the
// legend's entries do not decide how narrow the plot may be (a splitter would otherwise keep the
// plot as wide as its widest row of names).
#include <qcustomplot.h>

#include <algorithm>

namespace sparsemap::ui {

// Columns of `legend` that fit `width` pixels: one at least, `maxColumns` at most.
inline int legendColumnsFitting(QCPLegend* legend, int width, int maxColumns)
{
    int widest = 1;
    for (int i = 0; i < legend->itemCount(); ++i) // cells of the grid: the last row may have empty ones
        if (const QCPAbstractLegendItem* item = legend->item(i))
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const int room = width - legend->margins().left() - legend->margins().right();
    const int columns = (room + legend->columnSpacing()) / (widest + legend->columnSpacing());
    return std::clamp(columns, 1, std::max(1, maxColumns));
}

// Pixels (figure units) left free under a legend below the axes.
inline constexpr int kLegendBottomGap = 3;

// The property naming a plot's maximum legend columns when its legend stands below (placeLegendBelow).
inline constexpr const char* kLegendBelowColumnsProperty = "sparsemapLegendBelowColumns";

// Lays the legend of a plot set up by placeLegendBelow out in the columns that fit `width` pixels (or
// figure units). Before every replot for the screen; a saved figure (chart_export.cpp) calls it with
// the figure's width, since QCustomPlot::toPainter draws without a replot.
inline void fitLegendBelow(QCustomPlot* plot, int width)
{
    const int maxColumns = plot->property(kLegendBelowColumnsProperty).toInt();
    if (maxColumns < 1)
        return;
    QCPLegend* legend = plot->legend;
    const int columns = legendColumnsFitting(legend, width, maxColumns);
    if (columns != legend->wrap() || legend->columnCount() > columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true); // re-flows the entries
    }
}

inline void placeLegendBelow(QCustomPlot* plot, int maxColumns)
{
    plot->setProperty(kLegendBelowColumnsProperty, maxColumns);
    QCPLegend* legend = plot->legend;
    legend->setVisible(true);
    legend->setFont(QFont(plot->font().family(), 8));
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(maxColumns);
    legend->setRowSpacing(0);
    if (plot->axisRect()->insetLayout()->take(legend)) {
        plot->plotLayout()->addElement(plot->plotLayout()->rowCount(), 0, legend);
        plot->plotLayout()->setRowStretchFactor(plot->plotLayout()->rowCount() - 1, 0.001);
        plot->plotLayout()->setRowSpacing(2);
        // A few pixels under the legend: its frame's bottom line drawn on the widget's (or figure's)
        // last row was cut at the edge.
        plot->plotLayout()->setAutoMargins(QCP::msNone);
        plot->plotLayout()->setMargins(QMargins(0, 0, 0, kLegendBottomGap));
    }
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot,
                     [plot] { fitLegendBelow(plot, plot->viewport().width()); });
}

} // namespace sparsemap::ui
