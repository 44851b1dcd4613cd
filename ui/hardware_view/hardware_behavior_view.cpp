#include "hardware_view/hardware_behavior_view.hpp"

#include "common/number_text.hpp"
#include "util/error.hpp"

#include <QComboBox>
#include <QGraphicsLineItem>
#include <QGraphicsPolygonItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace sparsemap::ui {

using analysis::MacState;
using analysis::SpatialCast;

namespace {

constexpr int kSliderMax = 100000;   // the slider is proportional beyond this many steps
constexpr double kAspect = 16.0 / 9; // the picture's width / height where the PE array decides it
constexpr double kMinTextPx = 8;     // Fit zooms no further out than this text height

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

QGraphicsSimpleTextItem* addText(QGraphicsScene* scene, const QString& text, double x, double y,
                                 const QColor& color = Qt::black, bool bold = false)
{
    auto* item = scene->addSimpleText(text);
    QFont f = item->font();
    f.setPointSizeF(9);
    f.setBold(bold);
    item->setFont(f);
    item->setBrush(color);
    item->setPos(x, y);
    return item;
}

} // namespace

HardwareBehaviorView::HardwareBehaviorView(QWidget* parent) : QWidget(parent)
{
    // In the Design view's tabs, the picture takes the view's width (the loop nest folds while it is
    // shown; its loops are read out above the picture).
    setProperty("sparsemapWideDetail", true);
    m_scene = new QGraphicsScene(this);
    m_view = new ZoomableGraphicsView(this);
    m_view->setScene(m_scene);
    m_view->setBackgroundBrush(Qt::white);

    const auto button = [this](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        return b;
    };
    m_prev = button(tr("◀"), tr("Previous time step"));
    m_next = button(tr("▶"), tr("Next time step"));
    m_play = button(tr("Play"), tr("Walk the time steps"));
    m_play->setCheckable(true);
    m_fit = button(
        tr("Fit"),
        tr("Show the whole accelerator, as far as its texts stay readable (the mouse wheel zooms, dragging "
           "pans)"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setMinimumWidth(60); // stays usable in a narrow Design view
    m_stepEdit = new QLineEdit(this);
    m_stepEdit->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{1,18}")), this));
    m_stepEdit->setMaximumWidth(80);
    m_stepEdit->setPlaceholderText(tr("step"));
    m_stepEdit->setToolTip(tr("Temporal iteration to show (0-based); Enter jumps to it"));
    m_stepOf = new QLabel(this);
    m_stepOf->setToolTip(
        tr("A time step is one iteration of the mapping's temporal loops (every level's, outermost to "
           "innermost), not a clock cycle: the picture shows the tiles each level holds and the MACs' "
           "states during it. The cycle given is the step's share of the model's cycles."));
    m_speedBox = new QComboBox(this);
    for (const int speed : playSpeeds())
        m_speedBox->addItem(tr("%1/s").arg(speed), speed);
    m_speedBox->setToolTip(tr("Play's speed: time steps per second"));
    connect(m_speedBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setPlaySpeed(m_speedBox->itemData(index).toInt()); });
    m_loops = new QLabel(this);
    m_loops->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_loops->setWordWrap(true);
    m_counts = new QLabel(this);
    m_counts->setWordWrap(true);

    auto* controls = new QHBoxLayout;
    // (No "Step" caption: the readout below starts with "Step = temporal iteration k of N"; the row
    // stays narrow enough for the Design view of a 1024 px window.)
    controls->addWidget(m_stepEdit);
    controls->addWidget(m_stepOf);
    controls->addWidget(m_prev);
    controls->addWidget(m_next);
    controls->addWidget(m_play);
    controls->addWidget(m_speedBox);
    controls->addWidget(m_slider, 1);
    controls->addWidget(m_fit);

    // One label that wraps between entries, so that a narrow view (a 1024 px window) keeps it whole.
    QStringList entries;
    auto swatch = [&entries](const QColor& c, const QString& text) {
        entries << QStringLiteral(
                       "<span style='background:%1; color:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
                       .arg(c.name(), text.toHtmlEscaped().replace(' ', QStringLiteral("&nbsp;")));
    };
    for (MacState s : {MacState::Active, MacState::Gated, MacState::Skipped, MacState::Empty, MacState::Idle})
        swatch(macStateColor(s), tr("MAC %1").arg(macStateName(s)));
    swatch(castColor(SpatialCast::Broadcast, false), tr("broadcast"));
    swatch(castColor(SpatialCast::Multicast, false), tr("multicast"));
    swatch(castColor(SpatialCast::Unicast, false), tr("unicast"));
    swatch(castColor(SpatialCast::Broadcast, true), tr("reduction"));
    auto* legend = new QLabel(entries.join(QStringLiteral(" &nbsp; ")), this);
    legend->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_loops);
    layout->addWidget(m_counts);
    layout->addWidget(m_view, 1);
    layout->addWidget(legend);

    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_step + 1 >= stepCount())
            setPlaying(false);
        else
            setStep(m_step + m_stride);
    });
    m_speedBox->setCurrentIndex(int(playSpeeds().indexOf(10)));
    setPlaySpeed(10);
    connect(m_prev, &QToolButton::clicked, this, &HardwareBehaviorView::previousStep);
    connect(m_next, &QToolButton::clicked, this, &HardwareBehaviorView::nextStep);
    connect(m_play, &QToolButton::toggled, this, &HardwareBehaviorView::setPlaying);
    connect(m_fit, &QToolButton::clicked, m_view, &ZoomableGraphicsView::fitAll);
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
    m_cycles = 0;
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
        m_cycles = result.valid && std::isfinite(result.cycles) ? result.cycles : 0;
        if (result.valid)
            m_trace->useModelCounts(std::llround(result.compute.actual), std::llround(result.compute.gated),
                                    std::llround(result.compute.skipped));
    } catch (const InputError& e) {
        m_error = QString::fromStdString(e.what());
        showMessage(tr("Cannot draw this design:\n%1").arg(m_error));
        return;
    }
    buildScene(result);
    // Fit never draws a text smaller than kMinTextPx: a small view shows part of the picture, readable.
    double smallestText = 0;
    for (QGraphicsItem* item : m_scene->items())
        if (auto* t = qgraphicsitem_cast<QGraphicsSimpleTextItem*>(item); t && !t->text().isEmpty()) {
            const double px = t->font().pointSizeF() * logicalDpiY() / 72.0 * t->scale();
            smallestText = smallestText > 0 ? std::min(smallestText, px) : px;
        }
    m_view->setMinimumFitZoom(smallestText > 0 ? kMinTextPx / smallestText : 0);
    for (QWidget* w : std::initializer_list<QWidget*>{m_prev, m_next, m_play, m_slider, m_stepEdit})
        w->setEnabled(true);
    const std::int64_t last = m_trace->stepCount() - 1;
    m_updatingControls = true;
    m_slider->setRange(0, static_cast<int>(std::min<std::int64_t>(last, kSliderMax)));
    m_updatingControls = false;
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
    // One line: the column stays short enough for the picture to fit a 1024x700 window.
    return tr("energy %1 pJ · words per instance: reads %2, fills %3, updates %4")
        .arg(number(r.energyPj), number(reads), number(fills), number(updates));
}

QString HardwareBehaviorView::levelTileText(int level, int tensor) const
{
    const auto tile = m_trace->tile(m_step, level, 0, tensor);
    QString text = tile ? QString::fromStdString(m_trace->tileText(tensor, *tile)) : QStringLiteral("-");
    if (!m_trace->design().mapping.keeps(level, tensor))
        text += tr("  (bypassed)");
    return text;
}

void HardwareBehaviorView::buildScene(const model::EvaluationResult& result)
{
    const auto& trace = *m_trace;
    const auto& w = trace.workload();
    const auto& arch = trace.architecture();
    const int levels = arch.levelCount();
    const int peLevel = levels - 1;
    const int tensors = static_cast<int>(w.tensors.size());
    const auto& peSpec = arch.levels[peLevel];
    const auto& macFan = trace.fanouts()[peLevel];

    // Two columns, so that the picture fills a landscape view: on the left the levels top to bottom
    // (DRAM, the buffers, the PE buffers as one box, the MACs), each box with its numbers and the
    // fan-out below it as one arrow per tensor; on the right the PE array on the architecture's mesh.
    // Texts are drawn at scale 1 and the array is fitted to the column's height, so that at Fit on a
    // 1024x700 or larger window (the Design view's tab, the loop nest folded) the texts stay >= 8 px and
    // the whole picture is in view: one line per level's numbers, its tiles side by side, one line of
    // casts per fan-out.
    constexpr double kLine = 15, kPad = 8, kColumnGap = 60;
    double y = 0, textRight = 0;
    const auto text = [&](const QString& s, double x, double ty, const QColor& color = Qt::black,
                          bool bold = false) {
        auto* item = addText(m_scene, s, x, ty, color, bold);
        textRight = std::max(textRight, x + item->boundingRect().width());
        return item;
    };
    const auto lines = [](const QString& s) { return static_cast<double>(s.count('\n') + 1); };
    std::vector<QGraphicsRectItem*> boxes;
    const auto box = [&](double top, double height, const QColor& fill, const QString& tip) {
        auto* item = m_scene->addRect(0, top, 0, height, QPen(QColor(0x40, 0x40, 0x40), 1.2), QBrush(fill));
        item->setZValue(-1);
        item->setToolTip(tip);
        boxes.push_back(item);
    };
    const auto arrow = [this](QPointF from, QPointF to, const QColor& c, double width) {
        const QLineF l(from, to);
        const QPointF unit = (to - from) / std::max(1e-9, l.length()), normal(-unit.y(), unit.x());
        const QPointF base = to - unit * 6 * width;
        m_scene->addLine(QLineF(from, base), QPen(c, width));
        m_scene->addPolygon(QPolygonF{base + normal * 3 * width, base - normal * 3 * width, to}, QPen(c, 0.5),
                            QBrush(c));
    };
    // The fan-out below a level: one arrow per tensor, coloured by how it is sent.
    const auto fanout = [&](const analysis::Fanout& f) {
        // Every tensor's cast on one line (in its colour), the fan-out's use on the next.
        const double height = kLine * 2 + 14;
        const double x0 = 40, xText = x0 + tensors * 14 + 10;
        double x = xText;
        for (int t = 0; t < tensors; ++t) {
            const QColor c = castColor(f.cast[t], w.tensors[t].isOutput);
            arrow({x0 + t * 14, y + 2}, {x0 + t * 14, y + height - 2}, c, 1.5);
            auto* cast =
                text(castText(f, t, w.tensors[t]) + (t + 1 < tensors ? QStringLiteral(";") : QString()), x,
                     y + 4, c);
            x += cast->boundingRect().width() + 8;
        }
        if (f.cast.empty() || f.cast[0] != SpatialCast::None)
            text(tr("fan-out: %1 of %2 children used (%3 x %4)")
                     .arg(f.used)
                     .arg(f.childrenPerParent)
                     .arg(f.usedX)
                     .arg(f.usedY),
                 xText, y + 4 + kLine, QColor(0x40, 0x40, 0x40));
        y += height;
    };

    m_levelTiles.assign(static_cast<std::size_t>(levels), {});
    for (int s = 0; s < peLevel; ++s) {
        const auto& spec = arch.levels[s];
        QString title = QString::fromStdString(spec.name);
        if (spec.instances > 1)
            title += tr("  ×%1 (used %2)").arg(spec.instances).arg(trace.usedInstances(s));
        const QString summary = levelSummary(s, result);
        const double top = y;
        text(title, kPad, y + 4, Qt::black, true);
        y += 4 + kLine;
        if (!summary.isEmpty()) {
            text(summary, kPad, y, QColor(0x40, 0x40, 0x40));
            y += kLine * lines(summary);
        }
        // The tiles side by side on one line; later steps' tiles may have longer coordinates: each
        // gets room for that.
        double x = 2 * kPad;
        for (int t = 0; t < tensors; ++t) {
            auto* tile = text(levelTileText(s, t), x, y,
                              trace.design().mapping.keeps(s, t) ? Qt::black : QColor(0xa0, 0xa0, 0xa0));
            m_levelTiles[s].push_back(tile);
            x += 1.3 * tile->boundingRect().width() + 10;
            textRight = std::max(textRight, x);
        }
        y += kLine + 6;
        box(top, y - top, s == 0 ? QColor(0xfd, 0xf3, 0xe1) : QColor(0xe8, 0xf4, 0xea),
            QString::fromStdString(spec.name));
        fanout(trace.fanouts()[s]);
    }
    // The PE buffers as one box (their tiles differ by PE: hover one in the array), then the MACs.
    const double peTop = y;
    {
        const QString summary = levelSummary(peLevel, result);
        auto* title = text(tr("%1  ×%2 (used %3)")
                               .arg(QString::fromStdString(peSpec.name))
                               .arg(peSpec.instances)
                               .arg(trace.usedInstances(peLevel)),
                           kPad, y + 4, Qt::black, true);
        // Its MACs on the title's line.
        text(tr("· %1 MACs each, %2 used (%3 x %4)")
                 .arg(macFan.childrenPerParent)
                 .arg(macFan.used)
                 .arg(macFan.usedX)
                 .arg(macFan.usedY),
             kPad + title->boundingRect().width() + 8, y + 4, QColor(0x40, 0x40, 0x40));
        y += 4 + kLine;
        if (!summary.isEmpty()) {
            text(summary, kPad, y, QColor(0x40, 0x40, 0x40));
            y += kLine * lines(summary);
        }
        y += 6;
        box(peTop, y - peTop, QColor(0xdb, 0xe9, 0xfb), QString::fromStdString(peSpec.name));
    }
    const double peBottom = y;
    fanout(macFan);
    {
        const double top = y;
        const auto& c = result.compute;
        text(tr("%1  ×%2").arg(QString::fromStdString(arch.compute.name)).arg(arch.compute.instances), kPad,
             y + 4, Qt::black, true);
        y += 4 + kLine;
        if (result.valid) {
            const QString totals =
                tr("whole run (model): MAC energy %1 pJ · computes actual %2, gated %3, "
                   "skipped %4")
                    .arg(number(c.energyPj), number(c.actual), number(c.gated), number(c.skipped));
            text(totals, kPad, y, QColor(0x40, 0x40, 0x40));
            y += kLine * lines(totals);
        }
        y += 6;
        box(top, y - top, QColor(0xf4, 0xf4, 0xf4), QString::fromStdString(arch.compute.name));
    }
    const double columnW = textRight + kPad;
    for (QGraphicsRectItem* b : boxes)
        b->setRect(QRectF(b->rect().x(), b->rect().y(), columnW, b->rect().height()));
    const double columnH = y;

    // The PE array: a header line, then the grid in the area right of the column (its height, and a
    // width that makes the whole picture ~16:9). A large array collapses to a grid of small PEs (a bar
    // of MAC states each when single MACs get too small); hover a PE for its tiles and MACs.
    const std::int64_t cols = trace.gridColumns(peLevel), rows = trace.gridRows(peLevel);
    const int macCols = static_cast<int>(macFan.gridWidth);
    const int macRows =
        static_cast<int>((macFan.childrenPerParent + macFan.gridWidth - 1) / macFan.gridWidth);
    const double arrayX = columnW + kColumnGap;
    const double arrayTop = kLine + 8;
    const double areaH = std::max(columnH - arrayTop, 300.0);
    const double areaW = std::max(kAspect * (arrayTop + areaH) - arrayX, 360.0);
    bool showLabels = cols * rows <= 64;
    double macSize = 12, bufferH = 0, peW = 0, peH = 0, gap = 0, gridW = 0, gridH = 0;
    const auto layoutArray = [&](double s) { // s scales the whole PE drawing (1 = MACs of 12 units)
        macSize = 12 * s;
        bufferH = showLabels ? 8 + kLine * tensors : 8 * s;
        peW = std::max(macCols * macSize + 10 * s, showLabels ? 150.0 : 0.0);
        peH = bufferH + macRows * macSize + 8 * s;
        gap = 8 * s;
        gridW = static_cast<double>(cols) * (peW + gap) - gap;
        gridH = static_cast<double>(rows) * (peH + gap) - gap;
    };
    layoutArray(1);
    if (showLabels && (gridW > areaW || gridH > areaH)) {
        showLabels = false; // tile labels do not fit: hover a PE for them
        layoutArray(1);
    }
    if (!showLabels) // fill the area, up to MACs of 3 x 12 units (linear in s)
        layoutArray(std::min({areaW / gridW, areaH / gridH, 3.0}));
    text(tr("%1 array: %2 x %3 (%4 of %5 used)")
             .arg(QString::fromStdString(peSpec.name))
             .arg(cols)
             .arg(rows)
             .arg(trace.usedInstances(peLevel))
             .arg(peSpec.instances),
         arrayX, 0, Qt::black, true);
    arrow({columnW, (peTop + peBottom) / 2},
          {arrayX - 6, std::min((peTop + peBottom) / 2, arrayTop + gridH / 2)}, QColor(0x2b, 0x6c, 0xb0),
          1.5);

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
        item->setPos(arrayX + static_cast<double>(pos.column) * (peW + gap),
                     arrayTop + static_cast<double>(pos.row) * (peH + gap));
        if (!used)
            item->setToolTip(
                tr("%1 %2: not used by this mapping").arg(QString::fromStdString(peSpec.name)).arg(pe));
        m_scene->addItem(item);
        if (used)
            m_peItems.push_back(item);
    }
    m_scene->setSceneRect(m_scene->itemsBoundingRect().adjusted(-8, -8, 8, 8));
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
        for (int t = 0; t < tensors && t < static_cast<int>(m_levelTiles[s].size()); ++t)
            m_levelTiles[s][t]->setText(levelTileText(s, t));
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
    // What a step is, on the readout's line (it wraps; the control row stays narrow).
    m_loops->setText(stepText() + QStringLiteral("  ·  ") + loopReadout());

    m_stepOf->setText(tr("of %1").arg(trace.stepCount()));
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

std::int64_t HardwareBehaviorView::approximateCycle() const
{
    if (!m_trace || !(m_cycles > 0))
        return -1;
    return static_cast<std::int64_t>(
        std::floor(static_cast<double>(m_step) * m_cycles / static_cast<double>(m_trace->stepCount())));
}

QString HardwareBehaviorView::stepText() const
{
    if (!m_trace)
        return {};
    QString text = tr("Step = temporal iteration %1 of %2").arg(m_step).arg(m_trace->stepCount());
    if (const std::int64_t cycle = approximateCycle(); cycle >= 0)
        text += tr(" ≈ cycle %1 of %2").arg(cycle).arg(countText(m_cycles));
    return text;
}

void HardwareBehaviorView::setPlaySpeed(int stepsPerSecond)
{
    // A timer of at least 30 ms (a repaint per tick), several steps a tick beyond ~33 steps/s.
    m_speed = std::clamp(stepsPerSecond, 1, 1'000'000);
    const int interval = std::max(30, 1000 / m_speed);
    m_stride = std::max(1, static_cast<int>(std::lround(m_speed * interval / 1000.0)));
    m_timer.setInterval(interval);
    const int index = m_speedBox->findData(m_speed);
    if (index >= 0 && index != m_speedBox->currentIndex()) {
        const QSignalBlocker block(m_speedBox);
        m_speedBox->setCurrentIndex(index);
    }
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
