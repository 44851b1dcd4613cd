#pragma once
// The workload's tensors: Name | Ranks | Role | Density model | Density | n:m | Bandwidth | Data file.
// Ranks are index expressions, outer to inner ("C, 2*P + R"). Densities (inputs only; the output's is
// derived by the model) follow docs/file-formats.md: uniform (alias hypergeometric) with a density in
// (0, 1]; fixed-structured with n:m or a density alone; banded with a bandwidth (and a density inside
// the band); actual from a Matrix Market / 0/1 mask file, set through the Data file column or
// WorkloadDocument::setActualDensity. Name, ranks and role are editable for a general workload only.
#include "workload_document.hpp"

#include <QAbstractTableModel>

namespace sparsemap::ui {

class TensorModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Ranks, Role, Model, Density, StructuredNM, Bandwidth, File, ColumnCount };

    explicit TensorModel(WorkloadDocument* doc, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    // General workloads only: a new input over the first dim, and removal (the workload may then need
    // completing, e.g. a new output).
    bool insertRows(int row, int count, const QModelIndex& parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

signals:
    void rejected(const QString& message);

private:
    bool structureEditable() const;
    QVariant displayText(int row, int column) const;
    QString help(int row, int column) const;
    // Applies `text` to `after` (a copy of the workload); the reason when refused.
    QString apply(int row, int column, const QString& text, Workload& after) const;

    WorkloadDocument* m_doc;
};

} // namespace sparsemap::ui
