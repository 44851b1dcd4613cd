#pragma once
// The one way ui/ starts work on a worker thread: QtConcurrent::run with the thread lowered below the
// GUI thread first (util::enterBackground: the policy MainWindow sets), so that no job can forget it
// and a busy machine keeps the GUI responsive.
#include "util/background_threads.hpp"

#include <QFuture>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>
#include <utility>

namespace sparsemap::ui {

// `job()` on a pool thread in the background; its future.
template <typename Job> auto runInBackground(Job job)
{
    return QtConcurrent::run([job = std::move(job)]() mutable {
        util::enterBackground();
        return job();
    });
}

// `job(promise)` on a pool thread in the background, for jobs that report results, progress or
// cancellation through a QPromise<T>.
template <typename T, typename Job> QFuture<T> runInBackgroundWithPromise(Job job)
{
    return QtConcurrent::run([job = std::move(job)](QPromise<T>& promise) mutable {
        util::enterBackground();
        job(promise);
    });
}

// Lets a worker thread free what a large run's maps held (tooltips and coordinates of millions of
// points: hundreds of MB, tens of ms of unmapping) instead of the GUI thread; a no-op while another
// owner still holds it.
template <typename T> void releaseOffGuiThread(std::shared_ptr<T> held)
{
    if (held && held.use_count() == 1)
        (void)runInBackground([held = std::move(held)]() mutable { held.reset(); });
}

} // namespace sparsemap::ui
