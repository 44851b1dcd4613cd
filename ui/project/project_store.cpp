#include "project_store.hpp"

#include <algorithm>
#include <set>

namespace sparsemap::ui {

namespace {

// "name", or "name (2)", "name (3)", ... whichever no item but `self` has.
template <typename Items> std::string uniqueName(const std::string& name, const Items& items, int self = -1)
{
    std::set<std::string> taken;
    for (std::size_t i = 0; i < items.size(); ++i)
        if (int(i) != self)
            taken.insert(items[i].name);
    if (!taken.contains(name))
        return name;
    for (int n = 2;; ++n) {
        const std::string candidate = name + " (" + std::to_string(n) + ")";
        if (!taken.contains(candidate))
            return candidate;
    }
}

template <typename Items> int indexOfName(const Items& items, const std::string& name)
{
    for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i].name == name)
            return int(i);
    return -1;
}

} // namespace

// The constructor is in project_store_io.cpp, where the file job's type is complete.

int ProjectStore::count(Group group) const
{
    switch (group) {
    case Group::Architectures:
        return int(m_session.architectures.size());
    case Group::Workloads:
        return int(m_session.workloads.size());
    case Group::Runs:
        return int(m_session.runs.size());
    case Group::Pinned:
        return int(m_session.pinned.size());
    }
    return 0;
}

template <typename Edit> void ProjectStore::append(Group group, Edit&& edit)
{
    const int row = count(group);
    emit entriesAboutToBeInserted(group, row, row);
    edit();
    emit entriesInserted(group, row, row);
    emit groupChanged(group);
    setModified(true);
}

template <typename Edit> void ProjectStore::erase(Group group, int index, Edit&& edit)
{
    emit entriesAboutToBeRemoved(group, index, index);
    edit();
    emit entriesRemoved(group, index, index);
    emit groupChanged(group);
    setModified(true);
}

template <typename Edit> void ProjectStore::changeEntry(Group group, int index, Edit&& edit)
{
    edit();
    emit entryChanged(group, index);
    setModified(true);
}

void ProjectStore::setModified(bool modified)
{
    if (modified == m_modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

int ProjectStore::upsertArchitecture(const Architecture& arch)
{
    int index = indexOfName(m_session.architectures, arch.name);
    if (index >= 0) {
        updateArchitecture(index, arch);
        return index;
    }
    append(Group::Architectures, [&] { m_session.architectures.push_back(arch); });
    return int(m_session.architectures.size()) - 1;
}

void ProjectStore::updateArchitecture(int index, const Architecture& arch)
{
    if (index < 0 || index >= count(Group::Architectures) || m_session.architectures[index] == arch)
        return;
    changeEntry(Group::Architectures, index, [&] {
        if (m_session.selection.architecture == m_session.architectures[index].name)
            m_session.selection.architecture = arch.name; // the selection follows its entry
        m_session.architectures[index] = arch;
    });
}

int ProjectStore::upsertWorkload(const Workload& workload)
{
    int index = indexOfName(m_session.workloads, workload.name);
    if (index >= 0) {
        updateWorkload(index, workload);
        return index;
    }
    append(Group::Workloads, [&] { m_session.workloads.push_back(workload); });
    return int(m_session.workloads.size()) - 1;
}

void ProjectStore::updateWorkload(int index, const Workload& workload)
{
    if (index < 0 || index >= count(Group::Workloads) || m_session.workloads[index] == workload)
        return;
    changeEntry(Group::Workloads, index, [&] {
        if (m_session.selection.workload == m_session.workloads[index].name)
            m_session.selection.workload = workload.name;
        m_session.workloads[index] = workload;
    });
}

int ProjectStore::addRun(RunRecord run)
{
    append(Group::Runs, [&] {
        addRunToSession(m_session, std::move(run));
        m_runIds.push_back(newRunId());
    });
    return int(m_session.runs.size()) - 1;
}

RunId ProjectStore::runId(int index) const
{
    return index >= 0 && index < int(m_runIds.size()) ? m_runIds[std::size_t(index)] : RunId::None;
}

int ProjectStore::runIndex(RunId run) const
{
    if (run == RunId::None)
        return -1;
    const auto it = std::find(m_runIds.begin(), m_runIds.end(), run);
    return it == m_runIds.end() ? -1 : int(it - m_runIds.begin());
}

RunId ProjectStore::pinnedRun(int pin) const
{
    return pin >= 0 && pin < int(m_pinRuns.size()) ? m_pinRuns[std::size_t(pin)] : RunId::None;
}

void ProjectStore::derivePinIndices()
{
    for (std::size_t i = 0; i < m_session.pinned.size(); ++i)
        m_session.pinned[i].run = runIndex(m_pinRuns[i]);
}

int ProjectStore::pin(RunId run, std::int64_t pointIndex, const std::string& name)
{
    const int index = runIndex(run);
    if (index < 0 || pointIndex < 0 || pointIndex >= std::int64_t(m_session.runs[index].result.points.size()))
        return -1;
    PinnedDesign pinned{uniqueName(name, m_session.pinned), index, pointIndex};
    append(Group::Pinned, [&] {
        m_session.pinned.push_back(std::move(pinned));
        m_pinRuns.push_back(run);
    });
    return int(m_session.pinned.size()) - 1;
}

void ProjectStore::remove(Group group, int index)
{
    if (index < 0 || index >= count(group))
        return;
    switch (group) {
    case Group::Architectures:
        if (m_session.selection.architecture == m_session.architectures[std::size_t(index)].name)
            m_session.selection.architecture.clear();
        erase(group, index, [&] { m_session.architectures.erase(m_session.architectures.begin() + index); });
        break;
    case Group::Workloads:
        if (m_session.selection.workload == m_session.workloads[std::size_t(index)].name)
            m_session.selection.workload.clear();
        erase(group, index, [&] { m_session.workloads.erase(m_session.workloads.begin() + index); });
        break;
    case Group::Pinned:
        erase(group, index, [&] {
            m_session.pinned.erase(m_session.pinned.begin() + index);
            m_pinRuns.erase(m_pinRuns.begin() + index);
        });
        break;
    case Group::Runs: {
        // The run's pins go first, one by one from the back; the other pins keep their runs' ids,
        // and their indices follow from those.
        const RunId id = m_runIds[std::size_t(index)];
        for (int p = count(Group::Pinned) - 1; p >= 0; --p)
            if (m_pinRuns[std::size_t(p)] == id)
                remove(Group::Pinned, p);
        erase(group, index, [&] {
            m_session.runs.erase(m_session.runs.begin() + index);
            m_runIds.erase(m_runIds.begin() + index);
            derivePinIndices();
        });
        break;
    }
    }
}

void ProjectStore::rename(Group group, int index, const std::string& name)
{
    if (index < 0 || index >= count(group) || name.empty())
        return;
    // `selected`: the selection's name for this group's entries (it follows a rename), or null.
    auto apply = [&](auto& items, std::string* selected = nullptr) {
        if (items[index].name == name)
            return;
        const std::string unique = uniqueName(name, items, index);
        changeEntry(group, index, [&] {
            if (selected && *selected == items[index].name)
                *selected = unique;
            items[index].name = unique;
        });
    };
    switch (group) {
    case Group::Architectures:
        apply(m_session.architectures, &m_session.selection.architecture);
        break;
    case Group::Workloads:
        apply(m_session.workloads, &m_session.selection.workload);
        break;
    case Group::Runs:
        apply(m_session.runs);
        break;
    case Group::Pinned:
        apply(m_session.pinned);
        break;
    }
}

void ProjectStore::replaceSession(Session session, const QString& path)
{
    // Every entry leaves, pins first (they refer to runs); then the new ones come in, group by group.
    // The new runs get new ids: no id of the old session means a run of the new one.
    auto removeAll = [this](Group group, auto& items) {
        if (items.empty())
            return;
        const int last = int(items.size()) - 1;
        emit entriesAboutToBeRemoved(group, 0, last);
        items.clear();
        if (group == Group::Runs)
            m_runIds.clear();
        if (group == Group::Pinned)
            m_pinRuns.clear();
        emit entriesRemoved(group, 0, last);
    };
    removeAll(Group::Pinned, m_session.pinned);
    removeAll(Group::Runs, m_session.runs);
    removeAll(Group::Workloads, m_session.workloads);
    removeAll(Group::Architectures, m_session.architectures);
    auto insertAll = [this](Group group, auto& items, auto& from) {
        if (from.empty())
            return;
        const int last = int(from.size()) - 1;
        emit entriesAboutToBeInserted(group, 0, last);
        items = std::move(from);
        if (group == Group::Runs)
            for (std::size_t i = 0; i < items.size(); ++i)
                m_runIds.push_back(newRunId());
        if (group == Group::Pinned)
            for (const auto& pin : m_session.pinned)
                m_pinRuns.push_back(runId(pin.run));
        emit entriesInserted(group, 0, last);
    };
    insertAll(Group::Architectures, m_session.architectures, session.architectures);
    insertAll(Group::Workloads, m_session.workloads, session.workloads);
    insertAll(Group::Runs, m_session.runs, session.runs);
    insertAll(Group::Pinned, m_session.pinned, session.pinned);
    m_session.selection = std::move(session.selection);
    for (Group g : {Group::Architectures, Group::Workloads, Group::Runs, Group::Pinned})
        emit groupChanged(g);
    if (m_filePath != path) {
        m_filePath = path;
        emit filePathChanged(path);
    }
    setModified(false);
}

void ProjectStore::setSelection(const ExplorationSelection& selection)
{
    if (selection == m_session.selection)
        return;
    m_session.selection = selection;
    setModified(true);
}

void ProjectStore::markClean()
{
    setModified(false);
}

void ProjectStore::clear()
{
    replaceSession({}, {});
}

} // namespace sparsemap::ui
