#include "pareto_plot_view.hpp"

#include "analysis/pareto_front.hpp"
#include "common/axis_range.hpp"
#include "common/chart_export.hpp"
#include "common/legend_below.hpp"
#include "common/objective_label.hpp"
#include "common/background_job.hpp"
#include "dot_thinning.hpp"
#include "scatter_antialiasing.hpp"

#include <QToolTip>
#include <utility>

#include <algorithm>
#include <cmath>

namespace sparsemap::ui {

namespace {

void makeLogAxis(QCPAxis* axis, const QString& label)
{
    axis->setLabel(label);
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    axis->setNumberFormat("gb");
    axis->setNumberPrecision(2);
}

} // namespace

ParetoPlotView::ParetoPlotView(QWidget* parent) : QCustomPlot(parent)
{
    makeLogAxis(xAxis, "cycles");
    makeLogAxis(yAxis, "energy (" + microjouleUnit() + ")");
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMouseTracking(true);
    setMinimumHeight(240);
    enableChartSaving(this, "Energy-delay front", "energy-delay-front");

    m_valid = addGraph();
    m_valid->setName("valid designs");
    m_valid->setLineStyle(QCPGraph::lsNone);
    m_valid->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(90, 120, 170, 110), 4));
    m_valid->setAdaptiveSampling(true);
    m_frontLine = addGraph();
    m_frontLine->setName("Pareto front");
    m_frontLine->setLineStyle(QCPGraph::lsStepLeft); // what the front attains: the energy holds until the
                                                     // next faster-to-slower step
    m_frontLine->setPen(QPen(QColor(214, 39, 40), 2));
    m_frontLine->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(214, 39, 40), 2), QBrush(Qt::white), 7));
    m_best = addGraph();
    m_best->setName("best by the run's objective");
    m_best->setLineStyle(QCPGraph::lsNone);
    m_best->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssStar, QPen(QColor(255, 0, 255), 2), QBrush(Qt::NoBrush), 18));
    // Below the axes: over them it hid the front's fastest or most frugal designs.
    placeLegendBelow(this, 3);
    connect(this, &QCustomPlot::mouseDoubleClick, this, [this] {
        fitAxes();
        replot();
    });
    m_frame = prepare({}, -1);
}

std::shared_ptr<ParetoPlotView::Frame> ParetoPlotView::prepare(const search::PointLog& points,
                                                               std::int64_t bestIndex, QSize pixels)
{
    auto frame = std::make_shared<Frame>();
    Frame& f = *frame;
    f.front = analysis::paretoFront(points);
    std::vector<double> lx, ly; // as drawn: both axes logarithmic
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto p = points[i];
        // A log axis shows positive values only.
        if (!p.valid || !(p.cycles > 0) || !(p.energyPj > 0) || !std::isfinite(p.cycles) ||
            !std::isfinite(p.energyPj))
            continue;
        f.dots.push_back({p.cycles, p.energyPj, p.edp, p.objective, p.generation});
        f.index.push_back(static_cast<std::int64_t>(i));
        lx.push_back(std::log10(p.cycles));
        ly.push_back(std::log10(p.energyPj));
    }
    // All valid dots are alike: one per 3-pixel cell is drawn for a large run (dot_thinning.hpp).
    const std::vector<std::int8_t> layer(lx.size(), 0);
    QVector<QCPGraphData> dots;
    for (const std::size_t d : dotsToDraw(lx, ly, layer, pixels, 0.075))
        dots.push_back({f.dots[d].cycles, f.dots[d].energyPj * 1e-6});
    f.drawnCount = std::size_t(dots.size());
    f.valid = QSharedPointer<QCPGraphDataContainer>::create();
    f.valid->set(dots, false); // sorted here, off the GUI thread
    QVector<QCPGraphData> front;
    for (const std::int64_t i : f.front) {
        const auto p = points[static_cast<std::size_t>(i)];
        if (p.cycles > 0 && p.energyPj > 0)
            front.push_back({p.cycles, p.energyPj * 1e-6});
    }
    f.frontLine = QSharedPointer<QCPGraphDataContainer>::create();
    f.frontLine->set(front, true);
    if (bestIndex >= 0 && bestIndex < std::int64_t(points.size()) && points[std::size_t(bestIndex)].valid) {
        f.hasBest = true;
        f.bestCycles = points[std::size_t(bestIndex)].cycles;
        f.bestEnergyUj = points[std::size_t(bestIndex)].energyPj * 1e-6;
    }
    return frame;
}

void ParetoPlotView::apply(std::shared_ptr<Frame> frame)
{
    releaseOffGuiThread(std::exchange(m_frame, std::move(frame)));
    const Frame& f = *m_frame;
    antialiasScattersUnlessThinned(*this, f.drawnCount, f.dots.size());
    m_valid->setData(f.valid);
    m_frontLine->setData(f.frontLine);
    m_best->data()->clear();
    if (f.hasBest)
        m_best->addData(f.bestCycles, f.bestEnergyUj);
    m_frontLine->setName(QString("Pareto front (%1 designs)").arg(f.front.size()));
    fitAxes();
    replot(QCustomPlot::rpQueuedReplot);
}

void ParetoPlotView::fitAxes()
{
    // Every design and the front inside the frame, none on it (axis_range.hpp).
    fitAxisToPlotted(xAxis);
    fitAxisToPlotted(yAxis);
}

void ParetoPlotView::clearPoints()
{
    setPoints({}, -1);
}

QPointF ParetoPlotView::pixelOf(std::int64_t index) const
{
    const auto it = std::lower_bound(m_frame->index.begin(), m_frame->index.end(), index);
    if (it == m_frame->index.end() || *it != index)
        return {};
    const Dot& d = m_frame->dots[std::size_t(it - m_frame->index.begin())];
    return {xAxis->coordToPixel(d.cycles), yAxis->coordToPixel(d.energyPj * 1e-6)};
}

std::int64_t ParetoPlotView::pointAt(const QPointF& pixel) const
{
    constexpr double kRadius = 8; // pixels
    std::int64_t nearest = -1;
    double nearestDistance = kRadius * kRadius;
    for (std::size_t i = 0; i < m_frame->dots.size(); ++i) {
        const double dx = xAxis->coordToPixel(m_frame->dots[i].cycles) - pixel.x();
        const double dy = yAxis->coordToPixel(m_frame->dots[i].energyPj * 1e-6) - pixel.y();
        const double d = dx * dx + dy * dy;
        if (d < nearestDistance) {
            nearestDistance = d;
            nearest = m_frame->index[i];
        }
    }
    return nearest;
}

QString ParetoPlotView::tipFor(std::size_t dot) const
{
    const Dot& d = m_frame->dots[dot];
    const bool onFront =
        std::find(m_frame->front.begin(), m_frame->front.end(), m_frame->index[dot]) != m_frame->front.end();
    return QString("#%1, generation %2%3\ncycles %4\nenergy %5 %6\nEDP %7 %8")
        .arg(m_frame->index[dot])
        .arg(d.generation)
        .arg(onFront ? ", on the Pareto front" : "")
        .arg(d.cycles, 0, 'g', 6)
        .arg(d.energyPj * 1e-6, 0, 'g', 6)
        .arg(microjouleUnit())
        .arg(d.edp, 0, 'g', 4)
        .arg(edpUnit());
}

void ParetoPlotView::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = event->pos();
    QCustomPlot::mousePressEvent(event);
}

void ParetoPlotView::mouseReleaseEvent(QMouseEvent* event)
{
    const bool click = (event->pos() - m_pressPos).manhattanLength() < 4;
    QCustomPlot::mouseReleaseEvent(event);
    if (click && event->button() == Qt::LeftButton) {
        const std::int64_t index = pointAt(event->position());
        if (index >= 0)
            emit pointClicked(int(index));
    }
}

void ParetoPlotView::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return;
    const std::int64_t index = pointAt(event->position());
    if (index < 0) {
        QToolTip::hideText();
        return;
    }
    const auto it = std::lower_bound(m_frame->index.begin(), m_frame->index.end(), index);
    QToolTip::showText(event->globalPosition().toPoint(), tipFor(std::size_t(it - m_frame->index.begin())),
                       this);
}

} // namespace sparsemap::ui
