#pragma once
// The energy-per-action table of one component: a storage level or the compute unit. Only the action
// names Sparseloop knows for that kind of component are accepted, each at most once, with pJ >= 0.
// The rows are a copy of the table, refreshed inside begin/end calls, so that views and
// QAbstractItemModelTester always see the old rows before a change and the new ones after it.
#include "architecture_table_model.hpp"

#include <string>
#include <utility>
#include <vector>

namespace sparsemap::ui {

class EnergyTableModel : public ArchitectureTableModel {
    Q_OBJECT
public:
    enum Column { Action, EnergyPj, ColumnCount };
    static constexpr int kCompute = -1;

    explicit EnergyTableModel(ArchitectureDocument* doc, QObject* parent = nullptr);

    // A level row, or kCompute.
    void setComponent(int level);
    int component() const { return m_level; }
    QString componentName() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    // Adds the first allowed action not yet listed, at 0 pJ (one row at a time).
    bool insertRows(int row, int count, const QModelIndex& parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

private:
    using Entries = std::vector<std::pair<std::string, double>>;
    Entries documentEntries() const;
    QStringList allowedActions() const;
    bool commit(Entries entries, const QString& text);
    void sync(); // bring m_entries to the document's table with the finest change signals possible

    int m_level = kCompute;
    Entries m_entries;
};

} // namespace sparsemap::ui
