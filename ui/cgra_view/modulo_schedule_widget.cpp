#include "modulo_schedule_widget.hpp"

#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace sparsemap::ui {

namespace {

constexpr int kCellW = 62;
constexpr int kCellH = 40;
constexpr int kLeft = 56; // slot labels
constexpr int kTop = 44;  // two header lines
constexpr int kGap = 10;  // between the bus groups and the PEs
constexpr int kLegendH = 34;

QColor fillOf(const cgra::SdfgNode& n)
{
    switch (n.kind) {
    case cgra::NodeKind::Read:
        return n.multicastOf >= 0 ? QColor(0xc9, 0xb3, 0xf0) : QColor(0xa6, 0xdc, 0xef);
    case cgra::NodeKind::Mul:
        return QColor(0x9e, 0xc5, 0xfe);
    case cgra::NodeKind::Add:
        return QColor(0xb5, 0xe6, 0xb0);
    case cgra::NodeKind::Cop:
        return QColor(0xff, 0xc0, 0x7a);
    case cgra::NodeKind::Write:
        return QColor(0xdd, 0xdd, 0xdd);
    }
    return Qt::white;
}

} // namespace

ModuloScheduleWidget::ModuloScheduleWidget(QWidget* parent) : QWidget(parent)
{
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void ModuloScheduleWidget::setMapping(const cgra::Schedule& schedule, const cgra::BindingResult& binding,
                                      const cgra::CgraSpec& cgra)
{
    m_schedule = schedule;
    m_binding = binding;
    m_cgra = cgra;
    m_has = true;
    layoutCells();
    updateGeometry();
    resize(sizeHint()); // inside a non-resizing scroll area the widget keeps whatever size it is given
    update();
}

void ModuloScheduleWidget::clear()
{
    m_has = false;
    m_cell.clear();
    updateGeometry();
    resize(sizeHint());
    update();
}

int ModuloScheduleWidget::columnCount() const
{
    return m_cgra.inputBuses() + m_cgra.peCount() + m_cgra.outputBuses();
}

QRect ModuloScheduleWidget::cellRect(int column, int slot) const
{
    int x = kLeft + column * kCellW;
    if (column >= m_cgra.inputBuses())
        x += kGap;
    if (column >= m_cgra.inputBuses() + m_cgra.peCount())
        x += kGap;
    return QRect(x, kTop + slot * kCellH, kCellW, kCellH);
}

QPoint ModuloScheduleWidget::cellOf(int node) const
{
    if (!m_has || node < 0 || node >= int(m_cell.size()))
        return {-1, -1};
    return m_cell[std::size_t(node)];
}

QSize ModuloScheduleWidget::sizeHint() const
{
    if (!m_has)
        return {480, 160};
    const QRect last = cellRect(columnCount() - 1, m_schedule.ii - 1);
    return {last.right() + 16, last.bottom() + kLegendH + 16};
}

void ModuloScheduleWidget::layoutCells()
{
    const auto& g = m_schedule.graph;
    const int columns = columnCount();
    m_cell.assign(g.nodes.size(), QPoint(-1, -1));
    m_unbound.assign(g.nodes.size(), false);
    std::vector<std::vector<bool>> taken(std::size_t(m_schedule.ii),
                                         std::vector<bool>(std::size_t(columns), false));
    const auto columnFor = [&](cgra::NodeKind kind, int resource) {
        if (kind == cgra::NodeKind::Read)
            return resource;
        if (kind == cgra::NodeKind::Write)
            return m_cgra.inputBuses() + m_cgra.peCount() + resource;
        return m_cgra.inputBuses() + resource;
    };
    const bool haveBinding = m_binding.resource.size() == g.nodes.size();
    for (std::size_t v = 0; v < g.nodes.size(); ++v) {
        const int resource = haveBinding ? m_binding.resource[v] : -1;
        if (resource < 0)
            continue;
        const int column = columnFor(g.nodes[v].kind, resource);
        const int slot = m_schedule.modulo(int(v));
        m_cell[v] = {column, slot};
        taken[std::size_t(slot)][std::size_t(column)] = true;
    }
    // Unbound nodes: the first free cell of their kind in their slot, drawn dashed.
    for (std::size_t v = 0; v < g.nodes.size(); ++v) {
        if (m_cell[v].x() >= 0)
            continue;
        const auto kind = g.nodes[v].kind;
        const int count = kind == cgra::NodeKind::Read    ? m_cgra.inputBuses()
                          : kind == cgra::NodeKind::Write ? m_cgra.outputBuses()
                                                          : m_cgra.peCount();
        const int slot = m_schedule.modulo(int(v));
        for (int r = 0; r < count; ++r) {
            const int column = columnFor(kind, r);
            if (!taken[std::size_t(slot)][std::size_t(column)]) {
                taken[std::size_t(slot)][std::size_t(column)] = true;
                m_cell[v] = {column, slot};
                m_unbound[v] = true;
                break;
            }
        }
    }
}

void ModuloScheduleWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    if (!m_has) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Map a block and select a row to see its modulo schedule"));
        return;
    }
    QFont small = font();
    small.setPointSizeF(std::max(7.0, font().pointSizeF() - 1.5));
    QFont bold = font();
    bold.setBold(true);

    // Headers.
    p.setPen(pal.color(QPalette::Text));
    p.setFont(bold);
    const auto groupHeader = [&](int first, int count, const QString& text) {
        const QRect a = cellRect(first, 0), b = cellRect(first + count - 1, 0);
        p.drawText(QRect(a.left(), 2, b.right() - a.left(), 20), Qt::AlignCenter, text);
    };
    groupHeader(0, m_cgra.inputBuses(), tr("input buses"));
    groupHeader(m_cgra.inputBuses(), m_cgra.peCount(), tr("PEs (row, column)"));
    groupHeader(m_cgra.inputBuses() + m_cgra.peCount(), m_cgra.outputBuses(), tr("output buses"));
    p.setFont(small);
    for (int c = 0; c < columnCount(); ++c) {
        QString text;
        if (c < m_cgra.inputBuses())
            text = QString("in %1").arg(c);
        else if (c < m_cgra.inputBuses() + m_cgra.peCount()) {
            const int pe = c - m_cgra.inputBuses();
            text = QString("%1,%2").arg(pe / m_cgra.cols).arg(pe % m_cgra.cols);
        } else
            text = QString("out %1").arg(c - m_cgra.inputBuses() - m_cgra.peCount());
        const QRect r = cellRect(c, 0);
        p.drawText(QRect(r.left(), 22, r.width(), 20), Qt::AlignCenter, text);
    }
    for (int m = 0; m < m_schedule.ii; ++m) {
        const QRect r = cellRect(0, m);
        p.drawText(QRect(4, r.top(), kLeft - 8, r.height()), Qt::AlignRight | Qt::AlignVCenter,
                   QString("slot %1").arg(m));
    }
    // Empty grid.
    p.setPen(QPen(pal.color(QPalette::Mid), 1));
    for (int m = 0; m < m_schedule.ii; ++m)
        for (int c = 0; c < columnCount(); ++c)
            p.drawRect(cellRect(c, m).adjusted(1, 1, -1, -1));

    // MCID endpoints get a red outline.
    std::vector<bool> inMcid(m_schedule.graph.nodes.size(), false);
    const auto mcids = m_schedule.mcidEdges();
    for (int e : mcids) {
        inMcid[std::size_t(m_schedule.graph.edges[std::size_t(e)].from)] = true;
        inMcid[std::size_t(m_schedule.graph.edges[std::size_t(e)].to)] = true;
    }
    const QColor red(0xc6, 0x28, 0x28);
    for (std::size_t v = 0; v < m_schedule.graph.nodes.size(); ++v) {
        const QPoint cell = m_cell[v];
        if (cell.x() < 0)
            continue;
        const QRect r = cellRect(cell.x(), cell.y()).adjusted(2, 2, -2, -2);
        p.setBrush(fillOf(m_schedule.graph.nodes[v]));
        QPen pen(inMcid[v] ? red : QColor(0x55, 0x55, 0x55), inMcid[v] ? 2.0 : 1.0);
        if (m_unbound[v])
            pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.drawRoundedRect(r, 4, 4);
        p.setPen(QColor(0x10, 0x10, 0x10));
        p.setFont(font());
        p.drawText(r.adjusted(0, 1, 0, -r.height() / 2 + 2), Qt::AlignCenter,
                   QString::fromStdString(m_schedule.graph.label(int(v))));
        p.setFont(small);
        p.drawText(r.adjusted(0, r.height() / 2, 0, -1), Qt::AlignCenter,
                   QString("t=%1").arg(m_schedule.time[v]));
    }
    // MCID arrows.
    p.setFont(small);
    for (int e : mcids) {
        const auto& edge = m_schedule.graph.edges[std::size_t(e)];
        const QPoint a = m_cell[std::size_t(edge.from)], b = m_cell[std::size_t(edge.to)];
        if (a.x() < 0 || b.x() < 0)
            continue;
        const QPointF from = cellRect(a.x(), a.y()).center(), to = cellRect(b.x(), b.y()).center();
        QPainterPath path(from);
        const QPointF mid = (from + to) / 2 + QPointF(0, -kCellH * 0.35);
        path.quadTo(mid, to);
        // Translucent, so that the labels of the cells underneath stay readable.
        QColor line = red;
        line.setAlpha(170);
        p.setPen(QPen(line, 1.6));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        const double angle = std::atan2(to.y() - mid.y(), to.x() - mid.x());
        const QPointF tip = to - QPointF(std::cos(angle), std::sin(angle)) * 8;
        QPolygonF head;
        head << to << tip + QPointF(std::sin(angle), -std::cos(angle)) * 4
             << tip - QPointF(std::sin(angle), -std::cos(angle)) * 4;
        p.setBrush(red);
        p.drawPolygon(head);
        const int distance = m_schedule.time[std::size_t(edge.to)] - m_schedule.time[std::size_t(edge.from)];
        const QRectF tag(mid.x() - 11, mid.y() - 7, 22, 14);
        p.setPen(QPen(red, 1));
        p.setBrush(QColor(255, 255, 255, 230));
        p.drawRoundedRect(tag, 4, 4);
        p.drawText(tag, Qt::AlignCenter, QString("d%1").arg(distance));
    }
    // Legend.
    const int y = cellRect(0, m_schedule.ii - 1).bottom() + 12;
    int x = kLeft;
    const std::pair<QString, cgra::SdfgNode> items[] = {
        {tr("input reading"), {cgra::NodeKind::Read, 0, -1, -1}},
        {tr("multicast copy (Mul-CI)"), {cgra::NodeKind::Read, 0, -1, 0}},
        {tr("multiplication"), {cgra::NodeKind::Mul, 0, 0, -1}},
        {tr("addition"), {cgra::NodeKind::Add, -1, 0, -1}},
        {tr("COP"), {cgra::NodeKind::Cop, 0, -1, -1}},
        {tr("output writing"), {cgra::NodeKind::Write, -1, 0, -1}},
    };
    p.setFont(font());
    const QFontMetrics fm(font());
    for (const auto& [text, node] : items) {
        p.setPen(QColor(0x55, 0x55, 0x55));
        p.setBrush(fillOf(node));
        p.drawRoundedRect(QRect(x, y, 16, 14), 3, 3);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QPoint(x + 20, y + 12), text);
        x += 20 + fm.horizontalAdvance(text) + 18;
    }
    p.setPen(QPen(red, 2));
    p.drawLine(x, y + 7, x + 22, y + 7);
    p.setPen(pal.color(QPalette::Text));
    const QString mcidText = tr("MCID (d = distance in cycles); dashed = not bound");
    p.drawText(QPoint(x + 28, y + 12), mcidText);
}

} // namespace sparsemap::ui
