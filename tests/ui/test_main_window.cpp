// The main window end to end (offscreen): the views are there, a run lands in the session's tree,
// sessions save and re-open with their runs, a bad session file changes nothing, and closing during a
// run stops it and keeps what it found.
#include "arch_editor/architecture_document.hpp"
#include "arch_editor/architecture_editor_panel.hpp"
#include "common/elided_label.hpp"
#include "compare/compare_view.hpp"
#include "exploration/convergence_plot_view.hpp"
#include "compare/run_table_model.hpp"
#include "design_view/design_view.hpp"
#include "exploration/exploration_view.hpp"
#include "project/project_panel.hpp"
#include "project/project_tree_model.hpp"
#include "workbench/main_window.hpp"
#include "workload_editor/workload_document.hpp"
#include "workload_editor/workload_editor_panel.hpp"

#include "io/architecture_io.hpp"

#include "gui_heartbeat.hpp"

#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using sparsemap::ui::MainWindow;
using Group = sparsemap::ui::ProjectStore::Group;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void hasEveryView();
    void editorsFeedTheSession();
    void runLandsInTheSession();
    void pinnedDesignsReachCompareAndDesignViews();
    void sessionSavesAndReopens();
    void badSessionChangesNothing();
    void closingDuringARunStopsAndKeepsIt();
    void explorationFollowsTheEditors();
    void editedPresetRunsCarryTheirArchitecture();
    void aboutShowsTheVersion();
    void smallScreenKeepsLegendsAndTitle();

private:
    static void runToy(MainWindow& window, int budget);
    QTemporaryDir m_dir;
};

void TestMainWindow::initTestCase()
{
    // Settings of the tests stay out of the user's.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("SparseMapTest");
    QCoreApplication::setApplicationName("MainWindowTest");
    QSettings().clear();
    QVERIFY(m_dir.isValid());
}

void TestMainWindow::runToy(MainWindow& window, int budget)
{
    auto* view = window.explorationView();
    view->setWorkloadPath(SPARSEMAP_SOURCE_DIR "/samples/workloads/toy.yaml");
    view->setPreset("edge");
    view->setMethod("sparsemap");
    view->setBudget(budget);
    view->startSearch();
    QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 60000);
}

void TestMainWindow::hasEveryView()
{
    MainWindow window;
    for (const char* name : {"architecture", "workload", "exploration", "design", "compare", "cgra"}) {
        QVERIFY2(window.showView(name), name);
        QCOMPARE(window.tabs()->tabText(window.tabs()->currentIndex()).remove('&').toLower(), QString(name));
    }
    QVERIFY(!window.showView("nonsense"));
    // A fresh window holds the start-up architecture and workload but nothing to save.
    QCOMPARE(window.project()->count(Group::Architectures), 1);
    QCOMPARE(window.project()->count(Group::Workloads), 1);
    QVERIFY(!window.project()->isModified());
}

void TestMainWindow::editorsFeedTheSession()
{
    MainWindow window;
    auto* arch = window.architectureEditor()->document();
    QVERIFY(arch->loadPreset("cloud").isEmpty());
    QCOMPARE(window.project()->count(Group::Architectures), 2); // edge (start-up) and cloud
    QCOMPARE(window.project()->session().architectures[1].name, std::string("cloud"));
    QVERIFY(window.project()->isModified());
    auto* workload = window.workloadEditor()->document();
    QVERIFY(workload->loadSample("mm3").isEmpty());
    QVERIFY(window.project()->count(Group::Workloads) >= 1);
    const auto& workloads = window.project()->session().workloads;
    QVERIFY(std::any_of(workloads.begin(), workloads.end(), [](const auto& w) { return w.name == "mm3"; }));
    // Opening an entry of the tree loads it into its editor.
    window.projectPanel()->activated(Group::Architectures, 0);
    QCOMPARE(arch->architecture().name, window.project()->session().architectures[0].name);
    QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(window.architectureEditor()));
}

void TestMainWindow::runLandsInTheSession()
{
    MainWindow window;
    runToy(window, 300);
    QCOMPARE(window.project()->count(Group::Runs), 1);
    const auto& run = window.project()->session().runs[0];
    QCOMPARE(run.method, std::string("sparsemap"));
    QCOMPARE(run.settings.budget, std::int64_t(300));
    QCOMPARE(int(run.result.points.size()), 300);
    QCOMPARE(run.workload.name, std::string("toy"));
    // The searched preset and workload joined the session's lists (edge was there already).
    QCOMPARE(window.project()->count(Group::Architectures), 1);
    const auto& workloads = window.project()->session().workloads;
    QVERIFY(std::any_of(workloads.begin(), workloads.end(), [](const auto& w) { return w.name == "toy"; }));
    auto* model = window.projectPanel()->model();
    QCOMPARE(model->rowCount(model->indexOf(Group::Runs)), 1);
    QVERIFY(window.project()->isModified());
    QVERIFY(window.windowTitle().contains("*"));
    // The run's best design is in the Design view, as a design of the stored run (so it can be pinned).
    QVERIFY(window.designView()->hasDesign());
    QVERIFY2(window.designView()->title().startsWith(QString::fromStdString(run.name)),
             qPrintable(window.designView()->title()));
    QCOMPARE(window.designView()->result().edp, run.result.best()->edp);
}

void TestMainWindow::pinnedDesignsReachCompareAndDesignViews()
{
    MainWindow window;
    runToy(window, 200);
    const auto& run = window.project()->session().runs[0];
    // A clicked point of the finished run is shown and can be pinned.
    const std::int64_t point = 17;
    window.explorationView()->showPoint(int(point));
    QVERIFY2(window.designView()->title().endsWith("#17"), qPrintable(window.designView()->title()));
    // "Open in Design view" brings that view to the front.
    QVERIFY(window.explorationView()->openDesignButton()->isEnabled());
    window.explorationView()->openDesignButton()->click();
    QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(window.designView()));
    window.pinShownDesign();
    QCOMPARE(window.project()->count(Group::Pinned), 1);
    QCOMPARE(window.project()->session().pinned[0].pointIndex, point);
    // The compare table lists the run and the pin.
    QCOMPARE(window.compareView()->model()->rowCount(), 2);
    // Opening the pin from the project panel shows that design, evaluated afresh: same EDP as logged.
    window.showView("exploration");
    window.projectPanel()->activated(Group::Pinned, 0);
    QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(window.designView()));
    const auto& logged = run.result.points[std::size_t(point)];
    QCOMPARE(window.designView()->result().valid, logged.valid);
    if (logged.valid)
        QCOMPARE(window.designView()->result().edp, logged.edp);
}

void TestMainWindow::sessionSavesAndReopens()
{
    const QString path = m_dir.filePath("a.session.yaml");
    std::vector<double> objectives;
    {
        MainWindow window;
        window.setAutoAnswer(QMessageBox::Discard);
        runToy(window, 200);
        QVERIFY(window.saveSessionAs(path).isEmpty());
        QVERIFY(!window.project()->isModified());
        for (const auto& p : window.project()->session().runs[0].result.points)
            objectives.push_back(p.objective);
    }
    MainWindow window;
    window.setAutoAnswer(QMessageBox::Discard);
    QVERIFY(window.openSession(path).isEmpty());
    QCOMPARE(window.project()->count(Group::Runs), 1);
    const auto& points = window.project()->session().runs[0].result.points;
    QCOMPARE(points.size(), objectives.size());
    for (std::size_t i = 0; i < points.size(); ++i)
        QCOMPARE(points[i].objective, objectives[i]);
    // Opening the session shows its last run in the exploration view.
    QCOMPARE(window.explorationView()->points().size(), objectives.size());
    // Opening the run again does not draw its curves twice.
    const int graphs = window.explorationView()->convergencePlot()->graphCount();
    QCOMPARE(graphs, 2); // best and population average
    window.projectPanel()->activated(Group::Runs, 0);
    QCOMPARE(window.explorationView()->convergencePlot()->graphCount(), graphs);
    // The session is remembered in the recent files.
    QVERIFY(QSettings().value("recentFiles").toStringList().join('\n').contains("a.session.yaml"));
}

void TestMainWindow::badSessionChangesNothing()
{
    MainWindow window;
    window.setAutoAnswer(QMessageBox::Ok);
    runToy(window, 100);
    const QString bad = m_dir.filePath("bad.session.yaml");
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("format: sparsemap-session\nversion: 1\nruns: [ {name: x\n");
    file.close();
    const QString error = window.openSession(bad);
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains("bad.session.yaml"), qPrintable(error));
    QCOMPARE(window.project()->count(Group::Runs), 1); // the run made before is still there
    QVERIFY(window.project()->filePath().isEmpty());
}

void TestMainWindow::closingDuringARunStopsAndKeepsIt()
{
    MainWindow window;
    auto* view = window.explorationView();
    view->setWorkloadPath(SPARSEMAP_SOURCE_DIR "/samples/workloads/mm3.yaml");
    view->setPreset("cloud");
    view->setMethod("sparsemap");
    view->setBudget(5'000'000);
    window.show();
    view->startSearch();
    QVERIFY(view->isRunning());
    // How long the run goes before the window is closed: 300 ms here; the case (a run of
    // millions of points) with SPARSEMAP_CLOSE_AFTER_MS=60000 (scripts/measure-session-speed.sh).
    const int runMs = qEnvironmentVariableIsSet("SPARSEMAP_CLOSE_AFTER_MS")
                          ? qEnvironmentVariableIntValue("SPARSEMAP_CLOSE_AFTER_MS")
                          : 300;
    QTest::qWait(runMs);
    window.setAutoAnswer(QMessageBox::Yes);
    // Closing asks (Yes), cancels, and closes again when the run has landed; the GUI keeps painting
    // meanwhile (the run's points are handed over, not copied, and no maps are drawn for a closing window).
    sparsemap::test::Heartbeat beat;
    window.close();
    window.setAutoAnswer(QMessageBox::Discard);
    qint64 landedMs = -1; // when the cancelled run has landed in the session
    while (window.isVisible() && beat.clock.elapsed() < 60000) {
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents); // sleeps as exec() does
        if (landedMs < 0 && !view->isRunning())
            landedMs = beat.clock.elapsed();
    }
    beat.finish();
    QVERIFY2(!window.isVisible(), "the window did not close within 60 s of being asked to");
    QVERIFY(!view->isRunning());
    QCOMPARE(window.project()->count(Group::Runs), 1);
    const auto& result = window.project()->session().runs[0].result;
    QVERIFY(result.cancelled);
    QVERIFY(!result.points.empty());
    qInfo("run stopped %lld ms and window closed %lld ms after being asked, %zu points kept; longest GUI gap "
          "%lld ms, %.0f ms of GUI-thread CPU at a time",
          landedMs, beat.clock.elapsed(), result.points.size(), beat.longest, beat.longestCpu);
    // The 100 ms for the work the GUI thread does at a time (the wall-clock gap is printed:
    // on a loaded machine it includes waiting for a core).
    QVERIFY2(beat.longestCpu <= 100,
             qPrintable(QString("the GUI thread worked %1 ms at a time while closing").arg(beat.longestCpu)));
}

void TestMainWindow::explorationFollowsTheEditors()
{
    MainWindow window;
    auto* view = window.explorationView();
    // Architecture view -> mobile, Workload view -> conv4: the Exploration view runs conv4 on mobile.
    QVERIFY(window.architectureEditor()->document()->loadPreset("mobile").isEmpty());
    QVERIFY(window.workloadEditor()->document()->loadSample("conv4").isEmpty());
    QCOMPARE(view->chosenWorkload().name, std::string("conv4"));
    QCOMPARE(view->chosenWorkload(), window.workloadEditor()->document()->workload());
    QVERIFY(view->chosenArchitecture() == sparsemap::loadPreset("mobile"));
    QVERIFY(view->followNote().isEmpty());
    // Choosing something else there is allowed, and said loudly.
    view->setPreset("edge");
    QCOMPARE(view->chosenArchitecture().name, std::string("edge"));
    QVERIFY2(view->followNote().contains("edge") && view->followNote().contains("mobile"),
             qPrintable(view->followNote()));
    // The next edit in the Architecture view brings the view back to it.
    auto arch = window.architectureEditor()->document()->architecture();
    arch.clockGHz = 0.5;
    window.architectureEditor()->document()->applyArchitecture(arch);
    QCOMPARE(view->chosenArchitecture().clockGHz, 0.5);
    QVERIFY(view->followNote().isEmpty());
    // Opening a session workload from the project panel opens it in the Workload view (as an
    // architecture opens in its editor), which the Exploration view follows.
    sparsemap::Workload spmm = window.workloadEditor()->document()->workload();
    spmm.name = "spmm";
    const int row = window.project()->upsertWorkload(spmm);
    window.projectPanel()->activated(Group::Workloads, row);
    QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(window.workloadEditor()));
    QVERIFY(window.workloadEditor()->document()->workload() == spmm);
    QCOMPARE(view->chosenWorkload().name, std::string("spmm"));
    QVERIFY(view->followNote().isEmpty());
    // The session's own workloads are offered in the chooser too; choosing another one is said.
    QVERIFY(view->selectSessionWorkload(0));
    QVERIFY2(view->followNote().contains("spmm"), qPrintable(view->followNote()));
}

void TestMainWindow::editedPresetRunsCarryTheirArchitecture()
{
    MainWindow window;
    auto* doc = window.architectureEditor()->document();
    QVERIFY(doc->loadPreset("mobile").isEmpty());
    const sparsemap::Architecture preset = sparsemap::loadPreset("mobile");
    const int glb = preset.levelIndex("GLB");
    QVERIFY(glb >= 0);
    auto edited = doc->architecture();
    edited.levels[std::size_t(glb)].capacityBits /= 2; // 16 MB -> 8 MB
    doc->applyArchitecture(edited);
    // The edited preset has a name of its own in the session and in the chooser.
    const auto& archs = window.project()->session().architectures;
    QVERIFY(std::any_of(archs.begin(), archs.end(), [&](const auto& a) {
        return a.name == "mobile (2)" &&
               a.levels[std::size_t(glb)].capacityBits == preset.levels[std::size_t(glb)].capacityBits / 2;
    }));
    auto* view = window.explorationView();
    view->setWorkloadPath(SPARSEMAP_SOURCE_DIR "/samples/workloads/toy.yaml");
    view->setMethod("sparsemap");
    view->setBudget(300);
    view->startSearch(); // on the edited mobile (the view follows the editor)
    QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 60000);
    view->setPreset("mobile");
    view->startSearch(); // on the preset
    QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 60000);
    const auto& runs = window.project()->session().runs;
    QCOMPARE(int(runs.size()), 2);
    QCOMPARE(runs[0].architecture.name, std::string("mobile (2)"));
    QCOMPARE(runs[0].architecture.levels[std::size_t(glb)].capacityBits,
             preset.levels[std::size_t(glb)].capacityBits / 2);
    QCOMPARE(runs[1].architecture.name, std::string("mobile"));
    QVERIFY(runs[1].architecture == preset);
    QVERIFY(runs[0].name != runs[1].name);
    // The live legend has two different entries.
    QVERIFY(view->convergencePlot()->hasRun(QString::fromStdString(runs[0].name)));
    QVERIFY(view->convergencePlot()->hasRun(QString::fromStdString(runs[1].name)));
    // Compare lists the two architectures apart.
    auto* model = window.compareView()->model();
    QStringList compared;
    for (int r = 0; r < model->rowCount(); ++r)
        compared << model->index(r, sparsemap::ui::RunTableModel::Architecture).data().toString();
    QVERIFY2(compared.contains("mobile (2)") && compared.contains("mobile"), qPrintable(compared.join(", ")));
    // A pin and an exported design of the first run name its architecture.
    QVERIFY(window.showRunPoint(0, runs[0].result.bestIndex, false).isEmpty());
    window.pinShownDesign();
    const auto& pin = window.project()->session().pinned.back();
    QCOMPARE(runs[std::size_t(pin.run)].architecture.name, std::string("mobile (2)"));
    const QString path = m_dir.filePath("edited.design.yaml");
    QVERIFY(window.designView()->exportDesignYaml(path).isEmpty());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString yaml = QString::fromUtf8(file.readAll());
    QVERIFY2(yaml.contains("architecture: mobile (2)"), qPrintable(yaml.left(400)));
}

void TestMainWindow::aboutShowsTheVersion()
{
    QVERIFY2(MainWindow::aboutText().contains(QStringLiteral(SPARSEMAP_TEST_VERSION)),
             qPrintable(MainWindow::aboutText()));
}

// Issue 16 item 6, on a 1024x700 window: the convergence legends (Exploration, Compare) stand
// below the plotting area, whole, and the Design title keeps every digit of the design number: when it
// does not fit, its middle is elided and the full title is its tooltip.
void TestMainWindow::smallScreenKeepsLegendsAndTitle()
{
    MainWindow window;
    window.resize(1024, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.size(), QSize(1024, 700));
    auto* exploration = window.explorationView();
    for (int seed = 1; seed <= 4; ++seed) { // 4 runs: more legend entries than one row holds
        exploration->setSeed(seed);
        runToy(window, 200);
    }
    const auto checkLegend = [](QCustomPlot* plot, int entries, const char* where) {
        plot->replot();
        QVERIFY2(plot->legend->itemCount() >= entries, where); // one entry per run at least
        const QRect axes = plot->axisRect()->rect(), legend = plot->legend->outerRect();
        QVERIFY2(!legend.intersects(axes), where);
        QVERIFY2(legend.top() >= axes.bottom(), where);
        QVERIFY2(plot->rect().contains(legend), where); // not cut by the widget's edge
        QVERIFY2(legend.height() >= plot->legend->minimumOuterSizeHint().height(), where); // not squeezed
        const QString sizes = QString("%1: axes %2x%3, legend %4x%5, plot %6x%7")
                                  .arg(where)
                                  .arg(axes.width())
                                  .arg(axes.height())
                                  .arg(legend.width())
                                  .arg(legend.height())
                                  .arg(plot->width())
                                  .arg(plot->height());
        QVERIFY2(axes.height() >= 100 && axes.width() >= 200, qPrintable(sizes)); // the plot keeps its room
        // The y axis title is whole: no longer than the axes are high.
        const int title = QFontMetrics(plot->yAxis->labelFont()).horizontalAdvance(plot->yAxis->label());
        QVERIFY2(title <= axes.height(), qPrintable(sizes + QString(", y title %1 px").arg(title)));
    };
    QVERIFY(window.showView("exploration"));
    QTest::qWait(20);
    checkLegend(exploration->convergencePlot(), 4, "exploration");
    QVERIFY(window.showView("compare"));
    QTest::qWait(20);
    checkLegend(window.compareView()->convergencePlot(), 4, "compare");

    QVERIFY(window.showView("design"));
    auto* design = window.designView();
    const QString title =
        "sparsemap-random-perm batched-spmm/mobile (2) s123456, a long run name, design #222960";
    QCOMPARE(design->showGenome(design->layout(), *design->genome(), title), QString());
    QTest::qWait(20);
    auto* label = design->titleLabel();
    QVERIFY(label->isElided()); // this title is wider than the view at 1024 px
    QVERIFY2(label->text().endsWith("#222960"), qPrintable(label->text()));
    QVERIFY(label->text().contains(QChar(0x2026)));
    QCOMPARE(label->toolTip(), title);
    QVERIFY2(label->fontMetrics().horizontalAdvance(label->text()) <= label->contentsRect().width(),
             qPrintable(label->text()));
    // However narrow, the number stays whole.
    label->resize(60, label->height());
    QVERIFY2(label->text().endsWith("#222960"), qPrintable(label->text()));
}

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
