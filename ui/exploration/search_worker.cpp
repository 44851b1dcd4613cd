#include "search_worker.hpp"

#include "search/method_registry.hpp"
#include "search/optimizer.hpp"

#include "common/background_job.hpp"
#include "common/post_to_owner.hpp"

#include <QPointer>
#include <QPromise>
#include <exception>

namespace sparsemap::ui {

SearchWorker::SearchWorker(QObject* parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcherBase::finished, this, &SearchWorker::onFutureFinished);
}

SearchWorker::~SearchWorker()
{
    cancel();
    m_watcher.waitForFinished();
}

bool SearchWorker::start(std::shared_ptr<const GenomeLayout> layout, const std::string& method,
                         const search::SearchSettings& settings)
{
    if (m_running)
        return false;
    // Built here so that an unknown name fails on the caller's thread, with the caller's handler.
    std::shared_ptr<search::Optimizer> optimizer = search::makeOptimizer(method);
    m_cancel = std::make_shared<search::CancelToken>();
    m_running = true;
    emit started();

    // The worker posts to `self`; the destructor waits for the run, so `self` outlives the posts,
    // and Qt drops events still queued for a deleted object.
    QPointer<SearchWorker> self(this);
    auto cancel = m_cancel;
    using Result = std::shared_ptr<const search::SearchResult>;
    // Below the GUI thread (so are its arena's workers).
    auto future = runInBackgroundWithPromise<Result>([self, layout, optimizer, settings,
                                                      cancel](QPromise<Result>& promise) {
        auto onProgress = [self](const search::GenerationStats& stats) {
            postToOwner(self, [stats](SearchWorker& worker) { emit worker.progressed(stats); });
        };
        // One batch per generation: the view accumulates them and redraws on its own timer.
        auto onPoints = [self](const search::PointLog& log, std::size_t first) {
            auto batch = std::make_shared<search::PointLog>();
            batch->append(log, first);
            postToOwner(self, [batch = PointBatch(std::move(batch))](SearchWorker& worker) {
                emit worker.pointsArrived(batch);
            });
        };
        try {
            promise.addResult(std::make_shared<const search::SearchResult>(
                search::runSearch(*optimizer, *layout, settings, {}, cancel.get(), onProgress, onPoints)));
        } catch (const std::exception& e) {
            const QString message = QString::fromStdString(e.what());
            postToOwner(self, [message](SearchWorker& worker) { emit worker.failed(message); });
        }
    });
    m_watcher.setFuture(future);
    return true;
}

void SearchWorker::cancel()
{
    if (m_cancel)
        m_cancel->cancel();
}

void SearchWorker::onFutureFinished()
{
    m_running = false;
    const auto future = m_watcher.future();
    if (future.resultCount() > 0)
        emit finished(future.result());
}

} // namespace sparsemap::ui
