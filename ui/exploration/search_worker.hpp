#pragma once
// Runs one search off the GUI thread (QtConcurrent::run with a QPromise) and reports back on the GUI
// thread: progress per generation, the points of every generation as one batch, and the final result.
// The core calls its callbacks on the search thread, so they only copy and post; every signal below
// is emitted on the thread this object lives in, never touching widgets from the worker.
#include "genome/genome_layout.hpp"
#include "search/search_types.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <memory>
#include <string>
#include <vector>

namespace sparsemap::ui {

using PointBatch = std::shared_ptr<const search::PointLog>;

class SearchWorker : public QObject {
    Q_OBJECT
public:
    explicit SearchWorker(QObject* parent = nullptr);
    ~SearchWorker() override; // cancels a running search and waits for it

    // Starts `method` on `layout`; returns false (and does nothing) while a search is running.
    // Throws InputError for an unknown method, before anything starts.
    bool start(std::shared_ptr<const GenomeLayout> layout, const std::string& method,
               const search::SearchSettings& settings);
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    void started();
    void progressed(const sparsemap::search::GenerationStats& stats);
    void pointsArrived(const sparsemap::ui::PointBatch& batch);
    void finished(std::shared_ptr<const sparsemap::search::SearchResult> result);
    void failed(const QString& message);

private:
    void onFutureFinished();

    // The result is made shared on the worker: the GUI thread never copies a run of millions of points.
    QFutureWatcher<std::shared_ptr<const search::SearchResult>> m_watcher;
    std::shared_ptr<search::CancelToken> m_cancel;
    bool m_running = false;
};

} // namespace sparsemap::ui
