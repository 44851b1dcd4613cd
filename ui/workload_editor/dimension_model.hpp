#pragma once
// The workload's dimensions (the loops), in order: Name | Size | Padded | Prime factors. The padded
// size and its factors are what the genome's tiling genes split (paper IV-B, large-prime padding). A
// general workload's dims are edited here (name, size; rows added and removed); a family's are derived
// from its parameters (ParameterModel) and read-only.
#include "workload_document.hpp"

#include <QAbstractTableModel>

namespace sparsemap::ui {

class DimensionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Size, Padded, Factors, ColumnCount };

    explicit DimensionModel(WorkloadDocument* doc, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    // General workloads only: a new dim of size 1, and removal of dims that no tensor uses. A refusal
    // is reported through rejected().
    bool insertRows(int row, int count, const QModelIndex& parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

signals:
    void rejected(const QString& message);

private:
    bool editable() const;

    WorkloadDocument* m_doc;
};

} // namespace sparsemap::ui
