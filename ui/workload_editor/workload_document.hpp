#pragma once
// The workload being edited: owns the Workload, its undo stack and its file. Every edit is one undo
// command that replaces the whole workload (a workload is small, and that makes undo exact); edit()
// refuses a workload that is newly invalid, so the document never stores a value the user could not
// save. The item models parse their cells and hand the resulting workload to edit().
#include "workload/workload.hpp"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QUndoStack>

namespace sparsemap::ui {

class WorkloadDocument : public QObject {
    Q_OBJECT
public:
    // How edit() judges the new workload.
    enum class Check {
        RefuseNewProblems, // value edits: refused when they add any workloadProblems() entry
        AllowIncomplete,   // adding a dim or a tensor: the user completes the general workload next
    };

    explicit WorkloadDocument(QObject* parent = nullptr);

    const Workload& workload() const { return m_workload; }
    QUndoStack* undoStack() { return &m_undoStack; }
    QString filePath() const { return m_filePath; }
    bool isModified() const { return !m_undoStack.isClean(); }

    // The bundled sample workloads (samples/workloads/*.yaml): the paper's mm1..mm15 and conv1..conv13
    // in numeric order, then the others by name.
    static QString samplesDirectory();
    static QStringList sampleNames();
    static QString samplePath(const QString& name);

    // Each returns an empty string on success, else the message to show; the document is unchanged on
    // failure. Loading and New start a fresh undo history. A sample has no file path (Save asks for
    // one), so a bundled sample is never overwritten by accident.
    QString loadSample(const QString& name);
    QString loadFile(const QString& path);
    // A workload from elsewhere (the session); refused with its problems when invalid.
    QString loadWorkload(const Workload& workload);
    QString save(); // to filePath(); an error when there is none
    QString saveAs(const QString& path);
    void newWorkload(WorkloadKind kind);
    static Workload defaultWorkload(WorkloadKind kind);

    // One undoable edit: empty on success, else why `after` was refused (nothing is stored).
    QString edit(Workload after, const QString& text, Check check = Check::RefuseNewProblems);
    // Sets input `tensor`'s density to the `actual` pattern of a Matrix Market or 0/1 mask file. A
    // relative `path` is taken relative to the workload file's folder. Refused when the file cannot be
    // read or its shape differs from the tensor's.
    QString setActualDensity(int tensor, const QString& path);
    // Turns an SpMM / SpConv / batched workload into the general form, so that its dims and tensors
    // can be edited one by one.
    QString convertToGeneral();

    // For the undo commands only: the single place where the workload changes.
    void applyWorkload(const Workload& workload);

signals:
    // Around a change of the number of rows of some table (kind, dims or tensors); models reset.
    void aboutToReset();
    void reset();
    void changed(); // after any change
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);

private:
    void replaceAll(Workload workload, const QString& path);

    Workload m_workload;
    QUndoStack m_undoStack;
    QString m_filePath;
};

} // namespace sparsemap::ui
