#pragma once
// The project panel: the session's tree (ProjectTreeModel) with a context menu. Activating an entry
// (double click, Enter or "Open") asks the main window to show it in its view.
#include "project_store.hpp"
#include "project_tree_model.hpp"

#include <QWidget>

class QTreeView;

namespace sparsemap::ui {

class ProjectPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProjectPanel(ProjectStore* store, QWidget* parent = nullptr);
    QTreeView* treeView() const { return m_tree; }
    ProjectTreeModel* model() const { return m_model; }
    // The entry under the current index, if it is an entry (not a group).
    std::optional<ProjectTreeModel::Item> currentItem() const;

signals:
    void activated(sparsemap::ui::ProjectStore::Group group, int row);
    void pinBestRequested(int run);
    void compareRequested();

private:
    void showContextMenu(const QPoint& position);

    ProjectStore* m_store;
    ProjectTreeModel* m_model;
    QTreeView* m_tree;
};

} // namespace sparsemap::ui
