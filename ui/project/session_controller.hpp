#pragma once
// The session as the views see it: the ProjectStore behind it, its runs by stable id (RunId, see
// project_store.hpp), and which run the Exploration view and which design the Design view show. The
// views change the session through it and follow it through its signals, so that neither they nor
// the main window keep indices into the runs: removing a run renumbers nothing, and a view holding
// a removed run's id learns of it from runRemoved.
#include "project_store.hpp"

#include <QObject>
#include <QString>

#include <cstdint>

namespace sparsemap::ui {

class SessionController : public QObject {
    Q_OBJECT
public:
    explicit SessionController(QObject* parent = nullptr);

    ProjectStore* store() const { return m_store; }
    const Session& session() const { return m_store->session(); }

    RunId runId(int index) const { return m_store->runId(index); }
    int runIndex(RunId run) const { return m_store->runIndex(run); }
    const RunRecord* run(RunId run) const; // nullptr when the run is not in the session

    // A finished search's run: what it searched joins the session's architectures and workloads
    // under a name that stands for exactly that content (distinctArchitectureName /
    // distinctWorkloadName: an entry of the run's name edited since keeps its name, the run's copy
    // gets "name (2)"), and becomes the session's Exploration selection; the run is added under a
    // unique name and colour. Returns its id.
    RunId addRun(const RunRecord& run);
    void removeRun(RunId run) { m_store->removeRun(run); }
    // Removes any entry of the project panel (a run with its pins).
    void remove(ProjectStore::Group group, int index) { m_store->remove(group, index); }
    // Pins a point of a run; returns the pin's index, or -1 when there is no such run or point.
    int pin(RunId run, std::int64_t pointIndex, const std::string& name);
    // Pins a run's best design as "best of <run>"; returns the pin's index, or -1 (then `error` says why).
    int pinBest(RunId run, QString* error = nullptr);
    // Pins the design the Design view shows as "<run> #<point>"; -1 when it is no session run's design.
    int pinShownDesign();

    // The run the Exploration view shows; None while a search runs or when it shows no session run.
    RunId explorationRun() const { return m_explorationRun; }
    void setExplorationRun(RunId run) { m_explorationRun = run; }
    // The session run and point the Design view shows; None and -1 for any other design.
    RunId shownRun() const { return m_shownRun; }
    std::int64_t shownPoint() const { return m_shownPoint; }
    void setShownDesign(RunId run, std::int64_t pointIndex);
    // The architecture editor's document as a session entry, kept up to date on every edit, under a
    // name no other architecture of the session uses (an edited "mobile" becomes "mobile (2)"), so
    // that runs on it and on the preset never look alike. `reloaded`: the editor holds a new
    // document, which is added (or replaces the entry of its name) rather than updating the entry
    // mirrored so far. Returns the architecture as named in the session.
    Architecture mirrorEditedArchitecture(Architecture arch, bool reloaded);
    // The same for the workload editor's workload (distinctWorkloadName: an editor's "spmm" and a
    // session's "spmm" of other sizes never share the name). Returns the workload as named.
    Workload mirrorEditedWorkload(Workload workload, bool reloaded);
    // The architecture entry the editor shows now (opened from the project panel), or -1 for none.
    void setEditedArchitecture(int index) { m_editedArchitecture = index; }
    void setEditedWorkload(int index) { m_editedWorkload = index; }

    // Asks for point `pointIndex` of `run` in the Design view (whoever shows designs answers
    // designRequested; the Compare table and the project panel ask through here).
    void requestDesign(RunId run, std::int64_t pointIndex, bool bringToFront = true);

signals:
    void runAdded(sparsemap::ui::RunId run);
    void runRemoved(sparsemap::ui::RunId run);
    void runChanged(sparsemap::ui::RunId run); // renamed in place
    void runsChanged();                        // after any runAdded, runRemoved or runChanged
    void pinsChanged();                        // a pin added, removed or renamed
    void workloadsChanged();                   // a workload added, removed or edited
    void architecturesChanged();               // an architecture added, removed or edited
    // The design the Design view shows is now point `pointIndex` of `run` (None, -1: of no session run).
    void shownDesignChanged(sparsemap::ui::RunId run, qint64 pointIndex);
    void designRequested(sparsemap::ui::RunId run, qint64 pointIndex, bool bringToFront);

private:
    ProjectStore* m_store;
    std::vector<RunId> m_leaving;  // ids of the runs being removed, between the store's two signals
    int m_editedArchitecture = -1; // the session entries the editors mirror
    int m_editedWorkload = -1;
    RunId m_explorationRun = RunId::None;
    RunId m_shownRun = RunId::None;
    std::int64_t m_shownPoint = -1;
};

} // namespace sparsemap::ui
