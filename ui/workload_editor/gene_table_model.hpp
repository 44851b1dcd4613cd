#pragma once
// The genes of a GenomeLayout, one row each: # | Gene | Segment | Range | Meaning, every row tinted with
// its segment's colour (common/segment_colors.hpp). Empty when there is no layout.
#include "genome/genome_layout.hpp"

#include <QAbstractTableModel>

#include <memory>

namespace sparsemap::ui {

class GeneTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Index, Name, Segment, Range, Description, ColumnCount };
    static constexpr int SegmentRole = Qt::UserRole + 1; // int: the row's GenomeLayout::partOf

    explicit GeneTableModel(QObject* parent = nullptr);

    void setLayout(std::shared_ptr<const GenomeLayout> layout); // null: no genes
    const GenomeLayout* layout() const { return m_layout.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const GenomeLayout> m_layout;
};

} // namespace sparsemap::ui
