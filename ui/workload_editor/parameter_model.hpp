#pragma once
// The workload's name and, for the paper's families, the parameters the factory builds it from
// (Parameter | Value | Meaning): M, K, N for SpMM; B, M, K, N for batched SpMM; N, C, H, W, K, R, S,
// strides and padding for SpConv. An edit rebuilds the workload with workload_factory.hpp, so the dims
// and tensors always match the parameters; a general workload has the name row only (its dims are in
// DimensionModel).
#include "workload_document.hpp"

#include <QAbstractTableModel>

namespace sparsemap::ui {

class ParameterModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Parameter, Value, Meaning, ColumnCount };
    enum class Param { Name, B, M, K, N, ConvN, C, H, W, ConvK, R, S, StrideH, StrideW, Padding, PadH, PadW };

    explicit ParameterModel(WorkloadDocument* doc, QObject* parent = nullptr);

    // The row of a parameter in the current workload's kind, or -1.
    int rowOf(Param param) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void rejected(const QString& message);

private:
    std::vector<Param> params() const;
    QString valueText(Param param) const;
    // Parses `text` into the workload rebuilt from the changed parameter; the reason when refused.
    QString rebuild(Param param, const QString& text, Workload& out) const;

    WorkloadDocument* m_doc;
};

} // namespace sparsemap::ui
