#pragma once
// One row per storage level (outermost first), adapting ArchitectureDocument for a table view: every
// field of a level in the architecture file but its energies (the energy table's) is a column. Edits
// are parsed and validated here; an accepted edit becomes one undo command on the document's stack,
// a refused one emits rejected() with the reason and stores nothing.
#include "architecture_table_model.hpp"

namespace sparsemap::ui {

class StorageLevelModel : public ArchitectureTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Technology,
        Instances,
        Mesh, // "X x Y": sets instances = X * Y and mesh_x = X; "auto" clears mesh_x
        Capacity,
        MetadataCapacity, // empty: metadata shares the data capacity
        WordBits,
        MetadataWordBits,
        BlockSize,
        ReadBandwidth,
        WriteBandwidth,
        ColumnCount
    };

    explicit StorageLevelModel(ArchitectureDocument* doc, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    // New levels are copies of the level above the insertion point with a fresh name, so that the
    // architecture stays consistent; an insertion at row 0 copies the first level.
    bool insertRows(int row, int count, const QModelIndex& parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

private:
    QString validate(int row, int column, const QString& text, Architecture& arch) const;
};

} // namespace sparsemap::ui
