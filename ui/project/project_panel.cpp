#include "project_panel.hpp"

#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <QTreeView>
#include <QVBoxLayout>

namespace sparsemap::ui {

using Group = ProjectStore::Group;

ProjectPanel::ProjectPanel(SessionController* session, QWidget* parent)
    : QWidget(parent), m_session(session), m_model(new ProjectTreeModel(session->store(), this)),
      m_tree(new QTreeView)
{
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_tree->header()->resizeSection(0, 170);
    // New entries show at once: a group opens when it gets children.
    connect(m_model, &QAbstractItemModel::rowsInserted, m_tree,
            [this](const QModelIndex& parent) { m_tree->expand(parent); });
    connect(m_tree, &QTreeView::activated, this, [this](const QModelIndex& index) {
        if (const auto item = m_model->itemAt(index); item && item->row >= 0)
            emit activated(item->group, item->row);
    });
    connect(m_tree, &QWidget::customContextMenuRequested, this, &ProjectPanel::showContextMenu);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree);
}

std::optional<ProjectTreeModel::Item> ProjectPanel::currentItem() const
{
    auto item = m_model->itemAt(m_tree->currentIndex());
    if (!item || item->row < 0)
        return std::nullopt;
    return item;
}

void ProjectPanel::showContextMenu(const QPoint& position)
{
    const auto item = m_model->itemAt(m_tree->indexAt(position));
    if (!item || item->row < 0)
        return;
    QMenu menu(this);
    menu.addAction("Open", this, [this, item] { emit activated(item->group, item->row); });
    if (item->group == Group::Runs) {
        menu.addAction("Pin best design", this, [this, item] {
            QString error;
            if (m_session->pinBest(m_session->runId(item->row), &error) < 0 && !error.isEmpty())
                emit problem(error);
        });
        menu.addAction("Compare runs", this, [this] { emit compareRequested(); });
    }
    if (item->group == Group::Runs || item->group == Group::Pinned)
        menu.addAction("Rename", this, [this, position] { m_tree->edit(m_tree->indexAt(position)); });
    menu.addSeparator();
    menu.addAction("Remove", this, [this, item] {
        const QString name = m_model->data(m_model->indexOf(item->group, item->row)).toString();
        QString question = QString("Remove \"%1\" from the session?").arg(name);
        if (item->group == Group::Runs)
            question += " Its point log and its pinned designs go with it.";
        if (QMessageBox::question(this, "Remove", question) == QMessageBox::Yes)
            m_session->remove(item->group, item->row);
    });
    menu.exec(m_tree->viewport()->mapToGlobal(position));
}

} // namespace sparsemap::ui
