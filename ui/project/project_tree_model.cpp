#include "project_tree_model.hpp"

#include <QBrush>
#include <QFont>
#include <QPalette>

namespace sparsemap::ui {

namespace {

using Group = ProjectStore::Group;
constexpr int kGroups = 4;
constexpr const char* kGroupNames[kGroups] = {"Architectures", "Workloads", "Runs", "Pinned designs"};

QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

QString number(double value)
{
    return QString::number(value, 'g', 4);
}

} // namespace

ProjectTreeModel::ProjectTreeModel(ProjectStore* store, QObject* parent)
    : QAbstractItemModel(parent), m_store(store)
{
    for (int g = 0; g < kGroups; ++g)
        m_shownRows[g] = store->count(Group(g));
    connect(store, &ProjectStore::entriesAboutToBeInserted, this, &ProjectTreeModel::beforeInsert);
    connect(store, &ProjectStore::entriesInserted, this, &ProjectTreeModel::afterInsert);
    connect(store, &ProjectStore::entriesAboutToBeRemoved, this, &ProjectTreeModel::beforeRemove);
    connect(store, &ProjectStore::entriesRemoved, this, &ProjectTreeModel::afterRemove);
    connect(store, &ProjectStore::entryChanged, this, &ProjectTreeModel::entryChanged);
}

void ProjectTreeModel::beforeInsert(Group group, int first, int last)
{
    beginInsertRows(indexOf(group), first, last);
}

void ProjectTreeModel::afterInsert(Group group, int first, int last)
{
    m_shownRows[int(group)] += last - first + 1;
    endInsertRows();
    groupCountChanged(group);
}

void ProjectTreeModel::beforeRemove(Group group, int first, int last)
{
    beginRemoveRows(indexOf(group), first, last);
}

void ProjectTreeModel::afterRemove(Group group, int first, int last)
{
    m_shownRows[int(group)] -= last - first + 1;
    endRemoveRows();
    groupCountChanged(group);
}

void ProjectTreeModel::groupCountChanged(Group group)
{
    const QModelIndex row = indexOf(group);
    emit dataChanged(row, row, {Qt::DisplayRole});
}

void ProjectTreeModel::entryChanged(Group group, int row)
{
    if (row < 0 || row >= m_shownRows[int(group)])
        return;
    emit dataChanged(index(row, 0, indexOf(group)), index(row, 1, indexOf(group)));
    // A pin's summary names its run.
    if (group == Group::Runs && m_shownRows[int(Group::Pinned)] > 0)
        emit dataChanged(index(0, 1, indexOf(Group::Pinned)),
                         index(m_shownRows[int(Group::Pinned)] - 1, 1, indexOf(Group::Pinned)));
}

QModelIndex ProjectTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column < 0 || column >= 2 || row < 0)
        return {};
    if (!parent.isValid())
        return row < kGroups ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.internalId() != 0 || row >= m_shownRows[parent.row()])
        return {};
    // A child's internal id is its group + 1, so that parent() needs no lookup.
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex ProjectTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId()) - 1, 0, quintptr(0));
}

int ProjectTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return kGroups;
    if (parent.internalId() == 0 && parent.column() == 0)
        return m_shownRows[parent.row()];
    return 0;
}

int ProjectTreeModel::columnCount(const QModelIndex&) const
{
    return 2;
}

std::optional<ProjectTreeModel::Item> ProjectTreeModel::itemAt(const QModelIndex& index) const
{
    if (!index.isValid())
        return std::nullopt;
    if (index.internalId() == 0)
        return Item{Group(index.row()), -1};
    return Item{Group(index.internalId() - 1), index.row()};
}

QModelIndex ProjectTreeModel::indexOf(Group group, int row) const
{
    const QModelIndex groupIndex = createIndex(int(group), 0, quintptr(0));
    return row < 0 ? groupIndex : index(row, 0, groupIndex);
}

QString ProjectTreeModel::name(Group group, int row) const
{
    const auto& s = m_store->session();
    switch (group) {
    case Group::Architectures:
        return qstr(s.architectures[row].name);
    case Group::Workloads:
        return qstr(s.workloads[row].name);
    case Group::Runs:
        return qstr(s.runs[row].name);
    case Group::Pinned:
        return qstr(s.pinned[row].name);
    }
    return {};
}

QString ProjectTreeModel::summary(Group group, int row) const
{
    const auto& s = m_store->session();
    switch (group) {
    case Group::Architectures: {
        const auto& arch = s.architectures[row];
        return QString("%1 levels, %2 MACs").arg(arch.levels.size()).arg(arch.compute.instances);
    }
    case Group::Workloads: {
        const auto& w = s.workloads[row];
        QStringList dims;
        for (const auto& d : w.dims)
            dims << QString("%1=%2").arg(qstr(d.name)).arg(d.size);
        return qstr(std::string(workloadKindName(w.kind))) + " " + dims.join(' ');
    }
    case Group::Runs: {
        const auto& run = s.runs[row];
        const auto best = run.result.best();
        return QString("%1, %2 evals, best %3%4")
            .arg(qstr(run.method))
            .arg(run.result.points.size())
            .arg(best ? number(best->objective) : QString("none valid"))
            .arg(run.result.cancelled ? " (cancelled)" : "");
    }
    case Group::Pinned: {
        const auto& pin = s.pinned[row];
        if (pin.run < 0 || pin.run >= int(s.runs.size()))
            return {};
        const auto& point = s.runs[pin.run].result.points[std::size_t(pin.pointIndex)];
        return QString("%1 #%2, %3")
            .arg(qstr(s.runs[pin.run].name))
            .arg(pin.pointIndex)
            .arg(point.valid ? "EDP " + number(point.edp) : QString("invalid"));
    }
    }
    return {};
}

QVariant ProjectTreeModel::data(const QModelIndex& index, int role) const
{
    const auto item = itemAt(index);
    if (!item)
        return {};
    if (item->row < 0) {
        if (index.column() != 0)
            return {};
        if (role == Qt::DisplayRole)
            return QString("%1 (%2)").arg(kGroupNames[int(item->group)]).arg(m_store->count(item->group));
        if (role == Qt::FontRole) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    }
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return index.column() == 0 ? name(item->group, item->row) : summary(item->group, item->row);
    if (role == Qt::EditRole && index.column() == 0)
        return name(item->group, item->row);
    return {};
}

QVariant ProjectTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == 0 ? QString("Name") : QString("Summary");
}

Qt::ItemFlags ProjectTreeModel::flags(const QModelIndex& index) const
{
    const auto item = itemAt(index);
    if (!item)
        return Qt::NoItemFlags;
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    // Runs and pins are named freely; an architecture's or workload's name is edited in its editor.
    if (item->row >= 0 && index.column() == 0 && (item->group == Group::Runs || item->group == Group::Pinned))
        flags |= Qt::ItemIsEditable;
    return flags;
}

bool ProjectTreeModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    const auto item = itemAt(index);
    if (role != Qt::EditRole || !item || item->row < 0 || !(flags(index) & Qt::ItemIsEditable))
        return false;
    const QString text = value.toString().trimmed();
    if (text.isEmpty())
        return false; // a nameless entry could not be told apart
    m_store->rename(item->group, item->row, text.toStdString());
    return true;
}

} // namespace sparsemap::ui
