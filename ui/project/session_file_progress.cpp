#include "session_file_progress.hpp"

#include "project_store.hpp"

#include <QApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QProgressDialog>

namespace sparsemap::ui {

QString runSessionFileOperation(ProjectStore* store, QWidget* parent, SessionFileOperation operation,
                                const QString& path)
{
    const bool loading = operation == SessionFileOperation::Load;
    // Listening before anything starts: a modal progress dialog processes events in setValue(), so the
    // end can arrive before the loop runs.
    QString error;
    bool done = false;
    QEventLoop loop;
    const auto finished =
        QObject::connect(store, &ProjectStore::fileFinished, &loop, [&](const QString& message, bool) {
            error = message;
            done = true;
            loop.quit();
        });
    const bool started = loading ? store->loadInBackground(path) : store->saveInBackground(path);
    if (!started) {
        QObject::disconnect(finished);
        return "Another session file is being saved or opened; wait for it to finish.";
    }

    QProgressDialog progress(
        QString("%1 %2...").arg(loading ? "Opening" : "Saving", QFileInfo(path).fileName()), "Cancel", 0,
        1000, parent);
    progress.setWindowTitle(loading ? "Open session" : "Save session");
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(400); // a small session finishes before the dialog would flash up
    progress.setAutoClose(false);
    progress.setAutoReset(false);
    QObject::connect(&progress, &QProgressDialog::canceled, store, &ProjectStore::cancelFileOperation);
    const auto progressConnection =
        QObject::connect(store, &ProjectStore::fileProgress, &progress,
                         [&progress](double f) { progress.setValue(int(f * 1000)); });
    QApplication::setOverrideCursor(Qt::BusyCursor);
    progress.setValue(0);
    if (!done)
        loop.exec(); // the window-modal dialog keeps input away from the rest of the window
    QObject::disconnect(finished);
    QObject::disconnect(progressConnection);
    QApplication::restoreOverrideCursor();
    return error;
}

} // namespace sparsemap::ui
