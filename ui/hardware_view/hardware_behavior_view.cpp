#include "hardware_view/hardware_behavior_view.hpp"

#include "util/error.hpp"

#include <QGraphicsLineItem>
#include <QGraphicsPolygonItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace sparsemap::ui {

using analysis::MacState;
using analysis::SpatialCast;

namespace {

constexpr int kSliderMax = 100000; // the slider is proportional beyond this many steps

QColor castColor(SpatialCast cast, bool output)
{
    if (output && (cast == SpatialCast::Broadcast || cast == SpatialCast::Multicast))
        return QColor(0x17, 0x9c, 0x9c); // teal: partial sums reduced across children
    switch (cast) {
    case SpatialCast::Broadcast:
        return QColor(0x1f, 0x6f, 0xc4); // blue
    case SpatialCast::Multicast:
        return QColor(0x8e, 0x4f, 0xc0); // purple
    case SpatialCast::Unicast:
        return QColor(0xe0, 0x6a, 0x10); // orange
    case SpatialCast::None:
        break;
    }
    return QColor(0x50, 0x50, 0x50);
}

QString castText(const analysis::Fanout& f, int tensor, const Tensor& t)
{
    const auto cast = f.cast[tensor];
    const auto share = f.share[tensor];
    if (cast == SpatialCast::None)
        return QString::fromStdString(t.name) + QStringLiteral(": one child");
    if (t.isOutput)
        return cast == SpatialCast::Unicast
                   ? QString::fromStdString(t.name) + QStringLiteral(": unicast (own partial sums)")
                   : QString::fromStdString(t.name) + QStringLiteral(": reduced over %1 children").arg(share);
    if (cast == SpatialCast::Broadcast)
        return QString::fromStdString(t.name) + QStringLiteral(": broadcast (same tile to %1)").arg(share);
    if (cast == SpatialCast::Multicast)
        return QString::fromStdString(t.name) + QStringLiteral(": multicast (each tile to %1)").arg(share);
    return QString::fromStdString(t.name) + QStringLiteral(": unicast (own tile each)");
}

QString number(double x)
{
    if (x == 0)
        return QStringLiteral("0");
    if (std::abs(x) >= 1e5 || std::abs(x) < 1e-2)
        return QString::number(x, 'e', 2);
    return QString::number(x, 'g', 5);
}

QString loopName(const Workload& w, const analysis::TraceLoop& loop)
{
    return QString::fromStdString(w.dims.at(loop.dim).name).toLower() +
           QString::number(loop.mappingLevel + 1);
}

QGraphicsSimpleTextItem* addText(QGraphicsScene* scene, const QString& text, double x, double y, double scale,
                                 const QColor& color = Qt::black, bool bold = false)
{
    auto* item = scene->addSimpleText(text);
    QFont f = item->font();
    f.setPointSizeF(9);
    f.setBold(bold);
    item->setFont(f);
    item->setBrush(color);
    item->setScale(scale);
    item->setPos(x, y);
    return item;
}

} // namespace

HardwareBehaviorView::HardwareBehaviorView(QWidget* parent) : QWidget(parent)
{
    m_scene = new QGraphicsScene(this);
    m_view = new ZoomableGraphicsView(this);
    m_view->setScene(m_scene);
    m_view->setBackgroundBrush(Qt::white);

    m_prev = new QPushButton(tr("◀ Prev"), this);
    m_next = new QPushButton(tr("Next ▶"), this);
    m_play = new QPushButton(tr("Play"), this);
    m_play->setCheckable(true);
    m_fit = new QPushButton(tr("Fit"), this);
    m_fit->setToolTip(tr("Show the whole accelerator (the mouse wheel zooms, dragging pans)"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_stepEdit = new QLineEdit(this);
    m_stepEdit->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{1,18}")), this));
    m_stepEdit->setMaximumWidth(130);
    m_stepEdit->setToolTip(tr("Time step (0-based); Enter jumps to it"));
    m_stepOf = new QLabel(this);
    m_loops = new QLabel(this);
    m_loops->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_loops->setWordWrap(true);
    m_counts = new QLabel(this);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Step"), this));
    controls->addWidget(m_stepEdit);
    controls->addWidget(m_stepOf);
    controls->addWidget(m_prev);
    controls->addWidget(m_next);
    controls->addWidget(m_play);
    controls->addWidget(m_slider, 1);
    controls->addWidget(m_fit);

    auto* legend = new QHBoxLayout;
    auto swatch = [this, legend](const QColor& c, const QString& text) {
        auto* l = new QLabel(this);
        l->setText(QStringLiteral("<span style='background:%1; color:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span> %2")
                       .arg(c.name(), text.toHtmlEscaped()));
        legend->addWidget(l);
    };
    for (MacState s : {MacState::Active, MacState::Gated, MacState::Skipped, MacState::Empty, MacState::Idle})
        swatch(macStateColor(s), tr("MAC %1").arg(macStateName(s)));
    swatch(castColor(SpatialCast::Broadcast, false), tr("broadcast"));
    swatch(castColor(SpatialCast::Multicast, false), tr("multicast"));
    swatch(castColor(SpatialCast::Unicast, false), tr("unicast"));
    swatch(castColor(SpatialCast::Broadcast, true), tr("reduction"));
    legend->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_loops);
    layout->addWidget(m_counts);
    layout->addWidget(m_view, 1);
    layout->addLayout(legend);

    m_timer.setInterval(400);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_step + 1 >= stepCount())
            setPlaying(false);
        else
            setStep(m_step + 1);
    });
    connect(m_prev, &QPushButton::clicked, this, &HardwareBehaviorView::previousStep);
    connect(m_next, &QPushButton::clicked, this, &HardwareBehaviorView::nextStep);
    connect(m_play, &QPushButton::toggled, this, &HardwareBehaviorView::setPlaying);
    connect(m_fit, &QPushButton::clicked, m_view, &ZoomableGraphicsView::fitAll);
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        if (m_updatingControls || !m_trace)
            return;
        const std::int64_t last = m_trace->stepCount() - 1;
        setStep(last <= kSliderMax
                    ? value
                    : static_cast<std::int64_t>(
                          std::llround(static_cast<double>(value) / kSliderMax * static_cast<double>(last))));
    });
    connect(m_stepEdit, &QLineEdit::returnPressed, this,
            [this] { setStep(m_stepEdit->text().toLongLong()); });
    clear();
}

HardwareBehaviorView::~HardwareBehaviorView() = default;

void HardwareBehaviorView::clear()
{
    setPlaying(false);
    m_trace.reset();
    m_step = 0;
    m_error.clear();
    m_state = {};
    m_peItems.clear();
    m_levelTiles.clear();
    m_scene->clear();
    showMessage(tr("No design selected."));
    m_loops->clear();
    m_counts->clear();
    for (QWidget* w : std::initializer_list<QWidget*>{m_prev, m_next, m_play, m_slider, m_stepEdit})
        w->setEnabled(false);
    m_stepEdit->clear();
    m_stepOf->clear();
}

void HardwareBehaviorView::showMessage(const QString& text)
{
    auto* item = m_scene->addSimpleText(text);
    item->setBrush(QColor(0x60, 0x60, 0x60));
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-20, -20, 20, 20));
}

void HardwareBehaviorView::setDesign(const Workload& workload, const Architecture& arch, const Design& design,
                                     const model::EvaluationResult& result)
{
    clear();
    m_scene->clear();
    try {
        m_trace = std::make_unique<analysis::HardwareTrace>(workload, arch, design);
        // The picture draws the model's own counts, so that summed over the steps it says what the
        // Metrics say (the sampled operand values only tell where the zeros are; tiles still show them).
        if (result.valid)
            m_trace->useModelCounts(std::llround(result.compute.actual), std::llround(result.compute.gated),
                                    std::llround(result.compute.skipped));
    } catch (const InputError& e) {
        m_error = QString::fromStdString(e.what());
        showMessage(tr("Cannot draw this design:\n%1").arg(m_error));
        return;
    }
    buildScene(result);
    for (QWidget* w : std::initializer_list<QWidget*>{m_prev, m_next, m_play, m_slider, m_stepEdit})
        w->setEnabled(true);
    const std::int64_t last = m_trace->stepCount() - 1;
    m_updatingControls = true;
    m_slider->setRange(0, static_cast<int>(std::min<std::int64_t>(last, kSliderMax)));
    m_updatingControls = false;
    m_stepOf->setText(tr("of %1").arg(m_trace->stepCount()));
    m_step = 0;
    updateStep();
    m_view->fitAll();
}

QString HardwareBehaviorView::levelSummary(int level, const model::EvaluationResult& result) const
{
    if (level < 0 || level >= static_cast<int>(result.levels.size()))
        return {};
    const auto& r = result.levels[level];
    double reads = 0, fills = 0, updates = 0;
    for (const auto& t : r.tensors) {
        reads += t.reads.actual;
        fills += t.fills.actual;
        updates += t.updates.actual;
    }
    return tr("energy %1 pJ · per instance: reads %2, fills %3, updates %4 words")
        .arg(number(r.energyPj), number(reads), number(fills), number(updates));
}

void HardwareBehaviorView::buildScene(const model::EvaluationResult& result)
{
    const auto& trace = *m_trace;
    const auto& w = trace.workload();
    const auto& arch = trace.architecture();
    const int levels = arch.levelCount();
    const int peLevel = levels - 1;
    const int tensors = static_cast<int>(w.tensors.size());

    // PE grid geometry first: it fixes the scale of everything else.
    const std::int64_t cols = trace.gridColumns(peLevel), rows = trace.gridRows(peLevel);
    const auto& macFan = trace.fanouts()[peLevel];
    const int macCols = static_cast<int>(macFan.gridWidth);
    const int macRows =
        static_cast<int>((macFan.childrenPerParent + macFan.gridWidth - 1) / macFan.gridWidth);
    // The array fits a bounded area (texts are drawn at scale 1 beside it), so that at Fit on a
    // 1400x850 view the texts stay >= 9 px: a large array collapses to a grid of small PEs (a bar of
    // MAC states each when single MACs get too small), whose details show on hover and on zoom.
    constexpr double kArrayW = 900, kArrayH = 360;
    bool showLabels = cols * rows <= 64;
    double macSize = 12, bufferH = 0, peW = 0, peH = 0, gap = 0, gridW = 0, gridH = 0;
    const auto layoutArray = [&](double s) { // s scales the whole PE drawing (1 = MACs of 12 units)
        macSize = 12 * s;
        bufferH = showLabels ? 8 + 11.0 * tensors : 8 * s;
        peW = std::max(macCols * macSize + 10 * s, showLabels ? 110.0 : 0.0);
        peH = bufferH + macRows * macSize + 8 * s;
        gap = 8 * s;
        gridW = static_cast<double>(cols) * (peW + gap) - gap;
        gridH = static_cast<double>(rows) * (peH + gap) - gap;
    };
    layoutArray(1);
    if (showLabels && (gridW > kArrayW || gridH > kArrayH)) {
        showLabels = false; // tile labels do not fit: hover a PE for them
        layoutArray(1);
    }
    if (!showLabels && (gridW > kArrayW || gridH > kArrayH))
        layoutArray(std::min(kArrayW / gridW, kArrayH / gridH)); // linear in s
    // Texts of the upper levels grow with the array so that they stay readable when it all fits
    // (the fit is limited by the larger of the grid's width and height).
    const double u = std::max(1.0, std::max(gridW, 1.4 * gridH) / 900.0);
    const double boxW = std::max(gridW, 620 * u);
    const double line = 15 * u;

    auto arrow = [this](double x, double y0, double y1, const QColor& c, double width) {
        m_scene->addLine(x, y0, x, y1 - 6 * width / 2, QPen(c, width));
        QPolygonF head;
        head << QPointF(x - 3 * width, y1 - 6 * width) << QPointF(x + 3 * width, y1 - 6 * width)
             << QPointF(x, y1);
        m_scene->addPolygon(head, QPen(c, 0.5), QBrush(c));
    };

    double y = 0;
    m_levelTiles.assign(static_cast<std::size_t>(levels), {});
    for (int s = 0; s < peLevel; ++s) {
        const auto& spec = arch.levels[s];
        const double boxH = line * (2 + tensors) + 10 * u;
        auto* box = m_scene->addRect(0, y, boxW, boxH, QPen(QColor(0x40, 0x40, 0x40), 1.2 * u),
                                     QBrush(s == 0 ? QColor(0xfd, 0xf3, 0xe1) : QColor(0xe8, 0xf4, 0xea)));
        box->setToolTip(QString::fromStdString(spec.name));
        QString title = QString::fromStdString(spec.name);
        if (spec.instances > 1)
            title += tr("  ×%1 (used %2)").arg(spec.instances).arg(trace.usedInstances(s));
        addText(m_scene, title, 8 * u, y + 4 * u, u, Qt::black, true);
        if (!result.levels.empty())
            addText(m_scene, levelSummary(s, result), 8 * u, y + 4 * u + line, u, QColor(0x40, 0x40, 0x40));
        for (int t = 0; t < tensors; ++t) {
            const bool kept = trace.design().mapping.keeps(s, t);
            auto* text = addText(m_scene, QString(), 16 * u, y + 4 * u + line * (2 + t), u,
                                 kept ? Qt::black : QColor(0xa0, 0xa0, 0xa0));
            m_levelTiles[s].push_back(text);
        }
        y += boxH;
        // The fan-out below this level: one arrow per tensor, coloured by how it is sent.
        const auto& f = trace.fanouts()[s];
        const double connectorH = line * (tensors + 1) + 14 * u;
        const double x0 = 40 * u;
        for (int t = 0; t < tensors; ++t) {
            const QColor c = castColor(f.cast[t], w.tensors[t].isOutput);
            arrow(x0 + t * 14 * u, y + 2 * u, y + connectorH - 2 * u, c, 1.5 * u);
            addText(m_scene, castText(f, t, w.tensors[t]), x0 + tensors * 14 * u + 10 * u,
                    y + 4 * u + line * t, u, c);
        }
        if (f.cast.empty() || f.cast[0] != SpatialCast::None)
            addText(m_scene,
                    tr("fan-out: %1 of %2 children used (%3 x %4)")
                        .arg(f.used)
                        .arg(f.childrenPerParent)
                        .arg(f.usedX)
                        .arg(f.usedY),
                    x0 + tensors * 14 * u + 10 * u, y + 4 * u + line * tensors, u, QColor(0x40, 0x40, 0x40));
        y += connectorH;
    }

    // The PE array header: the last storage level, its fan-out to the MACs, and the compute totals.
    const auto& peSpec = arch.levels[peLevel];
    addText(m_scene,
            tr("%1 array: %2 of %3 used · %4 MACs per %1, %5 used (%6 x %7)")
                .arg(QString::fromStdString(peSpec.name))
                .arg(trace.usedInstances(peLevel))
                .arg(peSpec.instances)
                .arg(macFan.childrenPerParent)
                .arg(macFan.used)
                .arg(macFan.usedX)
                .arg(macFan.usedY),
            0, y, u, Qt::black, true);
    y += line;
    if (!result.levels.empty()) {
        addText(m_scene, levelSummary(peLevel, result), 0, y, u, QColor(0x40, 0x40, 0x40));
        y += line;
    }
    {
        QStringList casts;
        double x = 0;
        for (int t = 0; t < tensors; ++t) {
            auto* item = addText(m_scene, castText(macFan, t, w.tensors[t]) + QStringLiteral("   "), x, y, u,
                                 castColor(macFan.cast[t], w.tensors[t].isOutput));
            x += item->boundingRect().width() * u;
        }
        y += line;
        const auto& c = result.compute;
        if (result.valid)
            addText(m_scene,
                    tr("model, whole run: computes actual %1, gated %2, skipped %3 · MAC energy %4 pJ")
                        .arg(number(c.actual), number(c.gated), number(c.skipped), number(c.energyPj)),
                    0, y, u, QColor(0x40, 0x40, 0x40));
        y += line + 6 * u;
    }

    m_state.macs.assign(static_cast<std::size_t>(arch.compute.instances), MacState::Idle);
    m_state.tileLabels.assign(static_cast<std::size_t>(peSpec.instances), {});
    m_peItems.clear();
    for (std::int64_t pe = 0; pe < peSpec.instances; ++pe) {
        std::vector<std::int64_t> macs(static_cast<std::size_t>(macFan.childrenPerParent));
        for (std::int64_t i = 0; i < macFan.childrenPerParent; ++i)
            macs[i] = pe * macFan.childrenPerParent + i;
        const bool used = trace.instanceUsed(peLevel, pe);
        auto* item = new PeItem(&m_state, pe, used, std::move(macs), macCols, QSizeF(peW, peH), macSize,
                                bufferH, showLabels);
        const auto pos = trace.gridPosition(peLevel, pe);
        item->setPos(static_cast<double>(pos.column) * (peW + gap),
                     y + static_cast<double>(pos.row) * (peH + gap));
        if (!used)
            item->setToolTip(
                tr("%1 %2: not used by this mapping").arg(QString::fromStdString(peSpec.name)).arg(pe));
        m_scene->addItem(item);
        if (used)
            m_peItems.push_back(item);
    }
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-20, -20, 20, 20));
}

void HardwareBehaviorView::setStep(std::int64_t step)
{
    if (!m_trace)
        return;
    step = std::clamp<std::int64_t>(step, 0, m_trace->stepCount() - 1);
    if (step == m_step && !m_stepEdit->text().isEmpty())
        return;
    m_step = step;
    updateStep();
    emit stepChanged(m_step);
}

void HardwareBehaviorView::nextStep()
{
    setStep(m_step + 1);
}

void HardwareBehaviorView::previousStep()
{
    setStep(m_step - 1);
}

void HardwareBehaviorView::setPlaying(bool playing)
{
    playing = playing && m_trace && m_trace->stepCount() > 1;
    if (playing) {
        if (m_step + 1 >= m_trace->stepCount())
            setStep(0); // play again from the start
        m_timer.start();
    } else {
        m_timer.stop();
    }
    const QSignalBlocker block(m_play);
    m_play->setChecked(playing);
    m_play->setText(playing ? tr("Pause") : tr("Play"));
}

void HardwareBehaviorView::updateStep()
{
    const auto& trace = *m_trace;
    const auto& w = trace.workload();
    const int levels = trace.architecture().levelCount();
    const int peLevel = levels - 1;
    const int tensors = static_cast<int>(w.tensors.size());

    trace.macStates(m_step, m_state.macs);
    for (int s = 0; s < peLevel && s < static_cast<int>(m_levelTiles.size()); ++s)
        for (int t = 0; t < tensors && t < static_cast<int>(m_levelTiles[s].size()); ++t) {
            const auto tile = trace.tile(m_step, s, 0, t);
            QString text = tile ? QString::fromStdString(trace.tileText(t, *tile)) : QStringLiteral("-");
            if (!trace.design().mapping.keeps(s, t))
                text += tr("  (bypassed)");
            m_levelTiles[s][t]->setText(text);
        }
    const bool tooltips = m_peItems.size() <= 4096;
    for (PeItem* item : m_peItems) {
        QStringList labels;
        for (int t = 0; t < tensors; ++t)
            if (const auto tile = trace.tile(m_step, peLevel, item->pe(), t))
                labels << QString::fromStdString(trace.tileText(t, *tile));
        if (tooltips) {
            const auto per = trace.fanouts()[peLevel].childrenPerParent;
            const auto c =
                analysis::countMacStates(std::span<const MacState>(m_state.macs)
                                             .subspan(std::size_t(item->pe() * per), std::size_t(per)));
            item->setToolTip(tr("%1 %2\n%3\nMACs: %4 active, %5 gated, %6 skipped, %7 not issued, %8 unused")
                                 .arg(QString::fromStdString(trace.architecture().levels[peLevel].name))
                                 .arg(item->pe())
                                 .arg(labels.join(QStringLiteral("  ")))
                                 .arg(c.active)
                                 .arg(c.gated)
                                 .arg(c.skipped)
                                 .arg(c.empty)
                                 .arg(c.idle));
        }
        m_state.tileLabels[static_cast<std::size_t>(item->pe())] = std::move(labels);
        item->update();
    }

    const auto c = shownCounts();
    m_counts->setText(
        tr("MACs at this step: <b style='color:%1'>%2 active</b>, <b style='color:%3'>%4 gated</b>, "
           "<b style='color:%5'>%6 skipped</b>, %7 not issued, %8 unused")
            .arg(macStateColor(MacState::Active).name())
            .arg(c.active)
            .arg(macStateColor(MacState::Gated).darker(130).name())
            .arg(c.gated)
            .arg(macStateColor(MacState::Skipped).darker(130).name())
            .arg(c.skipped)
            .arg(c.empty)
            .arg(c.idle));
    m_loops->setText(loopReadout());

    m_updatingControls = true;
    m_stepEdit->setText(QString::number(m_step));
    const std::int64_t last = trace.stepCount() - 1;
    m_slider->setValue(last <= kSliderMax
                           ? static_cast<int>(m_step)
                           : static_cast<int>(std::llround(static_cast<double>(m_step) /
                                                           static_cast<double>(last) * kSliderMax)));
    m_updatingControls = false;
    m_prev->setEnabled(m_step > 0);
    m_next->setEnabled(m_step < last);
}

analysis::MacCounts HardwareBehaviorView::shownCounts() const
{
    return analysis::countMacStates(m_state.macs);
}

MacState HardwareBehaviorView::shownState(std::int64_t mac) const
{
    return mac >= 0 && mac < static_cast<std::int64_t>(m_state.macs.size()) ? m_state.macs[mac]
                                                                            : MacState::Idle;
}

QString HardwareBehaviorView::loopReadout() const
{
    if (!m_trace)
        return {};
    const auto& trace = *m_trace;
    const auto& w = trace.workload();
    const auto& arch = trace.architecture();
    const auto idx = trace.loopIndices(m_step);
    QStringList parts;
    int current = -1;
    QString part;
    for (std::size_t i = 0; i < trace.temporalLoops().size(); ++i) {
        const auto& loop = trace.temporalLoops()[i];
        if (loop.storageLevel != current) {
            if (!part.isEmpty())
                parts << part;
            current = loop.storageLevel;
            part = QString::fromStdString(arch.levels[current].name) + QStringLiteral(": ");
        } else {
            part += QStringLiteral(", ");
        }
        part += QStringLiteral("%1 = %2/%3").arg(loopName(w, loop)).arg(idx[i]).arg(loop.bound);
    }
    if (!part.isEmpty())
        parts << part;
    if (parts.isEmpty())
        parts << tr("no temporal loop (a single step)");
    QStringList spatial;
    for (const auto& loop : trace.spatialLoops())
        spatial << QStringLiteral("%1 [0,%2)").arg(loopName(w, loop)).arg(loop.bound);
    QString text = tr("Loops: ") + parts.join(QStringLiteral("  ·  "));
    if (!spatial.isEmpty())
        text += tr("   |   par-for: ") + spatial.join(QStringLiteral(", "));
    return text;
}

} // namespace sparsemap::ui
