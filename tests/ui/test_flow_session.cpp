// A session as an architect works through it (offscreen, small budgets): edit a preset, open a
// workload, run three searches, pin, compare, save, reopen, find the context as it was, run again on
// it, export the best design and re-evaluate that file alone with the `sparsemap` command line (on
// a machine that has nothing but the file), getting the numbers the workbench showed.
#include "arch_editor/architecture_document.hpp"
#include "arch_editor/architecture_editor_panel.hpp"
#include "arch_editor/storage_level_model.hpp"
#include "cli/cli_run.hpp"
#include "compare/compare_view.hpp"
#include "compare/run_table_model.hpp"
#include "design_view/design_view.hpp"
#include "exploration/convergence_plot_view.hpp"
#include "exploration/exploration_view.hpp"
#include "workbench/main_window.hpp"
#include "workload_editor/workload_document.hpp"
#include "workload_editor/workload_editor_panel.hpp"
#include "run_colours.hpp"

#include "io/architecture_io.hpp"
#include "io/design_io.hpp"
#include "model/genome_evaluator.hpp"

#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using sparsemap::ui::MainWindow;
using Group = sparsemap::ui::ProjectStore::Group;

namespace {

constexpr const char* kWorkload = SPARSEMAP_SOURCE_DIR "/samples/workloads/mm2.yaml";
const QString kRun = "sparsemap mm2/mobile (2) s1"; // method, workload/architecture, seed

// Presses Run in the Exploration view and waits for the run to land in the session.
void pressRun(MainWindow& window)
{
    const int runs = window.project()->count(Group::Runs);
    window.explorationView()->runButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!window.explorationView()->isRunning(), 60000);
    QCOMPARE(window.project()->count(Group::Runs), runs + 1);
}

// Run name -> colour: the session's, the Compare table's swatches, a convergence legend's.
QMap<QString, QString> sessionColours(MainWindow& window)
{
    QMap<QString, QString> colours;
    for (const auto& run : window.project()->session().runs)
        colours[QString::fromStdString(run.name)] = QString::fromStdString(run.color);
    return colours;
}

double printed(const QString& out, const char* pattern)
{
    const auto match = QRegularExpression(pattern).match(out);
    return match.hasMatch() ? match.captured(1).toDouble() : -1;
}

} // namespace

class TestFlowSession : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SparseMapTest");
        QCoreApplication::setApplicationName("FlowSessionTest");
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void editRunCompareSaveReopenRunExport()
    {
        const QString sessionPath = m_dir.filePath("flow.session.yaml");
        const sparsemap::Architecture mobile = sparsemap::loadPreset("mobile");
        const auto glb = std::size_t(mobile.levelIndex("GLB"));
        QCOMPARE(mobile.levels[glb].capacityBits, std::int64_t(16) * 1024 * 1024 * 8); // 16 MB
        sparsemap::Architecture edited;
        sparsemap::Workload workload;
        // Three runs of the same settings: unique names, the palette's first three colours.
        const QMap<QString, QString> firstThree{
            {kRun, "#1f77b4"}, {kRun + " (2)", "#d62728"}, {kRun + " (3)", "#2ca02c"}};
        {
            MainWindow window;
            window.setAutoAnswer(QMessageBox::Discard);
            // Architecture view: the mobile preset, its GLB cut to 4 MB in the levels table.
            auto* archPanel = window.architectureEditor();
            QVERIFY(archPanel->document()->loadPreset("mobile").isEmpty());
            auto* levels = archPanel->levelModel();
            QVERIFY(
                levels->setData(levels->index(int(glb), sparsemap::ui::StorageLevelModel::Capacity), "4 MB"));
            edited = archPanel->document()->architecture();
            QCOMPARE(edited.levels[glb].capacityBits, std::int64_t(4) * 1024 * 1024 * 8);
            // Workload view: mm2 from its file.
            QVERIFY(window.workloadEditor()->openFile(kWorkload));
            workload = window.workloadEditor()->document()->workload();
            QCOMPARE(workload.name, std::string("mm2"));

            // Exploration follows both editors; three runs of the same settings.
            auto* view = window.explorationView();
            window.showView("exploration");
            view->setMethod("sparsemap");
            view->setBudget(300);
            view->setSeed(1);
            for (int i = 0; i < 3; ++i)
                pressRun(window);
            const auto& runs = window.project()->session().runs;
            for (const auto& run : runs) {
                QCOMPARE(run.architecture.name, std::string("mobile (2)"));
                QCOMPARE(run.architecture.levels[glb].capacityBits, edited.levels[glb].capacityBits);
                QVERIFY(run.workload == workload);
            }
            QCOMPARE(sessionColours(window), firstThree);
            QCOMPARE(sparsemap::test::legendColours(view->convergencePlot()), firstThree);

            // Pin the design shown (the last run's best), open Compare.
            window.pinShownDesign();
            QCOMPARE(window.project()->count(Group::Pinned), 1);
            QCOMPARE(window.project()->session().pinned[0].run, 2);
            QVERIFY(window.showView("compare"));
            QCOMPARE(window.compareView()->model()->rowCount(), 4); // three runs and the pin
            QCOMPARE(sparsemap::test::compareSwatches(window), firstThree);
            QCOMPARE(sparsemap::test::legendColours(window.compareView()->convergencePlot()), firstThree);
            QVERIFY(window.saveSessionAs(sessionPath).isEmpty());
        }

        // A new window (its editors at their start-up documents) opens the session.
        MainWindow window;
        window.setAutoAnswer(QMessageBox::Discard);
        QVERIFY(window.openSession(sessionPath).isEmpty());
        auto* view = window.explorationView();
        // The context is what it was: the edited mobile and mm2, the runs' names and colours.
        QVERIFY(view->chosenArchitecture() == window.project()->session().runs[0].architecture);
        QCOMPARE(view->chosenArchitecture().levels[glb].capacityBits, std::int64_t(4) * 1024 * 1024 * 8);
        QCOMPARE(view->chosenArchitecture().name, std::string("mobile (2)"));
        QVERIFY(view->chosenWorkload() == workload);
        QCOMPARE(sessionColours(window), firstThree);
        QCOMPARE(sparsemap::test::compareSwatches(window), firstThree);
        QCOMPARE(sparsemap::test::legendColours(view->convergencePlot()),
                 (QMap<QString, QString>{{kRun + " (3)", "#2ca02c"}}));
        QCOMPARE(window.project()->session().pinned.size(), std::size_t(1));

        // Run again: the same context, a fourth name and the palette's fourth colour.
        view->setMethod("sparsemap");
        view->setBudget(300);
        view->setSeed(1);
        pressRun(window);
        const auto& run = window.project()->session().runs.back();
        QCOMPARE(QString::fromStdString(run.name), kRun + " (4)");
        QCOMPARE(run.color, std::string("#ff7f0e"));
        QVERIFY(run.architecture == window.project()->session().runs[0].architecture);
        QVERIFY(run.workload == workload);
        QCOMPARE(sparsemap::test::legendColours(view->convergencePlot()).value(kRun + " (4)"),
                 QString("#ff7f0e"));

        // Export its best design from the Design view; the file alone gives the numbers shown there.
        QVERIFY(run.result.bestIndex >= 0);
        QVERIFY(window.showRunPoint(int(window.project()->count(Group::Runs)) - 1, run.result.bestIndex)
                    .isEmpty());
        const auto shown = window.designView()->result();
        QVERIFY(shown.valid);
        const QString designPath = m_dir.filePath("best.design.yaml");
        QVERIFY(window.designView()->exportDesignYaml(designPath).isEmpty());

        // In the core: the file's own workload and architecture, its genome, the same numbers exactly.
        const auto inputs = sparsemap::loadDesignInputs(designPath.toStdString());
        QVERIFY(inputs);
        QVERIFY(inputs->architecture == run.architecture);
        QVERIFY(inputs->workload == run.workload);
        const auto doc =
            sparsemap::loadDesignFile(designPath.toStdString(), inputs->workload, inputs->architecture);
        const sparsemap::GenomeLayout layout(inputs->workload, inputs->architecture, doc.options);
        sparsemap::model::GenomeEvaluator evaluator(layout, doc.modelOptions);
        const auto& again = evaluator.evaluate(doc.genome);
        QVERIFY(again.cycles == shown.cycles);
        QVERIFY(again.energyPj == shown.energyPj);
        QVERIFY(again.edp == shown.edp);

        // With the command line, given nothing but the file (printed to 6 significant digits; cycles
        // exactly below 10^6, else to 3).
        const auto cli = clitest::runSparsemap({"evaluate", designPath});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));
        const double energy = printed(cli.out, "energy +([0-9.e+]+) pJ");
        const double edp = printed(cli.out, "EDP +([0-9.e+]+) cycles");
        const double cycles = printed(cli.out, "cycles +([0-9.e+]+)\n");
        QVERIFY2(std::abs(energy / shown.energyPj - 1) < 5e-6, qPrintable(cli.out));
        QVERIFY2(std::abs(edp / shown.edp - 1) < 5e-6, qPrintable(cli.out));
        QVERIFY2(std::abs(cycles / shown.cycles - 1) < (shown.cycles < 1e6 ? 1e-12 : 5e-3),
                 qPrintable(cli.out));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestFlowSession)
#include "test_flow_session.moc"
