#include "hierarchy_diagram.hpp"

#include "editor_support.hpp"
#include "io/units.hpp"

#include <QPainter>
#include <QPainterPath>

namespace sparsemap::ui {

HierarchyDiagram::HierarchyDiagram(ArchitectureDocument* doc, QWidget* parent) : QWidget(parent), m_doc(doc)
{
    connect(doc, &ArchitectureDocument::changed, this, qOverload<>(&QWidget::update));
    setMinimumHeight(minimumSizeHint().height());
}

QStringList HierarchyDiagram::boxLabels() const
{
    const Architecture& arch = m_doc->architecture();
    QStringList labels;
    for (int i = 0; i < arch.levelCount(); ++i) {
        const StorageLevel& level = arch.levels[i];
        // The fan-out into this level is what the paper's figure shows as "x N".
        const std::int64_t parents = i > 0 ? std::max<std::int64_t>(arch.levels[i - 1].instances, 1) : 1;
        const std::int64_t fanIn = level.instances / parents;
        QString label = QString::fromStdString(level.name);
        if (fanIn > 1)
            label += QStringLiteral(" x %1").arg(fanIn);
        label += "\n" + QString::fromStdString(detail::formatCapacity(level.capacityBits));
        // A separate metadata store changes what fits, so the architect sees it next to the data.
        if (level.metadataCapacityBits > 0)
            label += tr(" + %1 metadata")
                         .arg(QString::fromStdString(detail::formatCapacity(level.metadataCapacityBits)));
        // The grid bounds how a mapping may split its spatial loops between X and Y.
        if (level.instances > 1)
            label += tr("\n%1 grid").arg(gridText(level.instances, level.meshX));
        labels << label;
    }
    const std::int64_t perLast =
        arch.levels.empty() ? 1 : std::max<std::int64_t>(arch.levels.back().instances, 1);
    labels << tr("%1 x %2\n%3 grid\n%4 GHz")
                  .arg(QString::fromStdString(arch.compute.name))
                  .arg(arch.compute.instances / perLast)
                  .arg(gridText(arch.compute.instances, arch.compute.meshX))
                  .arg(arch.clockGHz);
    return labels;
}

void HierarchyDiagram::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QStringList labels = boxLabels();
    const int n = static_cast<int>(labels.size());
    const qreal gap = 24;
    const qreal boxWidth = std::max<qreal>(40, (width() - 8 - gap * (n - 1)) / n);
    // Room for the three lines of the tallest label.
    const qreal boxHeight = std::min<qreal>(height() - 8, 3 * fontMetrics().lineSpacing() + 12);
    const qreal top = (height() - boxHeight) / 2;
    const QColor storage = palette().color(QPalette::AlternateBase);
    const QColor compute = palette().color(QPalette::Highlight).lighter(170);
    for (int i = 0; i < n; ++i) {
        const QRectF box(4 + i * (boxWidth + gap), top, boxWidth, boxHeight);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.setBrush(i + 1 == n ? compute : storage);
        painter.drawRoundedRect(box, 6, 6);
        painter.drawText(box.adjusted(2, 2, -2, -2), Qt::AlignCenter | Qt::TextWordWrap, labels[i]);
        if (i + 1 < n) {
            // An arrow from this box to the next: data flows inward.
            const QPointF from(box.right() + 3, box.center().y());
            const QPointF to(box.right() + gap - 3, box.center().y());
            painter.drawLine(from, to);
            QPainterPath head;
            head.moveTo(to);
            head.lineTo(to + QPointF(-6, -4));
            head.lineTo(to + QPointF(-6, 4));
            head.closeSubpath();
            painter.fillPath(head, palette().color(QPalette::WindowText));
        }
    }
}

} // namespace sparsemap::ui
