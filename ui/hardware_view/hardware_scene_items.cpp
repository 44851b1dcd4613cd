#include "hardware_view/hardware_scene_items.hpp"

#include <QPainter>
#include <QScrollBar>
#include <QStyleOptionGraphicsItem>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>

namespace sparsemap::ui {

using analysis::MacState;

QColor macStateColor(MacState state)
{
    switch (state) {
    case MacState::Active:
        return QColor(0x2e, 0x9e, 0x44); // green
    case MacState::Gated:
        return QColor(0xf0, 0xa0, 0x20); // amber
    case MacState::Skipped:
        return QColor(0x8c, 0x8c, 0x8c); // grey
    case MacState::Empty:
        return QColor(0xd8, 0xd8, 0xd8); // light grey: no compute exists
    case MacState::Idle:
        break;
    }
    return QColor(0xf7, 0xf7, 0xf7); // unused by the mapping
}

QString macStateName(MacState state)
{
    switch (state) {
    case MacState::Active:
        return QStringLiteral("active");
    case MacState::Gated:
        return QStringLiteral("gated");
    case MacState::Skipped:
        return QStringLiteral("skipped");
    case MacState::Empty:
        return QStringLiteral("not issued");
    case MacState::Idle:
        break;
    }
    return QStringLiteral("unused");
}

PeItem::PeItem(const PeArrayState* state, std::int64_t pe, bool used, std::vector<std::int64_t> macs,
               int macColumns, QSizeF size, double macSize, double bufferHeight, bool showLabels)
    : m_state(state), m_pe(pe), m_used(used), m_macs(std::move(macs)), m_macColumns(std::max(1, macColumns)),
      m_size(size), m_macSize(macSize), m_bufferHeight(bufferHeight), m_showLabels(showLabels)
{
    setData(0, QStringLiteral("pe"));
    setData(1, used);
    setAcceptHoverEvents(false);
}

QRectF PeItem::boundingRect() const
{
    return QRectF(QPointF(0, 0), m_size).adjusted(-1, -1, 1, 1);
}

QRectF PeItem::macRect(int i) const
{
    const int rows = (static_cast<int>(m_macs.size()) + m_macColumns - 1) / m_macColumns;
    const double gridW = m_macColumns * m_macSize, gridH = rows * m_macSize;
    const double x0 = (m_size.width() - gridW) / 2;
    const double y0 = m_bufferHeight + (m_size.height() - m_bufferHeight - gridH) / 2;
    return QRectF(x0 + (i % m_macColumns) * m_macSize, y0 + (i / m_macColumns) * m_macSize, m_macSize,
                  m_macSize);
}

void PeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const QRectF body(QPointF(0, 0), m_size);
    // Outlines thin with the PE (a collapsed array draws PEs of a few units).
    const double pen = std::min(1.0, m_size.width() / 40.0);
    painter->setPen(
        QPen(m_used ? QColor(0x2b, 0x6c, 0xb0) : QColor(0xc8, 0xc8, 0xc8), (m_used ? 1.5 : 1.0) * pen));
    painter->setBrush(m_used ? QColor(0xdb, 0xe9, 0xfb) : QColor(0xee, 0xee, 0xee));
    painter->drawRect(body);
    // The PE buffer strip.
    const double inset = std::min(3.0, m_bufferHeight / 4);
    const QRectF buffer(inset, inset, m_size.width() - 2 * inset, m_bufferHeight - 4 * inset / 3);
    painter->setPen(QPen(QColor(0x90, 0x90, 0x90), 0.5 * pen));
    painter->setBrush(m_used ? QColor(0xff, 0xff, 0xff) : QColor(0xf6, 0xf6, 0xf6));
    painter->drawRect(buffer);
    if (m_showLabels && m_used && lod * 9 >= 5 &&
        m_pe < static_cast<std::int64_t>(m_state->tileLabels.size())) {
        QFont f = painter->font();
        f.setPointSizeF(9); // as the texts beside the array
        painter->setFont(f);
        painter->setPen(Qt::black);
        painter->drawText(buffer.adjusted(2, 1, -2, -1), Qt::AlignLeft | Qt::AlignTop,
                          m_state->tileLabels[m_pe].join('\n'));
    }
    if (m_macs.empty())
        return;
    if (m_macSize * lod >= 2.0) {
        painter->setPen(QPen(QColor(0x60, 0x60, 0x60), 0.3));
        for (std::size_t i = 0; i < m_macs.size(); ++i) {
            const auto mac = m_macs[i];
            const MacState s =
                mac < static_cast<std::int64_t>(m_state->macs.size()) ? m_state->macs[mac] : MacState::Idle;
            painter->setBrush(macStateColor(s));
            painter->drawRect(macRect(static_cast<int>(i)).adjusted(0.6, 0.6, -0.6, -0.6));
        }
        return;
    }
    // Too small to see single MACs: one bar split by the share of each state among the used MACs (the
    // unused ones would wash the colours out).
    std::array<int, 5> count{};
    int used = 0;
    for (auto mac : m_macs)
        if (mac < static_cast<std::int64_t>(m_state->macs.size()) && m_state->macs[mac] != MacState::Idle) {
            ++count[static_cast<int>(m_state->macs[mac])];
            ++used;
        }
    if (used == 0)
        return;
    const QRectF area = macRect(0).united(macRect(static_cast<int>(m_macs.size()) - 1));
    double x = area.left();
    painter->setPen(Qt::NoPen);
    for (MacState s : {MacState::Active, MacState::Gated, MacState::Skipped, MacState::Empty}) {
        const double w = area.width() * count[static_cast<int>(s)] / static_cast<double>(used);
        if (w <= 0)
            continue;
        painter->setBrush(macStateColor(s));
        painter->drawRect(QRectF(x, area.top(), w, area.height()));
        x += w;
    }
}

ZoomableGraphicsView::ZoomableGraphicsView(QWidget* parent) : QGraphicsView(parent)
{
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setRenderHint(QPainter::Antialiasing, false);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
}

void ZoomableGraphicsView::fitAll()
{
    m_autoFit = true;
    fitScene();
}

void ZoomableGraphicsView::fitScene()
{
    if (!scene())
        return;
    fitInView(scene()->itemsBoundingRect().adjusted(-10, -10, 10, 10), Qt::KeepAspectRatio);
    if (transform().m11() < m_minimumFitZoom) {
        setTransform(QTransform::fromScale(m_minimumFitZoom, m_minimumFitZoom));
        horizontalScrollBar()->setValue(horizontalScrollBar()->minimum());
        verticalScrollBar()->setValue(verticalScrollBar()->minimum());
    }
}

void ZoomableGraphicsView::wheelEvent(QWheelEvent* event)
{
    const double factor = std::pow(1.0015, event->angleDelta().y());
    const double current = transform().m11();
    // Keep the zoom within sensible limits: from the whole array to a few MACs.
    if ((current * factor < 0.02 && factor < 1) || (current * factor > 40 && factor > 1))
        return;
    m_autoFit = false;
    scale(factor, factor);
    event->accept();
}

void ZoomableGraphicsView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (m_autoFit)
        fitScene();
}

} // namespace sparsemap::ui
