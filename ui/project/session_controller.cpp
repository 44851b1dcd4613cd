#include "session_controller.hpp"

#include <algorithm>

namespace sparsemap::ui {

using Group = ProjectStore::Group;

SessionController::SessionController(QObject* parent) : QObject(parent), m_store(new ProjectStore(this))
{
    connect(m_store, &ProjectStore::entriesInserted, this, [this](Group group, int first, int last) {
        if (group == Group::Runs)
            for (int i = first; i <= last; ++i)
                emit runAdded(runId(i));
    });
    connect(m_store, &ProjectStore::entriesAboutToBeRemoved, this, [this](Group group, int first, int last) {
        if (group == Group::Runs)
            for (int i = first; i <= last; ++i)
                m_leaving.push_back(runId(i));
        // The entries the editors mirror: gone, or moved up by the entries removed before them.
        auto follow = [first, last](int& edited) {
            if (edited > last)
                edited -= last - first + 1;
            else if (edited >= first)
                edited = -1;
        };
        if (group == Group::Architectures)
            follow(m_editedArchitecture);
        if (group == Group::Workloads)
            follow(m_editedWorkload);
    });
    connect(m_store, &ProjectStore::entriesRemoved, this, [this](Group group) {
        if (group != Group::Runs)
            return;
        const std::vector<RunId> gone = std::move(m_leaving);
        m_leaving.clear();
        for (RunId run : gone) {
            // What showed the run shows no session run any more (its view keeps the picture).
            if (run == m_explorationRun)
                m_explorationRun = RunId::None;
            if (run == m_shownRun)
                setShownDesign(RunId::None, -1);
            emit runRemoved(run);
        }
    });
    connect(m_store, &ProjectStore::groupChanged, this, [this](Group group) {
        if (group == Group::Runs)
            emit runsChanged();
        else if (group == Group::Pinned)
            emit pinsChanged();
        else if (group == Group::Workloads)
            emit workloadsChanged();
        else if (group == Group::Architectures)
            emit architecturesChanged();
    });
    connect(m_store, &ProjectStore::entryChanged, this, [this](Group group, int index) {
        if (group == Group::Runs) {
            emit runChanged(runId(index));
            emit runsChanged();
        } else if (group == Group::Pinned) {
            emit pinsChanged();
        } else if (group == Group::Workloads) {
            emit workloadsChanged();
        } else if (group == Group::Architectures) {
            emit architecturesChanged();
        }
    });
}

const RunRecord* SessionController::run(RunId run) const
{
    const int index = runIndex(run);
    return index < 0 ? nullptr : &session().runs[std::size_t(index)];
}

RunId SessionController::addRun(const RunRecord& run)
{
    const auto named = [](const auto& items, const std::string& name) {
        return std::any_of(items.begin(), items.end(), [&](const auto& item) { return item.name == name; });
    };
    RunRecord record = run;
    record.architecture.name = distinctArchitectureName(session(), record.architecture);
    record.workload.name = distinctWorkloadName(session(), record.workload);
    if (!named(session().architectures, record.architecture.name))
        m_store->upsertArchitecture(record.architecture);
    if (!named(session().workloads, record.workload.name))
        m_store->upsertWorkload(record.workload);
    m_store->setSelection({record.workload.name, record.architecture.name});
    return runId(m_store->addRun(std::move(record)));
}

int SessionController::pin(RunId run, std::int64_t pointIndex, const std::string& name)
{
    return m_store->pin(run, pointIndex, name);
}

int SessionController::pinBest(RunId id, QString* error)
{
    const RunRecord* record = run(id);
    if (!record)
        return -1;
    if (record->result.bestIndex < 0) {
        if (error)
            *error = "This run found no valid design to pin.";
        return -1;
    }
    return pin(id, record->result.bestIndex, "best of " + record->name);
}

int SessionController::pinShownDesign()
{
    const RunRecord* record = run(m_shownRun);
    if (!record)
        return -1;
    return pin(m_shownRun, m_shownPoint, record->name + " #" + std::to_string(m_shownPoint));
}

void SessionController::setShownDesign(RunId run, std::int64_t pointIndex)
{
    if (run == RunId::None)
        pointIndex = -1;
    if (run == m_shownRun && pointIndex == m_shownPoint)
        return;
    m_shownRun = run;
    m_shownPoint = pointIndex;
    emit shownDesignChanged(run, pointIndex);
}

Architecture SessionController::mirrorEditedArchitecture(Architecture arch, bool reloaded)
{
    const bool update =
        !reloaded && m_editedArchitecture >= 0 && m_editedArchitecture < m_store->count(Group::Architectures);
    arch.name = distinctArchitectureName(session(), arch, update ? m_editedArchitecture : -1);
    if (update)
        m_store->updateArchitecture(m_editedArchitecture, arch);
    else
        m_editedArchitecture = m_store->upsertArchitecture(arch);
    return arch;
}

Workload SessionController::mirrorEditedWorkload(Workload workload, bool reloaded)
{
    const bool update =
        !reloaded && m_editedWorkload >= 0 && m_editedWorkload < m_store->count(Group::Workloads);
    workload.name = distinctWorkloadName(session(), workload, update ? m_editedWorkload : -1);
    if (update)
        m_store->updateWorkload(m_editedWorkload, workload);
    else
        m_editedWorkload = m_store->upsertWorkload(workload);
    return workload;
}

void SessionController::requestDesign(RunId run, std::int64_t pointIndex, bool bringToFront)
{
    emit designRequested(run, pointIndex, bringToFront);
}

} // namespace sparsemap::ui
