// ProjectStore's session files, apart from its in-memory edits (project_store.cpp).
#include "common/background_job.hpp"
#include "common/guarded.hpp"
#include "common/post_to_owner.hpp"
#include "io/session_io.hpp"
#include "project_store.hpp"

#include <algorithm>
#include <thread>

namespace sparsemap::ui {

namespace {

// A file job's codec threads: every core. They run below the GUI thread's priority
// (util::BackgroundArena), so the GUI thread still gets a core to repaint on when it needs one.
int fileJobThreads()
{
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

} // namespace

// A save or load on a worker thread: its cancel token, its outcome, and the watcher that reports the end.
struct ProjectStore::FileJob {
    bool loading = false;
    QString path;
    search::CancelToken cancel;
    QString error;
    std::unique_ptr<Session> loaded;
    QFutureWatcher<void> watcher;
};

// Queued, so that the watcher is not deleted inside its own signal; a job that
// waitForFileOperation finished already is not finished twice.
void ProjectStore::watchFileJob(FileJob* job)
{
    connect(
        &job->watcher, &QFutureWatcher<void>::finished, this,
        [this, job] {
            if (m_fileJob.get() == job)
                finishFileJob();
        },
        Qt::QueuedConnection);
}

ProjectStore::ProjectStore(QObject* parent) : QObject(parent) {}

ProjectStore::~ProjectStore()
{
    if (m_fileJob) {
        m_fileJob->cancel.cancel();
        m_fileJob->watcher.disconnect();
        m_fileJob->watcher.waitForFinished();
    }
}

bool ProjectStore::loadInBackground(const QString& path)
{
    if (m_fileJob)
        return false;
    m_fileJob = std::make_unique<FileJob>();
    m_fileJob->loading = true;
    m_fileJob->path = path;
    FileJob* job = m_fileJob.get();
    const QPointer<ProjectStore> self(this);
    watchFileJob(job);
    job->watcher.setFuture(runInBackground([job, self] {
        IoControl control;
        control.cancel = &job->cancel;
        control.threads = fileJobThreads();
        control.progress = [self](double f) {
            postToOwner(self, [f](ProjectStore& s) { emit s.fileProgress(f); });
        };
        try {
            job->loaded = std::make_unique<Session>(loadSessionFile(job->path.toStdString(), &control));
        } catch (const OperationCancelled&) {
            job->error = "cancelled";
        } catch (const std::exception& e) {
            job->error = QString::fromStdString(e.what());
        }
    }));
    return true;
}

bool ProjectStore::saveInBackground(const QString& path)
{
    if (m_fileJob)
        return false;
    m_fileJob = std::make_unique<FileJob>();
    m_fileJob->path = path;
    FileJob* job = m_fileJob.get();
    const QPointer<ProjectStore> self(this);
    const Session* session = &m_session; // unchanged until finishFileJob (see isBusy)
    watchFileJob(job);
    job->watcher.setFuture(runInBackground([job, self, session] {
        IoControl control;
        control.cancel = &job->cancel;
        control.threads = fileJobThreads();
        control.progress = [self](double f) {
            postToOwner(self, [f](ProjectStore& s) { emit s.fileProgress(f); });
        };
        try {
            saveSessionFile(*session, job->path.toStdString(), PointLogEncoding::Compact, &control);
        } catch (const OperationCancelled&) {
            job->error = "cancelled";
        } catch (const std::exception& e) {
            job->error = QString::fromStdString(e.what());
        }
    }));
    return true;
}

void ProjectStore::cancelFileOperation()
{
    if (m_fileJob)
        m_fileJob->cancel.cancel();
}

void ProjectStore::waitForFileOperation()
{
    if (!m_fileJob)
        return;
    m_fileJob->watcher.waitForFinished();
    finishFileJob();
}

void ProjectStore::finishFileJob()
{
    if (!m_fileJob)
        return; // waitForFileOperation finished it already
    const std::unique_ptr<FileJob> job = std::move(m_fileJob);
    if (job->error.isEmpty()) {
        if (job->loading) {
            replaceSession(std::move(*job->loaded), job->path);
        } else {
            if (m_filePath != job->path) {
                m_filePath = job->path;
                emit filePathChanged(job->path);
            }
            setModified(false);
        }
    }
    emit fileFinished(job->error, job->loading);
}

QString ProjectStore::load(const QString& path)
{
    // Parsed completely before anything is replaced: a bad file changes nothing.
    return guarded([&] { replaceSession(loadSessionFile(path.toStdString()), path); });
}

QString ProjectStore::save()
{
    if (m_filePath.isEmpty())
        return "The session has no file yet: use Save As.";
    return saveAs(m_filePath);
}

QString ProjectStore::saveAs(const QString& path)
{
    // Atomic: an error leaves the old file as it was.
    if (QString error = guarded([&] { saveSessionFile(m_session, path.toStdString()); }); !error.isEmpty())
        return error;
    if (m_filePath != path) {
        m_filePath = path;
        emit filePathChanged(path);
    }
    setModified(false);
    return {};
}

} // namespace sparsemap::ui
