#include "energy_table_model.hpp"

#include "editor_support.hpp"
#include "io/units.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap::ui {

EnergyTableModel::EnergyTableModel(ArchitectureDocument* doc, QObject* parent)
    : ArchitectureTableModel(doc, ColumnCount, parent)
{
    m_entries = documentEntries();
    connect(doc, &ArchitectureDocument::reset, this, [this] { setComponent(kCompute); });
    connect(doc, &ArchitectureDocument::levelChanged, this, [this](int row) {
        if (row == m_level)
            sync();
    });
    connect(doc, &ArchitectureDocument::computeChanged, this, [this] {
        if (m_level == kCompute)
            sync();
    });
    // Rows of the level table move under us: follow our level, or fall back to the compute.
    connect(doc, &ArchitectureDocument::levelsInserted, this, [this](int first, int last) {
        if (m_level >= first)
            m_level += last - first + 1;
    });
    connect(doc, &ArchitectureDocument::levelsRemoved, this, [this](int first, int last) {
        if (m_level > last)
            m_level -= last - first + 1;
        else if (m_level >= first)
            setComponent(kCompute);
    });
}

void EnergyTableModel::setComponent(int level)
{
    beginResetModel();
    m_level = level >= 0 && level < m_doc->architecture().levelCount() ? level : kCompute;
    m_entries = documentEntries();
    endResetModel();
}

QString EnergyTableModel::componentName() const
{
    const Architecture& arch = m_doc->architecture();
    return QString::fromStdString(m_level == kCompute ? arch.compute.name : arch.levels[m_level].name);
}

EnergyTableModel::Entries EnergyTableModel::documentEntries() const
{
    const Architecture& arch = m_doc->architecture();
    if (m_level == kCompute || m_level >= arch.levelCount())
        return arch.compute.energy.entries();
    return arch.levels[m_level].energy.entries();
}

QStringList EnergyTableModel::allowedActions() const
{
    QStringList names;
    for (std::string_view name : m_level == kCompute ? computeActionNames() : storageActionNames())
        names << QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    return names;
}

void EnergyTableModel::sync()
{
    Entries fresh = documentEntries();
    const auto differs = [](const Entries& a, const Entries& b) {
        const auto n = std::min(a.size(), b.size());
        return static_cast<int>(std::mismatch(a.begin(), a.begin() + n, b.begin()).first - a.begin());
    };
    const int oldCount = static_cast<int>(m_entries.size());
    const int newCount = static_cast<int>(fresh.size());
    // One command adds or removes one entry: report it as such; anything else is a reset.
    if (newCount == oldCount + 1) {
        const int at = differs(m_entries, fresh);
        beginInsertRows({}, at, at);
        m_entries = std::move(fresh);
        endInsertRows();
    } else if (newCount == oldCount - 1) {
        const int at = differs(fresh, m_entries);
        beginRemoveRows({}, at, at);
        m_entries = std::move(fresh);
        endRemoveRows();
    } else if (newCount == oldCount) {
        m_entries = std::move(fresh);
        if (oldCount > 0)
            emit dataChanged(index(0, 0), index(oldCount - 1, ColumnCount - 1));
    } else {
        beginResetModel();
        m_entries = std::move(fresh);
        endResetModel();
    }
}

int EnergyTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

QVariant EnergyTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& [action, pj] = m_entries[index.row()];
    const bool isAction = index.column() == Action;
    if (role == ChoicesRole)
        return isAction ? allowedActions() : QStringList{};
    if (role == HelpRole || role == Qt::ToolTipRole)
        return isAction ? tr("One of: %1").arg(allowedActions().join(", "))
                        : tr("Energy per action in pJ: a number >= 0");
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    return isAction ? QString::fromStdString(action) : QString::fromStdString(detail::formatNumber(pj));
}

QVariant EnergyTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    return section == Action ? tr("Action") : tr("Energy (pJ)");
}

bool EnergyTableModel::commit(Entries entries, const QString& text)
{
    EnergyTable table;
    for (const auto& [action, pj] : entries)
        table.set(action, pj);
    Architecture arch = m_doc->architecture();
    (m_level == kCompute ? arch.compute.energy : arch.levels[m_level].energy) = std::move(table);
    return commitEdit(std::move(arch), {}, text);
}

bool EnergyTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    const QString text = value.toString().trimmed();
    Entries entries = m_entries;
    auto& [action, pj] = entries[index.row()];
    if (index.column() == Action) {
        if (!allowedActions().contains(text))
            return refuse(tr("\"%1\" is not an action of %2; use one of %3.")
                              .arg(text, componentName(), allowedActions().join(", ")));
        const std::string name = text.toStdString();
        for (int i = 0; i < rowCount(); ++i) {
            if (i != index.row() && m_entries[i].first == name)
                return refuse(tr("%1 already has an energy for %2.").arg(componentName(), text));
        }
        action = name;
    } else {
        bool ok = false;
        const double energy = text.toDouble(&ok);
        if (!ok || !(energy >= 0) || !std::isfinite(energy))
            return refuse(tr("\"%1\" is not an energy: give a number of pJ >= 0.").arg(text));
        pj = energy;
    }
    return commit(std::move(entries), tr("Edit energy of %1").arg(componentName()));
}

bool EnergyTableModel::insertRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || count != 1 || row < 0 || row > rowCount())
        return false;
    for (const QString& name : allowedActions()) {
        const std::string action = name.toStdString();
        if (std::none_of(m_entries.begin(), m_entries.end(),
                         [&](const auto& e) { return e.first == action; })) {
            Entries entries = m_entries;
            entries.emplace(entries.begin() + row, action, 0.0);
            return commit(std::move(entries), tr("Add energy to %1").arg(componentName()));
        }
    }
    return refuse(tr("%1 already lists every action.").arg(componentName()));
}

bool EnergyTableModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count < 1 || row + count > rowCount())
        return false;
    Entries entries = m_entries;
    entries.erase(entries.begin() + row, entries.begin() + row + count);
    return commit(std::move(entries), tr("Remove energy from %1").arg(componentName()));
}

} // namespace sparsemap::ui
