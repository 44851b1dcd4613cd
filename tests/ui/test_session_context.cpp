// A session's working context in the workbench (offscreen): runs of the same settings get unique
// names and distinct colours from their start, one colour per run in every view, kept by the session
// file; reopening a session restores the workload and architecture last searched; an editor's
// workload never overwrites a session workload of the same name.
#include "arch_editor/architecture_document.hpp"
#include "arch_editor/architecture_editor_panel.hpp"
#include "arch_editor/storage_level_model.hpp"
#include "compare/compare_view.hpp"
#include "compare/run_table_model.hpp"
#include "exploration/convergence_plot_view.hpp"
#include "exploration/exploration_view.hpp"
#include "project/project_panel.hpp"
#include "workbench/main_window.hpp"
#include "workload_editor/workload_document.hpp"
#include "workload_editor/workload_editor_panel.hpp"
#include "run_colours.hpp"

#include "io/architecture_io.hpp"
#include "io/session_io.hpp"

#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QUndoStack>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using sparsemap::ui::MainWindow;
using Group = sparsemap::ui::ProjectStore::Group;

namespace {

void runToy(MainWindow& window, int budget)
{
    auto* view = window.explorationView();
    view->setWorkloadPath(SPARSEMAP_SOURCE_DIR "/samples/workloads/toy.yaml");
    view->setPreset("edge");
    view->setMethod("sparsemap");
    view->setSeed(1);
    view->setBudget(budget);
    view->startSearch();
    QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 60000);
}

} // namespace

class TestSessionContext : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SparseMapTest");
        QCoreApplication::setApplicationName("SessionContextTest");
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    // Issue: three runs of the same settings showed "sparsemap toy/edge s1" three times in the legend,
    // and a run's colour differed between Exploration and Compare (and again after reopening).
    void sameSettingsGiveUniqueNamesAndOneColourPerRun()
    {
        const QString path = m_dir.filePath("three.session.yaml");
        const QMap<QString, QString> expected{{"sparsemap toy/edge s1", "#1f77b4"},
                                              {"sparsemap toy/edge s1 (2)", "#d62728"},
                                              {"sparsemap toy/edge s1 (3)", "#2ca02c"}};
        {
            MainWindow window;
            window.setAutoAnswer(QMessageBox::Discard);
            for (int i = 0; i < 3; ++i)
                runToy(window, 100);
            const auto& runs = window.project()->session().runs;
            QCOMPARE(int(runs.size()), 3);
            for (const auto& run : runs)
                QCOMPARE(QString::fromStdString(run.color), expected.value(QString::fromStdString(run.name)));
            // The live legend, from each run's start, and the Compare table: the same names and colours.
            QCOMPARE(sparsemap::test::legendColours(window.explorationView()->convergencePlot()), expected);
            QCOMPARE(sparsemap::test::compareSwatches(window), expected);
            QCOMPARE(sparsemap::test::legendColours(window.compareView()->convergencePlot()), expected);
            QVERIFY(window.saveSessionAs(path).isEmpty());
        }
        // The file keeps each run's colour.
        const auto saved = sparsemap::loadSessionFile(path.toStdString());
        QCOMPARE(saved.runs[1].color, std::string("#d62728"));

        MainWindow window;
        window.setAutoAnswer(QMessageBox::Discard);
        QVERIFY(window.openSession(path).isEmpty());
        QCOMPARE(sparsemap::test::compareSwatches(window), expected);
        QCOMPARE(sparsemap::test::legendColours(window.compareView()->convergencePlot()), expected);
        // Reopening shows the last run in Exploration, in its own colour (not the palette's first).
        QCOMPARE(sparsemap::test::legendColours(window.explorationView()->convergencePlot()),
                 (QMap<QString, QString>{{"sparsemap toy/edge s1 (3)", "#2ca02c"}}));
        // Each run opened from the project panel keeps its colour there.
        window.projectPanel()->activated(Group::Runs, 0);
        QCOMPARE(sparsemap::test::legendColours(window.explorationView()->convergencePlot())
                     .value("sparsemap toy/edge s1"),
                 QString("#1f77b4"));
        // A fourth run after reopening takes the palette's next free colour and a fresh name.
        runToy(window, 100);
        const auto& runs = window.project()->session().runs;
        QCOMPARE(runs.back().name, std::string("sparsemap toy/edge s1 (4)"));
        QCOMPARE(runs.back().color, std::string("#ff7f0e"));
        QCOMPARE(sparsemap::test::legendColours(window.explorationView()->convergencePlot())
                     .value("sparsemap toy/edge s1 (4)"),
                 QString("#ff7f0e"));
    }

    // Issue: reopening a session brought Exploration back to the editors' start-up documents
    // ("edited: spmm / edited: edge"), so the next Run searched something else.
    void reopeningRestoresTheWorkloadAndArchitectureLastSearched()
    {
        const QString path = m_dir.filePath("context.session.yaml");
        sparsemap::Architecture searchedArch;
        sparsemap::Workload searchedWorkload;
        {
            MainWindow window;
            window.setAutoAnswer(QMessageBox::Discard);
            auto* doc = window.architectureEditor()->document();
            QVERIFY(doc->loadPreset("mobile").isEmpty());
            auto edited = doc->architecture();
            const auto glb = std::size_t(edited.levelIndex("GLB"));
            edited.levels[glb].capacityBits /= 4; // 16 MB -> 4 MB
            doc->applyArchitecture(edited);
            QVERIFY(window.workloadEditor()->document()->loadSample("mm1").isEmpty());
            auto* view = window.explorationView();
            view->setMethod("random");
            view->setBudget(100);
            view->startSearch(); // the editors' workload and architecture
            QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 60000);
            const auto& run = window.project()->session().runs.at(0);
            searchedArch = run.architecture;
            searchedWorkload = run.workload;
            QCOMPARE(searchedArch.name, std::string("mobile (2)"));
            QCOMPARE(searchedArch.levels[glb].capacityBits,
                     sparsemap::loadPreset("mobile").levels[glb].capacityBits / 4);
            QVERIFY(window.saveSessionAs(path).isEmpty());
        }
        MainWindow window; // editors at their start-up documents
        window.setAutoAnswer(QMessageBox::Discard);
        QVERIFY(window.openSession(path).isEmpty());
        auto* view = window.explorationView();
        QVERIFY(view->chosenArchitecture() == searchedArch);
        QVERIFY(view->chosenWorkload() == searchedWorkload);
        QCOMPARE(view->architectureChoice(), QString("session: mobile (2)"));
        QCOMPARE(view->workloadChoice(),
                 QString("session: ") + QString::fromStdString(searchedWorkload.name));
        // The next Run searches exactly that again.
        view->setMethod("random");
        view->setBudget(100);
        view->startSearch();
        QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), 60000);
        const auto& runs = window.project()->session().runs;
        QCOMPARE(int(runs.size()), 2);
        QVERIFY(runs[1].architecture == searchedArch);
        QVERIFY(runs[1].workload == searchedWorkload);
    }

    // Issue: an editor's workload and a session workload may share a name (`spmm` with M = 32 and
    // with M = 10^12; here 4096); the editor's must not replace the session's.
    void editorWorkloadNeverOverwritesASessionWorkload()
    {
        const QString path = m_dir.filePath("huge.session.yaml");
        sparsemap::Workload huge;
        {
            MainWindow window;
            window.setAutoAnswer(QMessageBox::Discard);
            huge = window.workloadEditor()->document()->workload();
            huge.name = "spmm";
            huge.dims[0].size = 4096;
            window.project()->upsertWorkload(huge);
            QVERIFY(window.saveSessionAs(path).isEmpty());
        }
        MainWindow window;
        window.setAutoAnswer(QMessageBox::Discard);
        QVERIFY(window.openSession(path).isEmpty());
        auto* doc = window.workloadEditor()->document();
        auto small = huge;
        small.dims[0].size = 32;
        QVERIFY(doc->loadWorkload(small).isEmpty());
        const auto& workloads = window.project()->session().workloads;
        const auto named = [&](const std::string& name) {
            return std::find_if(workloads.begin(), workloads.end(),
                                [&](const auto& w) { return w.name == name; });
        };
        QVERIFY(named("spmm") != workloads.end());
        QCOMPARE(named("spmm")->dims[0].size, std::int64_t(4096));
        QVERIFY(named("spmm (2)") != workloads.end());
        QCOMPARE(named("spmm (2)")->dims[0].size, std::int64_t(32));
        QCOMPARE(window.explorationView()->chosenWorkload().name, std::string("spmm (2)"));
    }

    // Getting started: untouched start-up documents are not "edited:", Help says what to do first,
    // and every project item opens in its editor on double-click.
    void startUpDocumentsAreNotEdited()
    {
        MainWindow window;
        auto* view = window.explorationView();
        QCOMPARE(view->architectureChoice(), QString("edge (Architecture view)"));
        QCOMPARE(view->workloadChoice(), QString("spmm (Workload view)"));
        // A real edit is "edited:", under the session's name for it; undoing it is not.
        auto* doc = window.architectureEditor()->document();
        auto* levels = window.architectureEditor()->levelModel();
        QVERIFY(levels->setData(levels->index(1, sparsemap::ui::StorageLevelModel::Capacity), "64 KB"));
        QCOMPARE(view->architectureChoice(), QString("edited: edge (2)"));
        doc->undoStack()->undo();
        QCOMPARE(view->architectureChoice(), QString("edge (Architecture view)"));
        // A sample loaded as it is bundled is not edited either; a changed size is.
        auto* workload = window.workloadEditor()->document();
        QVERIFY(workload->loadSample("mm3").isEmpty());
        QCOMPARE(view->workloadChoice(), QString("mm3 (Workload view)"));
        auto changed = workload->workload();
        changed.dims[0].size = 512;
        QVERIFY(workload->edit(changed, "M = 512").isEmpty());
        QCOMPARE(view->workloadChoice(), QString("edited: mm3"));
    }

    void helpSaysWhatToDoFirst()
    {
        MainWindow window;
        QMenu* help = nullptr;
        for (QAction* action : window.menuBar()->actions())
            if (action->text().remove('&') == "Help")
                help = action->menu();
        QVERIFY(help);
        QStringList entries;
        for (QAction* action : help->actions())
            if (!action->isSeparator())
                entries << action->text().remove('&');
        QCOMPARE(entries, (QStringList{"Getting started", "About"}));
        const QString text = MainWindow::gettingStartedText();
        for (const char* step :
             {"Architecture", "Workload", "Exploration", "Run", "Design", "Compare", "double-click"})
            QVERIFY2(text.contains(step), step);
    }

    void doubleClickOpensEveryItemInItsEditor()
    {
        MainWindow window;
        window.setAutoAnswer(QMessageBox::Discard);
        sparsemap::Workload big = window.workloadEditor()->document()->workload();
        big.name = "big";
        big.dims[0].size = 4096;
        const int workloadRow = window.project()->upsertWorkload(big);
        sparsemap::Architecture cloud = sparsemap::loadPreset("cloud");
        const int archRow = window.project()->upsertArchitecture(cloud);
        window.showView("compare");
        window.projectPanel()->activated(Group::Workloads, workloadRow);
        QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(window.workloadEditor()));
        QVERIFY(window.workloadEditor()->document()->workload() == big);
        window.showView("compare");
        window.projectPanel()->activated(Group::Architectures, archRow);
        QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(window.architectureEditor()));
        QVERIFY(window.architectureEditor()->document()->architecture() == cloud);
        // Editing the opened workload edits its session entry (no copy under another name).
        auto edited = big;
        edited.dims[0].size = 2048;
        QVERIFY(window.workloadEditor()->document()->edit(edited, "M = 2048").isEmpty());
        QCOMPARE(window.project()->session().workloads[std::size_t(workloadRow)].dims[0].size,
                 std::int64_t(2048));
    }

    // The chooser keeps the session entry chosen when an entry before it leaves the session.
    void chosenSessionEntryStaysWhenOthersLeave()
    {
        MainWindow window;
        window.setAutoAnswer(QMessageBox::Discard);
        window.project()->upsertArchitecture(sparsemap::loadPreset("cloud"));
        const int cloud = window.project()->count(Group::Architectures) - 1;
        QVERIFY(cloud >= 1);
        auto* view = window.explorationView();
        QVERIFY(view->selectSessionArchitecture(cloud));
        QCOMPARE(view->architectureChoice(), QString("session: cloud"));
        window.project()->remove(Group::Architectures, 0);
        QCOMPARE(view->architectureChoice(), QString("session: cloud"));
        QVERIFY(view->chosenArchitecture() == sparsemap::loadPreset("cloud"));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestSessionContext)
#include "test_session_context.moc"
