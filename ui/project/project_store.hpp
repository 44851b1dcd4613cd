#pragma once
// The open session: the architectures, workloads, runs and pinned designs the project panel lists,
// the session file it came from, and whether it has unsaved changes. The views change it only
// through this object (or the SessionController in front of it), which tells the item models what
// changed, row by row.
//
// Run ids: every run gets a RunId when it enters the store (added, or read with a session file). Ids
// are never reused while the program runs (a reopened file's runs get new ones); they are not written
// to session files, whose pins name their run. A pin refers to its run by id; the run index in
// `session().pinned[i].run` (what core/io and the Compare table read) is derived from that id
// whenever the runs change, never renumbered on its own.
#include "session/session.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <memory>

namespace sparsemap::ui {

// A run's identity in the open session, stable while runs before it are removed. None is no run.
// quint64, not std::uint64_t (unsigned long here): the signals' metatype needs QDataStream operators.
enum class RunId : quint64 { None = 0 };

class ProjectStore : public QObject {
    Q_OBJECT
public:
    enum class Group { Architectures, Workloads, Runs, Pinned };

    explicit ProjectStore(QObject* parent = nullptr);
    ~ProjectStore() override;

    const Session& session() const { return m_session; }
    QString filePath() const { return m_filePath; }
    bool isModified() const { return m_modified; }
    int count(Group group) const;

    // Adds `arch`, or replaces the entry of the same name; returns its index.
    int upsertArchitecture(const Architecture& arch);
    void updateArchitecture(int index, const Architecture& arch);
    int upsertWorkload(const Workload& workload);
    void updateWorkload(int index, const Workload& workload);
    // Adds a run, renaming it "<name> (2)", "(3)", ... when the name is taken and giving it a colour
    // no other run has (core's addRunToSession); returns its index (its id is runId(index)).
    int addRun(RunRecord run);
    // Pins a point of a run under `name` (made unique like run names); returns the pin's index, or -1
    // when there is no such run or point.
    int pin(RunId run, std::int64_t pointIndex, const std::string& name);
    int pin(int run, std::int64_t pointIndex, const std::string& name)
    {
        return pin(runId(run), pointIndex, name);
    }
    // Removes an entry; removing a run also removes its pins. Out-of-range indices are ignored.
    void remove(Group group, int index);
    void removeRun(RunId run) { remove(Group::Runs, runIndex(run)); }

    // Run ids: runId() is None for an index out of range, runIndex() -1 for an id not in the session.
    RunId runId(int index) const;
    int runIndex(RunId run) const;
    RunId pinnedRun(int pin) const; // the run pin `pin` belongs to
    void rename(Group group, int index, const std::string& name);
    // What the Exploration view searches (names of session entries, saved with the session); it
    // follows renames, and a removed entry leaves it.
    void setSelection(const ExplorationSelection& selection);

    // Session files (core/io/session_io.hpp). Each returns an empty string on success, else the
    // message; the session is unchanged when loading fails, the file untouched when saving fails.
    QString load(const QString& path);
    QString save(); // to filePath(); an error when there is none
    QString saveAs(const QString& path);
    void clear();     // a new, empty, unmodified session without a file
    void markClean(); // what the session holds now counts as saved

    // The same off the GUI thread, for sessions of millions of points: progress comes as
    // fileProgress, the end as fileFinished (the session replaced, or the file written). While
    // isBusy() the session must not change (a save reads it from the worker): callers hold edits
    // back until fileFinished. Returns false (nothing started) when a file operation is under way.
    bool loadInBackground(const QString& path);
    bool saveInBackground(const QString& path);
    bool isBusy() const { return m_fileJob != nullptr; }
    // Stops the operation: a cancelled load changes nothing, a cancelled save leaves the file as it was.
    void cancelFileOperation();
    // Blocks until the operation has ended and its fileFinished has been emitted (closing, tests).
    void waitForFileOperation();

signals:
    // Entries first..last of a group are about to be inserted (or removed) / have been. Every
    // structural change is announced this way, a session file's load as the removal of every entry
    // and the insertion of the new ones; entries are only appended, but removed anywhere.
    void entriesAboutToBeInserted(sparsemap::ui::ProjectStore::Group group, int first, int last);
    void entriesInserted(sparsemap::ui::ProjectStore::Group group, int first, int last);
    void entriesAboutToBeRemoved(sparsemap::ui::ProjectStore::Group group, int first, int last);
    void entriesRemoved(sparsemap::ui::ProjectStore::Group group, int first, int last);
    // After any of the above: the group's entries are not what they were.
    void groupChanged(sparsemap::ui::ProjectStore::Group group);
    // One entry changed in place (edited, renamed); the group's rows stay as they are.
    void entryChanged(sparsemap::ui::ProjectStore::Group group, int index);
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);
    void fileProgress(double fraction);
    // `error` is empty on success, "cancelled" after cancelFileOperation(), else the message.
    void fileFinished(const QString& error, bool loading);

private:
    // Appends one entry with `edit` between the insertion signals; marks the session modified.
    template <typename Edit> void append(Group group, Edit&& edit);
    // Removes entry `index` with `edit` between the removal signals; marks the session modified.
    template <typename Edit> void erase(Group group, int index, Edit&& edit);
    // Runs `edit` on one entry in place, announces it and marks the session modified.
    template <typename Edit> void changeEntry(Group group, int index, Edit&& edit);
    void setModified(bool modified);
    void replaceSession(Session session, const QString& path);

    struct FileJob;
    void watchFileJob(FileJob* job);
    void finishFileJob();

    RunId newRunId() { return RunId(++m_lastRunId); }
    void derivePinIndices(); // session().pinned[i].run from m_pinRuns

    Session m_session;
    std::vector<RunId> m_runIds;  // one per session run
    std::vector<RunId> m_pinRuns; // one per pin: its run
    quint64 m_lastRunId = 0;
    QString m_filePath;
    bool m_modified = false;
    std::unique_ptr<FileJob> m_fileJob;
};

} // namespace sparsemap::ui
