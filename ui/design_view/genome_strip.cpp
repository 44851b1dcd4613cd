#include "design_view/genome_strip.hpp"

#include "design_view/design_palette.hpp"
#include "design_view/gene_meaning.hpp"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace sparsemap::ui::design {

namespace {
constexpr int kMargin = 4;
constexpr int kSegmentGap = 4; // pixels between segments, so that boundaries show without colour
constexpr double kMinCellWidth = 18;
constexpr double kMaxCellWidth = 46;
} // namespace

GenomeStrip::GenomeStrip(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void GenomeStrip::setGenome(std::shared_ptr<const GenomeLayout> layout, Genome genome)
{
    m_layout = std::move(layout);
    m_genome = std::move(genome);
    m_selected = -1;
    updateGeometry();
    update();
}

void GenomeStrip::clear()
{
    setGenome(nullptr, {});
}

int GenomeStrip::captionHeight() const
{
    return fontMetrics().height() + 4;
}

int GenomeStrip::cellHeight() const
{
    // The value and, beneath it in a smaller font, the gene's short name.
    return 2 * fontMetrics().height() + 8;
}

double GenomeStrip::cellWidth() const
{
    const int n = cellCount();
    if (n == 0)
        return kMinCellWidth;
    const double free = width() - 2 * kMargin - gapCount() * kSegmentGap;
    return std::clamp(free / n, kMinCellWidth, kMaxCellWidth);
}

int GenomeStrip::segmentOf(int gene) const
{
    return m_layout->partOf(gene);
}

int GenomeStrip::gapCount() const
{
    // Between the parts: perm, tiling, one format segment per tensor, S/G; without a genome, the 5 of
    // a two-input workload.
    return m_layout ? int(m_layout->parts().size()) - 1 : 5;
}

QRect GenomeStrip::cellRect(int gene) const
{
    if (!m_layout || gene < 0 || gene >= cellCount())
        return {};
    const double w = cellWidth();
    const double x = kMargin + gene * w + segmentOf(gene) * kSegmentGap;
    const int left = int(std::lround(x)), right = int(std::lround(x + w));
    return QRect(left, captionHeight(), right - left, cellHeight());
}

int GenomeStrip::geneAt(const QPoint& pos) const
{
    for (int g = 0; g < cellCount(); ++g)
        if (cellRect(g).contains(pos))
            return g;
    return -1;
}

QString GenomeStrip::toolTipFor(int gene) const
{
    if (!m_layout || gene < 0 || gene >= cellCount())
        return {};
    return geneToolTip(*m_layout, gene, m_genome[std::size_t(gene)]);
}

void GenomeStrip::setSelectedGene(int gene)
{
    if (gene < -1 || gene >= cellCount() || gene == m_selected)
        return;
    m_selected = gene;
    update();
    emit geneSelected(gene);
}

QSize GenomeStrip::minimumSizeHint() const
{
    const int n = std::max(cellCount(), 1);
    return QSize(int(2 * kMargin + gapCount() * kSegmentGap + n * kMinCellWidth) + 1,
                 captionHeight() + cellHeight() + 2 * kMargin);
}

QSize GenomeStrip::sizeHint() const
{
    const int n = std::max(cellCount(), 1);
    return QSize(int(2 * kMargin + gapCount() * kSegmentGap + n * 30.0) + 1, minimumSizeHint().height());
}

bool GenomeStrip::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int gene = geneAt(help->pos());
        if (gene >= 0)
            QToolTip::showText(help->globalPos(), toolTipFor(gene), this, cellRect(gene));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void GenomeStrip::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (!m_layout || m_genome.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, "no genome");
        return;
    }
    const QFontMetrics fm = fontMetrics();
    QFont small = font();
    small.setPointSizeF(std::max(6.0, font().pointSizeF() * 0.8));
    const QFontMetrics smallFm(small);

    // Segment captions, elided to the segment's width, over a bracket line.
    for (const auto& part : m_layout->parts()) {
        const auto range = part.range;
        if (range.size() == 0)
            continue;
        const QRect first = cellRect(range.begin), last = cellRect(range.end - 1);
        const QRect span(first.left(), 0, last.right() - first.left() + 1, captionHeight() - 2);
        painter.setPen(palette().color(QPalette::Text));
        const QString caption = fm.elidedText(segmentCaption(*m_layout, part.segment, part.formatSlot),
                                              Qt::ElideRight, span.width());
        painter.drawText(span, Qt::AlignHCenter | Qt::AlignBottom, caption);
        painter.setPen(QPen(segmentColor(*m_layout, part.segment, part.formatSlot).darker(160), 2));
        painter.drawLine(span.left() + 1, span.bottom() + 1, span.right() - 1, span.bottom() + 1);
    }

    for (int g = 0; g < cellCount(); ++g) {
        const QRect cell = cellRect(g).adjusted(0, 0, -1, -1);
        const GeneInfo& info = m_layout->gene(g);
        painter.fillRect(cell, segmentColor(*m_layout, info.segment, info.formatSlot));
        painter.setPen(QPen(palette().color(QPalette::Mid), 1));
        painter.drawRect(cell);
        painter.setPen(Qt::black); // the fills are light whatever the theme
        const QString value = QString::number(m_genome[std::size_t(g)]);
        const QRect valueRect(cell.left() + 1, cell.top() + 2, cell.width() - 2, fm.height() + 2);
        if (fm.horizontalAdvance(value) <= valueRect.width()) {
            painter.setFont(font());
            painter.drawText(valueRect, Qt::AlignCenter, value);
        } else if (smallFm.horizontalAdvance(value) <= valueRect.width()) {
            painter.setFont(small);
            painter.drawText(valueRect, Qt::AlignCenter, value);
        } else {
            painter.setFont(small);
            painter.drawText(valueRect, Qt::AlignCenter, "…");
        }
        // The short name beneath, when it fits whole: an elided name would mislead.
        painter.setFont(small);
        // S/G genes: the caption already says S/G, the site is what tells them apart.
        QString name = QString::fromStdString(info.name);
        if (info.segment == GeneSegment::SkipGate && name.startsWith("S/G "))
            name = name.mid(4);
        const QRect nameRect(cell.left() + 1, valueRect.bottom() + 1, cell.width() - 2,
                             cell.bottom() - valueRect.bottom() - 2);
        if (smallFm.horizontalAdvance(name) <= nameRect.width()) {
            painter.setPen(QColor(0x30, 0x30, 0x30));
            painter.drawText(nameRect, Qt::AlignCenter, name);
        }
        painter.setFont(font());
    }
    if (m_selected >= 0) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 3));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(cellRect(m_selected).adjusted(1, 1, -2, -2));
    }
}

void GenomeStrip::mousePressEvent(QMouseEvent* event)
{
    const int gene = geneAt(event->position().toPoint());
    if (gene >= 0 && event->button() == Qt::LeftButton) {
        setFocus(Qt::MouseFocusReason);
        setSelectedGene(gene);
        return;
    }
    QWidget::mousePressEvent(event);
}

void GenomeStrip::keyPressEvent(QKeyEvent* event)
{
    // Arrow keys walk the genome, so that the strip is usable without a mouse.
    if (cellCount() > 0 && (event->key() == Qt::Key_Left || event->key() == Qt::Key_Right)) {
        const int step = event->key() == Qt::Key_Left ? -1 : 1;
        const int from = m_selected < 0 ? (step > 0 ? -1 : cellCount()) : m_selected;
        setSelectedGene(std::clamp(from + step, 0, cellCount() - 1));
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace sparsemap::ui::design
