#pragma once
// The compute side as a property table (Property | Value): the PE array shape ("16 x 16", which is the
// innermost storage level's instances and mesh), MACs per PE, the MAC word width and the clock. Total
// MACs is derived and read-only. Edits are validated and undoable like those of the level table.
#include "architecture_document.hpp"

#include <QAbstractTableModel>

namespace sparsemap::ui {

class ComputeModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Row { PeArray, MacsPerPe, TotalMacs, MacWordBits, ClockGHz, RowCount };
    enum Column { Property, Value, ColumnCount };

    explicit ComputeModel(ArchitectureDocument* doc, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

signals:
    void rejected(const QString& message);

private:
    QString validate(int row, const QString& text, Architecture& arch) const;

    ArchitectureDocument* m_doc;
};

} // namespace sparsemap::ui
