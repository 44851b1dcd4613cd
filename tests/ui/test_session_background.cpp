// Long session files never stop the GUI: ProjectStore saves and loads a session of 1,000,000 points
// (three runs, the 63-gene mm13 genome on the cloud preset) on a worker thread while a 10 ms QTimer
// heartbeat on the GUI thread measures the longest gap between its ticks and the GUI thread's CPU time
// between them; neither may exceed 100 ms. The loaded runs are then shown in the Exploration view (their
// maps made from every point) under the same heartbeat: 100 ms of GUI-thread work at a time, 250 ms of
// wall-clock gap for a loaded machine (see there).
// The loaded session equals the saved one; a cancelled save leaves the old file, a cancelled load the
// old session.
#include "io/session_io.hpp"
#include "io/workload_io.hpp"
#include "exploration/design_space_plot_view.hpp"
#include "exploration/exploration_view.hpp"
#include "project/project_store.hpp"

#include "io/architecture_io.hpp"
#include "gui_heartbeat.hpp"
#include "synthetic_session.hpp"
#include "util/background_threads.hpp"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <filesystem>
#include <random>

using namespace sparsemap;
using namespace sparsemap::ui;

namespace {

using test::Heartbeat;

// Runs the event loop until the store's operation finishes; returns its error and the heartbeat.
QString waitWithHeartbeat(ProjectStore& store, qint64& longestGap, double& longestCpu, qint64& elapsedMs,
                          int& ticks)
{
    QSignalSpy finished(&store, &ProjectStore::fileFinished);
    Heartbeat beat;
    while (finished.isEmpty() && beat.clock.elapsed() < 120000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents); // sleeps as exec() does
    beat.finish();
    longestGap = beat.longest;
    longestCpu = beat.longestCpu;
    elapsedMs = beat.clock.elapsed();
    ticks = beat.ticks;
    return finished.isEmpty() ? QString("timed out") : finished.first().first().toString();
}

} // namespace

class TestSessionBackground : public QObject {
    Q_OBJECT
private slots:
    // As in the workbench (MainWindow): the file jobs and the maps run below the GUI thread.
    void initTestCase() { util::setWorkersInBackground(true); }

    void millionPointsSaveAndLoadWithoutBlocking()
    {
        const Workload w = loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/mm13.yaml");
        const Architecture a = loadPreset("cloud");
        ProjectStore store;
        // 1,000,000 points in three runs, as after three long (cancelled) searches. For the issue's
        // 3 x 2M measurement: SPARSEMAP_HEARTBEAT_POINTS=6000000.
        const int total = qEnvironmentVariableIsSet("SPARSEMAP_HEARTBEAT_POINTS")
                              ? qEnvironmentVariableIntValue("SPARSEMAP_HEARTBEAT_POINTS")
                              : 1000000;
        store.addRun(test::syntheticRun("r1", w, a, total - 2 * (total / 3), 1));
        store.addRun(test::syntheticRun("r2", w, a, total / 3, 2));
        store.addRun(test::syntheticRun("r3", w, a, total / 3, 3));
        const Session saved = store.session();

        const QTemporaryDir dir;
        const QString path = dir.path() + "/big.session.yaml";
        QSignalSpy progress(&store, &ProjectStore::fileProgress);
        QVERIFY(store.saveInBackground(path));
        QVERIFY(store.isBusy());
        QVERIFY(!store.saveInBackground(path)); // one at a time
        qint64 gap = 0, ms = 0;
        double cpu = 0;
        int ticks = 0;
        QCOMPARE(waitWithHeartbeat(store, gap, cpu, ms, ticks), QString());
        const auto bytes = std::filesystem::file_size(path.toStdString());
        qInfo("save: %lld ms, longest GUI gap %lld ms, %.0f ms of GUI-thread CPU, %d heartbeats, %d progress "
              "reports, %.1f MB, %.1f bytes per point",
              ms, gap, cpu, ticks, int(progress.size()), double(bytes) / 1e6, double(bytes) / double(total));
        QVERIFY2(gap <= 100, qPrintable(QString("the GUI thread stalled %1 ms while saving").arg(gap)));
        QVERIFY2(cpu <= 100,
                 qPrintable(QString("the GUI thread worked %1 ms at a time while saving").arg(cpu)));
        QVERIFY(progress.size() >= 10);
        QVERIFY(!store.isModified());
        QCOMPARE(store.filePath(), path);

        ProjectStore other;
        progress.clear();
        QSignalSpy otherProgress(&other, &ProjectStore::fileProgress);
        QVERIFY(other.loadInBackground(path));
        QCOMPARE(waitWithHeartbeat(other, gap, cpu, ms, ticks), QString());
        qInfo("load: %lld ms, longest GUI gap %lld ms, %.0f ms of GUI-thread CPU, %d heartbeats", ms, gap,
              cpu, ticks);
        QVERIFY2(gap <= 100, qPrintable(QString("the GUI thread stalled %1 ms while loading").arg(gap)));
        QVERIFY2(cpu <= 100,
                 qPrintable(QString("the GUI thread worked %1 ms at a time while loading").arg(cpu)));
        QVERIFY(otherProgress.size() >= 10);
        const Session& loaded = other.session();
        QCOMPARE(loaded.runs.size(), std::size_t(3));
        for (std::size_t r = 0; r < 3; ++r) {
            const auto& x = saved.runs[r].result.points;
            const auto& y = loaded.runs[r].result.points;
            QCOMPARE(y.size(), x.size());
            for (std::size_t i = 0; i < x.size(); i += 997) { // a sample; test_session_io checks every field
                QCOMPARE(y[i].genome, x[i].genome);
                QVERIFY(y[i].edp == x[i].edp && y[i].cycles == x[i].cycles && y[i].energyPj == x[i].energyPj);
                QCOMPARE(y[i].reason, x[i].reason);
            }
            QCOMPARE(loaded.runs[r].result.bestIndex, saved.runs[r].result.bestIndex);
        }

        // Showing the loaded runs in the Exploration view (what opening one from the project panel
        // does) keeps the GUI painting too: the run's points are shared, not copied, and the design-space
        // map (PCA of every point) and the energy-delay front are made on a worker thread.
        ExplorationView view;
        view.resize(1400, 850);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (std::size_t r = 0; r < 3; ++r) {
            const RunRecord& run = other.session().runs[r];
            QSignalSpy refreshed(&view, &ExplorationView::plotsRefreshed);
            Heartbeat beat;
            QTimer::singleShot(0, &view, [&] { view.showRun(run); }); // inside the measured loop
            while ((refreshed.isEmpty() || view.isPreparingPlots()) && beat.clock.elapsed() < 120000)
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents); // sleeps as exec() does
            const qint64 drawnMs = beat.clock.elapsed();
            // The replot the new dots asked for is painted within the measurement too.
            QElapsedTimer paint;
            paint.start();
            while (paint.elapsed() < 300)
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents); // sleeps as exec() does
            beat.finish();
            qInfo("show run %d (%zu points, %zu dots drawn): maps made in %lld ms, longest GUI gap %lld ms, "
                  "%.0f ms of GUI-thread CPU (with the paint)",
                  int(r) + 1, run.result.points.size(), view.designSpacePlot()->drawnCount(), drawnMs,
                  beat.longest, beat.longestCpu);
            QVERIFY(!refreshed.isEmpty());
            // The work the GUI thread does at a time is held to the 100 ms, as for save and load
            // (28-44 ms of CPU on an idle 2-core machine: painting ~6,000 dots, the curves and the shown
            // design). The wall-clock gap adds the time the thread waits for a core: 34-68 ms idle,
            // 50-148 ms at load 6 (docs/results/session-speed.md), so 250 ms are allowed there. Any work
            // per point on the GUI thread fails both many times over: painting every dot took 1.5-5.6 s
            // a run, the PCA on the GUI thread ~1 s.
            QVERIFY2(beat.longestCpu <= 100,
                     qPrintable(QString("the GUI thread worked %1 ms at a time showing run %2")
                                    .arg(beat.longestCpu, 0, 'f', 0)
                                    .arg(r + 1)));
            QVERIFY2(
                beat.longest <= 250,
                qPrintable(
                    QString("the GUI thread stalled %1 ms showing run %2").arg(beat.longest).arg(r + 1)));
            QCOMPARE(view.designSpacePlot()->pointCount(), int(run.result.points.size()));
            QVERIFY(view.points().sharesColumnsWith(run.result.points)); // shown, not copied
        }
    }

    void cancelKeepsFileAndSession()
    {
        const Workload w = loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/conv4.yaml");
        const Architecture a = loadPreset("cloud");
        const QTemporaryDir dir;
        const QString path = dir.path() + "/kept.session.yaml";
        ProjectStore store;
        store.addRun(test::syntheticRun("small", w, a, 1000, 4));
        QCOMPARE(store.saveAs(path), QString());
        const QByteArray before = [&] {
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }();
        store.addRun(test::syntheticRun("big", w, a, 300000, 5));
        QVERIFY(store.saveInBackground(path));
        store.cancelFileOperation();
        QSignalSpy finished(&store, &ProjectStore::fileFinished);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toString(), QString("cancelled"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        QVERIFY(store.isModified());

        // A cancelled load keeps the session as it is (a file big enough that the cancel comes first).
        const QString big = dir.path() + "/big.session.yaml";
        QCOMPARE(store.saveAs(big), QString());
        QVERIFY(store.loadInBackground(big));
        store.cancelFileOperation();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.last().first().toString(), QString("cancelled"));
        QCOMPARE(store.session().runs.size(), std::size_t(2));

        // Waiting for an operation finishes it at once (used when closing).
        QVERIFY(store.loadInBackground(path));
        store.waitForFileOperation();
        QVERIFY(!store.isBusy());
        QCOMPARE(store.session().runs.size(), std::size_t(1));
    }
};

QTEST_MAIN(TestSessionBackground)
#include "test_session_background.moc"
