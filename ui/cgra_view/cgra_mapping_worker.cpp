#include "cgra_mapping_worker.hpp"

#include "common/background_job.hpp"
#include "common/post_to_owner.hpp"

#include <QPointer>
#include <QPromise>

#include <exception>

namespace sparsemap::ui {

CgraMappingWorker::CgraMappingWorker(QObject* parent) : QObject(parent)
{
    connect(&m_watcher, &QFutureWatcherBase::resultReadyAt, this,
            [this](int index) { emit mappingReady(m_watcher.resultAt(index)); });
    connect(&m_watcher, &QFutureWatcherBase::progressValueChanged, this,
            [this](int value) { emit progressed(value, m_total); });
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
        m_running = false;
        emit finished(m_watcher.isCanceled());
    });
}

CgraMappingWorker::~CgraMappingWorker()
{
    cancel();
    m_watcher.waitForFinished();
}

bool CgraMappingWorker::start(std::vector<cgra::SparseBlock> blocks, const cgra::CgraSpec& cgra,
                              std::vector<cgra::MappingVariant> variants)
{
    if (m_running)
        return false;
    m_running = true;
    m_total = int(blocks.size() * variants.size());
    QPointer<CgraMappingWorker> self(this);
    auto future = runInBackgroundWithPromise<cgra::BlockMapping>(
        [self, blocks = std::move(blocks), cgra,
         variants = std::move(variants)](QPromise<cgra::BlockMapping>& promise) {
            promise.setProgressRange(0, int(blocks.size() * variants.size()));
            int done = 0;
            try {
                for (const auto& block : blocks)
                    for (auto variant : variants) {
                        if (promise.isCanceled())
                            return;
                        cgra::MappingOptions options;
                        options.variant = variant;
                        options.cancelled = [&promise] { return promise.isCanceled(); };
                        auto mapped = cgra::mapBlock(block, cgra, options);
                        if (mapped.cancelled)
                            return;
                        promise.addResult(std::move(mapped));
                        promise.setProgressValue(++done);
                    }
            } catch (const std::exception& e) {
                const QString message = QString::fromStdString(e.what());
                postToOwner(self, [message](CgraMappingWorker& worker) { emit worker.failed(message); });
            }
        });
    m_watcher.setFuture(future);
    return true;
}

void CgraMappingWorker::cancel()
{
    if (m_running)
        m_watcher.cancel();
}

} // namespace sparsemap::ui
