#pragma once
// The table of mapped blocks: one row per (block, variant) with the paper's Table 3 metrics. Display is
// formatted text; SortRole holds the raw number so a QSortFilterProxyModel sorts numerically.
#include "cgra/block_mapper.hpp"

#include <QAbstractTableModel>

#include <vector>

namespace sparsemap::ui {

class CgraResultModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Block,
        Variant,
        Shape,
        Nnz,
        Mii,
        FirstIi,
        Cops,
        Mcids,
        FirstMapped,
        FinalIi,
        Speedup,
        Note,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit CgraResultModel(QObject* parent = nullptr);

    void append(const cgra::BlockMapping& mapping, int nnz, int channels, int kernels);
    void clear();
    const cgra::BlockMapping& mapping(int row) const { return m_rows.at(std::size_t(row)).mapping; }

    // Totals per variant over all rows, for the summary line.
    QString summary() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        cgra::BlockMapping mapping;
        int nnz = 0, channels = 0, kernels = 0;
    };
    std::vector<Row> m_rows;
};

} // namespace sparsemap::ui
