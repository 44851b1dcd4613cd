#pragma once
// The architecture being edited: owns the Architecture, its undo stack and its file. Every edit goes
// through the undo stack (see architecture_commands.hpp); the commands call the apply* functions below,
// which announce structural changes before and after they happen so that item models can wrap them in
// beginInsertRows / endInsertRows.
#include "arch/architecture.hpp"

#include <QObject>
#include <QString>
#include <QUndoStack>

namespace sparsemap::ui {

class ArchitectureDocument : public QObject {
    Q_OBJECT
public:
    explicit ArchitectureDocument(QObject* parent = nullptr);

    const Architecture& architecture() const { return m_arch; }
    QUndoStack* undoStack() { return &m_undoStack; }
    QString filePath() const { return m_filePath; }
    bool isModified() const { return !m_undoStack.isClean(); }

    // Each returns an empty string on success, else the message to show; the document is unchanged
    // on failure. Loading starts a fresh undo history: undoing into another file would be confusing.
    QString loadPreset(const QString& name);
    QString loadFile(const QString& path);
    // An architecture from elsewhere (the session); refused with the core's problems when invalid.
    QString loadArchitecture(const Architecture& arch);
    QString save(); // to filePath(); an error when there is none
    QString saveAs(const QString& path);

    // For the undo commands only: the single place where the architecture changes.
    void applyArchitecture(const Architecture& arch); // same number of levels
    void applyInsertLevels(int row, const std::vector<StorageLevel>& levels);
    void applyRemoveLevels(int row, int count);

signals:
    void aboutToReset();
    void reset();
    void levelsAboutToBeInserted(int first, int last);
    void levelsInserted(int first, int last);
    void levelsAboutToBeRemoved(int first, int last);
    void levelsRemoved(int first, int last);
    void levelChanged(int row);
    void computeChanged(); // compute unit, clock or name
    void changed();        // after any of the above
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);

private:
    void replaceAll(Architecture arch, const QString& path);

    Architecture m_arch;
    QUndoStack m_undoStack;
    QString m_filePath;
};

} // namespace sparsemap::ui
