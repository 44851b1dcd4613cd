#pragma once
// One row per storage level (outermost first), adapting ArchitectureDocument for a table view. Edits
// are parsed and validated here; an accepted edit becomes one undo command on the document's stack,
// a refused one emits rejected() with the reason and stores nothing.
#include "architecture_document.hpp"

#include <QAbstractTableModel>

namespace sparsemap::ui {

class StorageLevelModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Technology,
        Instances,
        Capacity,
        WordBits,
        ReadBandwidth,
        WriteBandwidth,
        ColumnCount
    };

    explicit StorageLevelModel(ArchitectureDocument* doc, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    // New levels are copies of the level above the insertion point with a fresh name, so that the
    // architecture stays consistent; an insertion at row 0 copies the first level.
    bool insertRows(int row, int count, const QModelIndex& parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

signals:
    void rejected(const QString& message);

private:
    QString validate(int row, int column, const QString& text, Architecture& arch) const;
    bool refuse(const QString& message);

    ArchitectureDocument* m_doc;
};

} // namespace sparsemap::ui
