#pragma once
// The project panel: the session's tree (ProjectTreeModel) with a context menu. Activating an entry
// (double click, Enter or "Open") asks the main window to show it in its view; removing an entry and
// pinning a run's best go to the SessionController.
#include "project_tree_model.hpp"
#include "session_controller.hpp"

#include <QWidget>

class QTreeView;

namespace sparsemap::ui {

class ProjectPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProjectPanel(SessionController* session, QWidget* parent = nullptr);
    QTreeView* treeView() const { return m_tree; }
    ProjectTreeModel* model() const { return m_model; }
    // The entry under the current index, if it is an entry (not a group).
    std::optional<ProjectTreeModel::Item> currentItem() const;

signals:
    void activated(sparsemap::ui::ProjectStore::Group group, int row);
    void compareRequested();
    void problem(const QString& message); // e.g. a run without a valid design to pin

private:
    void showContextMenu(const QPoint& position);

    SessionController* m_session;
    ProjectTreeModel* m_model;
    QTreeView* m_tree;
};

} // namespace sparsemap::ui
