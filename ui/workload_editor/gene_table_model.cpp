#include "gene_table_model.hpp"

#include "common/segment_colors.hpp"

#include <QBrush>

namespace sparsemap::ui {

GeneTableModel::GeneTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void GeneTableModel::setLayout(std::shared_ptr<const GenomeLayout> layout)
{
    beginResetModel();
    m_layout = std::move(layout);
    endResetModel();
}

int GeneTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_layout ? 0 : m_layout->size();
}

int GeneTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GeneTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const GeneInfo& gene = m_layout->gene(index.row());
    switch (role) {
    case Qt::BackgroundRole:
        return QBrush(geneSegmentTint(*m_layout, gene.segment, gene.formatSlot));
    case Qt::ForegroundRole:
        return QBrush(Qt::black); // the tints are light whatever the palette
    case Qt::ToolTipRole:
        return QString::fromStdString(gene.description);
    case SegmentRole:
        return m_layout->partOf(index.row());
    case Qt::TextAlignmentRole:
        return index.column() == Index ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case Index:
        return index.row() + 1; // genes are numbered from 1, as in GenomeError messages
    case Name:
        return QString::fromStdString(gene.name);
    case Segment:
        return QString::fromStdString(m_layout->segmentName(gene.segment, gene.formatSlot));
    case Range:
        return QStringLiteral("%1..%2").arg(gene.lower).arg(gene.upper);
    case Description:
        return QString::fromStdString(gene.description);
    }
    return {};
}

QVariant GeneTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    static const char* const names[] = {"#", "Gene", "Segment", "Range", "Meaning"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace sparsemap::ui
