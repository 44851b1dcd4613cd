#pragma once
// The architecture-wide properties as a table (Property | Value): the architecture's name, the PE
// array ("16 x 8", columns x rows: the innermost storage level's instances and mesh), MACs per PE,
// the MAC array (the compute's instances and mesh), the MAC unit's name and word width, and the
// clock. Total MACs is derived and read-only. Edits are validated and undoable like those of the
// level table.
#include "architecture_table_model.hpp"

namespace sparsemap::ui {

class ComputeModel : public ArchitectureTableModel {
    Q_OBJECT
public:
    enum Row {
        ArchitectureName,
        PeArray,
        MacsPerPe,
        MacArray,
        TotalMacs,
        MacName,
        MacWordBits,
        ClockGHz,
        RowCount
    };
    enum Column { Property, Value, ColumnCount };

    explicit ComputeModel(ArchitectureDocument* doc, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

private:
    QString validate(int row, const QString& text, Architecture& arch) const;
};

} // namespace sparsemap::ui
