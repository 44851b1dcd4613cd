#pragma once
// A plot legend below the axes instead of over the curves: small screens and many runs would otherwise
// cover the plot. Entries fill `columns` columns, then wrap to the next row; the legend's row takes
// only the height its entries need.
#include <qcustomplot.h>

namespace sparsemap::ui {

inline void placeLegendBelow(QCustomPlot* plot, int columns)
{
    QCPLegend* legend = plot->legend;
    legend->setVisible(true);
    legend->setFont(QFont(plot->font().family(), 8));
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(columns);
    legend->setRowSpacing(0);
    if (plot->axisRect()->insetLayout()->take(legend)) {
        plot->plotLayout()->addElement(plot->plotLayout()->rowCount(), 0, legend);
        plot->plotLayout()->setRowStretchFactor(plot->plotLayout()->rowCount() - 1, 0.001);
        plot->plotLayout()->setRowSpacing(2);
    }
}

} // namespace sparsemap::ui
