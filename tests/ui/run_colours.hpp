#pragma once
// What the workbench shows of each run's colour, for the flow tests: the Compare table's swatches and
// a convergence plot's legend, each as run name -> "#rrggbb".
#include "compare/compare_view.hpp"
#include "compare/run_table_model.hpp"
#include "workbench/main_window.hpp"

#include <QColor>
#include <QMap>
#include <QString>
#include <qcustomplot.h>

namespace sparsemap::test {

inline QMap<QString, QString> compareSwatches(ui::MainWindow& window)
{
    QMap<QString, QString> swatches;
    auto* model = window.compareView()->model();
    for (int r = 0; r < model->rowCount(); ++r) {
        const QModelIndex name = model->index(r, ui::RunTableModel::Name);
        if (const QVariant color = name.data(Qt::DecorationRole); color.isValid())
            swatches[name.data().toString()] = color.value<QColor>().name();
    }
    return swatches;
}

inline QMap<QString, QString> legendColours(QCustomPlot* plot)
{
    QMap<QString, QString> entries;
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->legend->hasItemWithPlottable(plot->graph(i)))
            entries[plot->graph(i)->name()] = plot->graph(i)->pen().color().name();
    return entries;
}

} // namespace sparsemap::test
