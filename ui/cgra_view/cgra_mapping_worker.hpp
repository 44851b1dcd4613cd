#pragma once
// Maps a list of blocks x variants off the GUI thread (QtConcurrent::run with a QPromise): every mapping
// is streamed back as it completes (mappingReady, on the GUI thread), with progress and cancel. One
// C8K8 block takes a few milliseconds, but a hundred blocks times five variants, or larger blocks
// whose conflict graphs go to the exact solver, take seconds.
#include "cgra/block_mapper.hpp"

#include <QFutureWatcher>
#include <QObject>

#include <vector>

namespace sparsemap::ui {

class CgraMappingWorker : public QObject {
    Q_OBJECT
public:
    explicit CgraMappingWorker(QObject* parent = nullptr);
    ~CgraMappingWorker() override; // cancels and waits

    // Returns false (and does nothing) while a run is in progress.
    bool start(std::vector<cgra::SparseBlock> blocks, const cgra::CgraSpec& cgra,
               std::vector<cgra::MappingVariant> variants);
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    void mappingReady(const sparsemap::cgra::BlockMapping& mapping);
    void progressed(int done, int total);
    void finished(bool cancelled);
    void failed(const QString& message);

private:
    QFutureWatcher<cgra::BlockMapping> m_watcher;
    bool m_running = false;
    int m_total = 0;
};

} // namespace sparsemap::ui
