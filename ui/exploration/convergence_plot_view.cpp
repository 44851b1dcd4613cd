#include "convergence_plot_view.hpp"
#include "common/axis_range.hpp"
#include "common/chart_export.hpp"
#include "common/legend_below.hpp"

#include "session/session.hpp"

#include <cmath>

namespace sparsemap::ui {

ConvergencePlotView::ConvergencePlotView(QWidget* parent) : QCustomPlot(parent)
{
    xAxis->setLabel("generation");
    yAxis->setLabel("objective");
    // What the two line styles mean, once above the axes: inside the axis title it made the title
    // longer than a small screen's plot is high (clipped at 1024x700).
    plotLayout()->insertRow(0);
    auto* key = new QCPTextElement(this, "solid: best so far, dashed: population average (valid members)",
                                   QFont(font().family(), 8));
    key->setTextColor(QColor(90, 90, 90));
    plotLayout()->addElement(0, 0, key);
    plotLayout()->setRowStretchFactor(0, 0.001); // its text's height, the rest to the axes
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    yAxis->setNumberFormat("eb");
    yAxis->setNumberPrecision(0);
    // One legend entry per run (its solid best-so-far curve; the dashed population average shares its
    // colour), below the axes.
    placeLegendBelow(this, 3);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMinimumHeight(200);
    enableChartSaving(this, "Convergence", "convergence");
}

void ConvergencePlotView::beginRun(const QString& label, const QColor& runColor)
{
    const QColor color =
        runColor.isValid() ? runColor : QColor(QString::fromStdString(defaultRunColor(std::size_t(m_runs))));
    ++m_runs;
    m_best = addGraph();
    m_best->setName(label);
    m_best->setPen(QPen(color, 2));
    m_average = addGraph();
    m_average->setName(label + " average");
    m_average->setPen(QPen(color, 1, Qt::DashLine));
    m_average->removeFromLegend();
}

void ConvergencePlotView::addGeneration(const search::GenerationStats& stats)
{
    if (!m_best)
        beginRun("run");
    // A log axis cannot show 0 or infinity (no valid point yet): leave the gap.
    if (std::isfinite(stats.best) && stats.best > 0)
        m_best->addData(stats.generation, stats.best);
    if (std::isfinite(stats.populationAverage) && stats.populationAverage > 0)
        m_average->addData(stats.generation, stats.populationAverage);
}

void ConvergencePlotView::setObjectiveLabel(const QString& label)
{
    yAxis->setLabel(label);
}

void ConvergencePlotView::clearRuns()
{
    clearGraphs();
    m_best = m_average = nullptr;
    m_runs = 0;
    replot();
}

bool ConvergencePlotView::restyleRun(const QString& label, const QString& newLabel, const QColor& color)
{
    // A run's curves: its best-so-far curve `label` and, right after it, `label average`.
    for (int i = 0; i + 1 < graphCount(); ++i)
        if (graph(i)->name() == label && graph(i + 1)->name() == label + " average") {
            graph(i)->setName(newLabel);
            graph(i)->setPen(QPen(color, 2));
            graph(i + 1)->setName(newLabel + " average");
            graph(i + 1)->setPen(QPen(color, 1, Qt::DashLine));
            replot(QCustomPlot::rpQueuedReplot);
            return true;
        }
    return false;
}

QColor ConvergencePlotView::runColor(const QString& label) const
{
    for (int i = 0; i < graphCount(); ++i)
        if (graph(i)->name() == label)
            return graph(i)->pen().color();
    return {};
}

bool ConvergencePlotView::hasRun(const QString& label) const
{
    for (int i = 0; i < graphCount(); ++i)
        if (graph(i)->name() == label)
            return true;
    return false;
}

void ConvergencePlotView::refresh()
{
    rescaleAxes();
    fitAxisToPlotted(yAxis); // down to the best, with room below it (axis_range.hpp)
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace sparsemap::ui
