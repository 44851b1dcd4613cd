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

template <typename Edit> void ProjectStore::change(Group group, Edit&& edit)
{
    emit groupAboutToChange(group);
    edit();
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
    change(Group::Architectures, [&] { m_session.architectures.push_back(arch); });
    return int(m_session.architectures.size()) - 1;
}

void ProjectStore::updateArchitecture(int index, const Architecture& arch)
{
    if (index < 0 || index >= count(Group::Architectures) || m_session.architectures[index] == arch)
        return;
    changeEntry(Group::Architectures, index, [&] { m_session.architectures[index] = arch; });
}

int ProjectStore::upsertWorkload(const Workload& workload)
{
    int index = indexOfName(m_session.workloads, workload.name);
    if (index >= 0) {
        updateWorkload(index, workload);
        return index;
    }
    change(Group::Workloads, [&] { m_session.workloads.push_back(workload); });
    return int(m_session.workloads.size()) - 1;
}

void ProjectStore::updateWorkload(int index, const Workload& workload)
{
    if (index < 0 || index >= count(Group::Workloads) || m_session.workloads[index] == workload)
        return;
    changeEntry(Group::Workloads, index, [&] { m_session.workloads[index] = workload; });
}

int ProjectStore::addRun(RunRecord run)
{
    run.name = uniqueName(run.name, m_session.runs);
    change(Group::Runs, [&] { m_session.runs.push_back(std::move(run)); });
    return int(m_session.runs.size()) - 1;
}

int ProjectStore::pin(int run, std::int64_t pointIndex, const std::string& name)
{
    if (run < 0 || run >= count(Group::Runs) || pointIndex < 0 ||
        pointIndex >= std::int64_t(m_session.runs[run].result.points.size()))
        return -1;
    PinnedDesign pinned{uniqueName(name, m_session.pinned), run, pointIndex};
    change(Group::Pinned, [&] { m_session.pinned.push_back(std::move(pinned)); });
    return int(m_session.pinned.size()) - 1;
}

void ProjectStore::remove(Group group, int index)
{
    if (index < 0 || index >= count(group))
        return;
    switch (group) {
    case Group::Architectures:
        change(group, [&] { m_session.architectures.erase(m_session.architectures.begin() + index); });
        break;
    case Group::Workloads:
        change(group, [&] { m_session.workloads.erase(m_session.workloads.begin() + index); });
        break;
    case Group::Pinned:
        change(group, [&] { m_session.pinned.erase(m_session.pinned.begin() + index); });
        break;
    case Group::Runs:
        // Pins point into runs by index: drop the run's pins and renumber the later runs'.
        change(Group::Pinned, [&] {
            auto& pins = m_session.pinned;
            pins.erase(std::remove_if(pins.begin(), pins.end(),
                                      [index](const PinnedDesign& p) { return p.run == index; }),
                       pins.end());
            for (auto& p : pins)
                if (p.run > index)
                    --p.run;
        });
        change(group, [&] { m_session.runs.erase(m_session.runs.begin() + index); });
        break;
    }
}

void ProjectStore::rename(Group group, int index, const std::string& name)
{
    if (index < 0 || index >= count(group) || name.empty())
        return;
    auto apply = [&](auto& items) {
        if (items[index].name == name)
            return;
        const std::string unique = uniqueName(name, items, index);
        changeEntry(group, index, [&] { items[index].name = unique; });
    };
    switch (group) {
    case Group::Architectures:
        apply(m_session.architectures);
        break;
    case Group::Workloads:
        apply(m_session.workloads);
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
    for (Group g : {Group::Pinned, Group::Runs, Group::Workloads, Group::Architectures})
        emit groupAboutToChange(g);
    m_session = std::move(session);
    for (Group g : {Group::Architectures, Group::Workloads, Group::Runs, Group::Pinned})
        emit groupChanged(g);
    if (m_filePath != path) {
        m_filePath = path;
        emit filePathChanged(path);
    }
    setModified(false);
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
