#pragma once
// The project panel's tree: four groups (Architectures, Workloads, Runs, Pinned designs) with the
// session's entries as children, and a second column summarising each entry (levels and PEs, dims,
// best objective, ...). Follows the ProjectStore row by row: an added entry is inserted, a removed one
// removed, an edited or renamed one changed in place (never a reset), so that the view keeps its
// expanded groups, selection and current item.
#include "project_store.hpp"

#include <QAbstractItemModel>
#include <optional>

namespace sparsemap::ui {

class ProjectTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    struct Item {
        ProjectStore::Group group;
        int row = -1; // -1: the group's own row
    };

    explicit ProjectTreeModel(ProjectStore* store, QObject* parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override; // rename

    std::optional<Item> itemAt(const QModelIndex& index) const;
    QModelIndex indexOf(ProjectStore::Group group, int row = -1) const;

private:
    void beforeInsert(ProjectStore::Group group, int first, int last);
    void afterInsert(ProjectStore::Group group, int first, int last);
    void beforeRemove(ProjectStore::Group group, int first, int last);
    void afterRemove(ProjectStore::Group group, int first, int last);
    void groupCountChanged(ProjectStore::Group group); // the "(n)" in the group's row
    void entryChanged(ProjectStore::Group group, int row);
    QString name(ProjectStore::Group group, int row) const;
    QString summary(ProjectStore::Group group, int row) const;

    ProjectStore* m_store;
    int m_shownRows[4] = {0, 0, 0, 0}; // children the view knows of, per group
};

} // namespace sparsemap::ui
