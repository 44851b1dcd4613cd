#include "design_space_plot_view.hpp"
#include "common/chart_export.hpp"
#include "common/objective_label.hpp"
#include "common/background_job.hpp"
#include "dot_thinning.hpp"
#include "scatter_antialiasing.hpp"

#include <QToolTip>
#include <utility>
#include <string_view>
#include <unordered_map>
#include <cmath>
#include <limits>

namespace sparsemap::ui {

DesignSpacePlotView::DesignSpacePlotView(QWidget* parent) : QCustomPlot(parent)
{
    xAxis->setLabel("mapping (PCA 1)");
    yAxis->setLabel("sparse strategy (PCA 1)");
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMouseTracking(true);
    setMinimumHeight(240);
    enableChartSaving(this, "Design-space map (PCA)", "design-space-pca");

    m_colorScale = new QCPColorScale(this);
    plotLayout()->addElement(0, 1, m_colorScale);
    m_colorScale->setType(QCPAxis::atRight);
    m_colorScale->setGradient(QCPColorGradient(QCPColorGradient::gpJet));
    m_colorScale->axis()->setLabel("log10 objective");
    auto* margins = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_colorScale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);

    // Invalid dots first, so that valid ones are drawn on top of them.
    m_invalid = addGraph();
    m_invalid->setLineStyle(QCPGraph::lsNone);
    m_invalid->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(170, 170, 170, 140), 4));
    m_invalid->setAdaptiveSampling(true);
    // The best (lowest) colour steps are added last so that good designs are drawn on top.
    m_bins.resize(kColorSteps);
    for (int i = kColorSteps - 1; i >= 0; --i) {
        auto* graph = addGraph();
        graph->setLineStyle(QCPGraph::lsNone);
        const QColor color = m_colorScale->gradient().color((i + 0.5) / kColorSteps, QCPRange(0, 1));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, 4));
        m_bins[std::size_t(i)] = graph;
    }
    m_best = addGraph();
    m_best->setLineStyle(QCPGraph::lsNone);
    m_best->setPen(QPen(QColor(255, 0, 255), 3));
    m_best->setName("best");
    m_best->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssStar, QPen(QColor(255, 0, 255), 3), QBrush(Qt::NoBrush), 22));
    m_selected = addGraph();
    m_selected->setLineStyle(QCPGraph::lsNone);
    m_selected->setName("selected");
    m_selected->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2.5), QBrush(Qt::NoBrush), 16));
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        // Range changes from our own rescale happen outside a mouse gesture.
        if (QApplication::mouseButtons() != Qt::NoButton)
            m_userZoomed = true;
    });
    connect(this, &QCustomPlot::mouseWheel, this, [this] { m_userZoomed = true; });
    connect(this, &QCustomPlot::mouseDoubleClick, this, [this] {
        m_userZoomed = false;
        rescaleAxes();
        replot();
    });
    m_frame = prepare({}, {}, {}, -1);
}

std::shared_ptr<DesignSpacePlotView::Frame> DesignSpacePlotView::prepare(const search::PointLog& points,
                                                                         std::vector<double> x,
                                                                         std::vector<double> y,
                                                                         std::int64_t bestIndex, QSize pixels)
{
    auto frame = std::make_shared<Frame>();
    Frame& f = *frame;
    // What a tooltip needs, kept compact: a string per dot of a 2M-point run would cost seconds and
    // hundreds of MB on every refresh; the text is made on hover.
    f.tips.assign(points.size(), DotTip{});
    std::unordered_map<std::string_view, std::uint32_t> reasonIndex;
    double low = std::numeric_limits<double>::infinity(), high = -low;
    const auto valid = points.validFlags();
    const auto objectives = points.objectives();
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (valid[i] && objectives[i] > 0 && std::isfinite(objectives[i])) {
            low = std::min(low, std::log10(objectives[i]));
            high = std::max(high, std::log10(objectives[i]));
        }
    }
    // Without a valid design there is nothing to colour: no scale (not a meaningless 0..1e-9 one).
    f.anyValid = low <= high;
    if (!f.anyValid)
        low = high = 0;
    const double span = std::max(high - low, 1e-9);
    f.low = low;
    f.span = span;

    // Each dot's layer (its colour step: the best drawn on top, invalid dots below every valid one),
    // then the dots worth drawing at the plot's size (dot_thinning.hpp).
    const std::size_t n = std::min({points.size(), x.size(), y.size()});
    std::vector<std::int8_t> layer(n, -1);
    std::vector<int> binOf(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(x[i]) || !std::isfinite(y[i]))
            continue;
        const auto p = points[i];
        if (p.valid && p.objective > 0 && std::isfinite(p.objective)) {
            const int bin =
                std::clamp(int((std::log10(p.objective) - low) / span * kColorSteps), 0, kColorSteps - 1);
            binOf[i] = bin;
            layer[i] = std::int8_t(kColorSteps - bin);
            f.tips[i] = {p.generation, true, 0, p.objective, p.cycles, p.energyPj, p.edp};
        } else {
            layer[i] = 0;
            const auto [it, fresh] = reasonIndex.emplace(p.reason, std::uint32_t(f.reasons.size()));
            if (fresh)
                f.reasons.push_back(QString::fromUtf8(p.reason.data(), qsizetype(p.reason.size())));
            f.tips[i] = {p.generation, false, it->second, 0, 0, 0, 0};
        }
    }
    std::vector<QVector<QCPGraphData>> bins(kColorSteps);
    QVector<QCPGraphData> bad;
    const auto drawn = dotsToDraw(x, y, layer, pixels, 0.04);
    f.drawnCount = drawn.size();
    for (const std::size_t i : drawn) {
        if (binOf[i] >= 0)
            bins[std::size_t(binOf[i])].push_back({x[i], y[i]});
        else
            bad.push_back({x[i], y[i]});
    }
    // Sorted here, off the GUI thread (a graph keeps its data sorted by key).
    const auto container = [](QVector<QCPGraphData>& data) {
        auto made = QSharedPointer<QCPGraphDataContainer>::create();
        made->set(data, false);
        return made;
    };
    for (auto& bin : bins)
        f.bins.push_back(container(bin));
    f.invalid = container(bad);
    f.x = std::move(x);
    f.y = std::move(y);
    f.bestIndex = bestIndex;
    return frame;
}

void DesignSpacePlotView::apply(std::shared_ptr<Frame> frame)
{
    releaseOffGuiThread(std::exchange(m_frame, std::move(frame)));
    const Frame& f = *m_frame;
    antialiasScattersUnlessThinned(*this, f.drawnCount, f.x.size());
    for (int b = 0; b < kColorSteps; ++b)
        m_bins[std::size_t(b)]->setData(f.bins[std::size_t(b)]);
    m_invalid->setData(f.invalid);
    m_best->data()->clear();
    if (f.bestIndex >= 0 && f.bestIndex < std::int64_t(f.x.size()))
        m_best->addData(f.x[std::size_t(f.bestIndex)], f.y[std::size_t(f.bestIndex)]);
    m_colorScale->setDataRange(QCPRange(f.low, f.low + f.span));
    if (m_colorScale->visible() != f.anyValid) {
        m_colorScale->setVisible(f.anyValid);
        if (f.anyValid) {
            plotLayout()->addElement(0, 1, m_colorScale);
        } else {
            plotLayout()->take(m_colorScale);
            plotLayout()->simplify();
        }
    }
    if (m_selectedIndex >= std::int64_t(f.x.size()))
        m_selectedIndex = -1;
    setSelectedIndex(m_selectedIndex);
    if (!m_userZoomed) {
        rescaleAxes();
        // A margin, so that dots on the hull (often the best one) are not cut by the axes.
        xAxis->scaleRange(1.08, xAxis->range().center());
        yAxis->scaleRange(1.08, yAxis->range().center());
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void DesignSpacePlotView::setSelectedIndex(int index)
{
    m_selectedIndex = index >= 0 && index < int(m_frame->x.size()) ? index : -1;
    m_selected->data()->clear();
    if (m_selectedIndex >= 0)
        m_selected->addData(m_frame->x[std::size_t(m_selectedIndex)],
                            m_frame->y[std::size_t(m_selectedIndex)]);
    replot(QCustomPlot::rpQueuedReplot);
}

void DesignSpacePlotView::clearPoints()
{
    setPoints({}, {}, {}, -1);
    m_userZoomed = false;
}

QPointF DesignSpacePlotView::pixelOf(int index) const
{
    return {xAxis->coordToPixel(m_frame->x.at(std::size_t(index))),
            yAxis->coordToPixel(m_frame->y.at(std::size_t(index)))};
}

int DesignSpacePlotView::pointAt(const QPointF& pixel) const
{
    constexpr double kRadius = 8; // pixels
    int nearest = -1;
    double nearestDistance = kRadius * kRadius;
    for (std::size_t i = 0; i < m_frame->x.size(); ++i) {
        if (!std::isfinite(m_frame->x[i]) || !std::isfinite(m_frame->y[i]))
            continue;
        const double dx = xAxis->coordToPixel(m_frame->x[i]) - pixel.x();
        const double dy = yAxis->coordToPixel(m_frame->y[i]) - pixel.y();
        const double d = dx * dx + dy * dy;
        if (d <= nearestDistance) {
            nearestDistance = d;
            nearest = int(i);
        }
    }
    return nearest;
}

QString DesignSpacePlotView::tipText(int index) const
{
    const DotTip& t = m_frame->tips.at(std::size_t(index));
    if (!t.valid)
        return QString("#%1, generation %2\ninvalid: %3")
            .arg(index)
            .arg(t.generation)
            .arg(t.reason < m_frame->reasons.size() ? m_frame->reasons[t.reason] : QString());
    return QString("#%1, generation %2\nobjective %3\ncycles %4\nenergy %5 pJ\nEDP %6 %7")
        .arg(index)
        .arg(t.generation)
        .arg(t.objective, 0, 'g', 4)
        .arg(t.cycles, 0, 'g', 4)
        .arg(t.energyPj, 0, 'g', 4)
        .arg(t.edp, 0, 'g', 4)
        .arg(edpUnit());
}

void DesignSpacePlotView::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = event->pos();
    QCustomPlot::mousePressEvent(event);
}

void DesignSpacePlotView::mouseReleaseEvent(QMouseEvent* event)
{
    // A click, not the end of a pan: select the dot under the cursor.
    const bool click = (event->pos() - m_pressPos).manhattanLength() < 4;
    QCustomPlot::mouseReleaseEvent(event);
    if (click && event->button() == Qt::LeftButton) {
        const int index = pointAt(event->position());
        if (index >= 0)
            emit pointClicked(index);
    }
}

void DesignSpacePlotView::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return;
    const int index = pointAt(event->position());
    if (index >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), tipText(index), this);
    else
        QToolTip::hideText();
}

} // namespace sparsemap::ui
