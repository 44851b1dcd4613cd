#pragma once
// The open session: the architectures, workloads, runs and pinned designs the project panel lists,
// the session file it came from, and whether it has unsaved changes. The views change it only
// through this object, which tells the item models what changed.
#include "session/session.hpp"

#include <QObject>
#include <QString>

namespace sparsemap::ui {

class ProjectStore : public QObject {
    Q_OBJECT
public:
    enum class Group { Architectures, Workloads, Runs, Pinned };

    explicit ProjectStore(QObject* parent = nullptr);

    const Session& session() const { return m_session; }
    QString filePath() const { return m_filePath; }
    bool isModified() const { return m_modified; }
    int count(Group group) const;

    // Adds `arch`, or replaces the entry of the same name; returns its index.
    int upsertArchitecture(const Architecture& arch);
    void updateArchitecture(int index, const Architecture& arch);
    int upsertWorkload(const Workload& workload);
    void updateWorkload(int index, const Workload& workload);
    // Adds a run, renaming it "<name> (2)", "(3)", ... when the name is taken; returns its index.
    int addRun(RunRecord run);
    // Pins a point of a run under `name` (made unique like run names); returns the pin's index.
    int pin(int run, std::int64_t pointIndex, const std::string& name);
    // Removes an entry; removing a run also removes its pins. Out-of-range indices are ignored.
    void remove(Group group, int index);
    void rename(Group group, int index, const std::string& name);

    // Session files (core/io/session_io.hpp). Each returns an empty string on success, else the
    // message; the session is unchanged when loading fails, the file untouched when saving fails.
    QString load(const QString& path);
    QString save(); // to filePath(); an error when there is none
    QString saveAs(const QString& path);
    void clear();     // a new, empty, unmodified session without a file
    void markClean(); // what the session holds now counts as saved

signals:
    void groupAboutToChange(sparsemap::ui::ProjectStore::Group group);
    void groupChanged(sparsemap::ui::ProjectStore::Group group);
    // One entry changed in place (edited, renamed); the group's rows stay as they are.
    void entryChanged(sparsemap::ui::ProjectStore::Group group, int index);
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);

private:
    // Runs `edit` on the session between the group's change signals and marks the session modified.
    template <typename Edit> void change(Group group, Edit&& edit);
    // Runs `edit` on one entry in place, announces it and marks the session modified.
    template <typename Edit> void changeEntry(Group group, int index, Edit&& edit);
    void setModified(bool modified);
    void replaceSession(Session session, const QString& path);

    Session m_session;
    QString m_filePath;
    bool m_modified = false;
};

} // namespace sparsemap::ui
