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

inline void placeLegendBelow(QCustomPlot* plot, int maxColumns)
{
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
    }
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot, maxColumns] {
        QCPLegend* legend = plot->legend;
        const int columns = legendColumnsFitting(legend, plot->viewport().width(), maxColumns);
        if (columns != legend->wrap() || legend->columnCount() > columns) {
            legend->setWrap(columns);
            legend->setFillOrder(QCPLegend::foColumnsFirst, true); // re-flows the entries
        }
    });
}

} // namespace sparsemap::ui
