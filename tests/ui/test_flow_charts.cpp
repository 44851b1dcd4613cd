// Saving charts as a user does: searches run in the workbench (the toy workload on the edge preset,
// 300 evaluations each, methods in turn), and after 1, 3, 4 and 12 runs every chart the views show
// (the Exploration view's convergence, energy-delay front and design-space map, the Design view's
// breakdown, the Compare view's convergence and valid share) is saved as PNG, SVG and PDF. Legends of
// 3, 4 and 12 runs are laid out in columns with empty cells in their last row (saving such a chart once
// killed the workbench). Each save leaves a non-empty file of its format, and the on-screen legend keeps
// one entry per run.
#include "common/chart_export.hpp"
#include "compare/compare_view.hpp"
#include "design_view/design_view.hpp"
#include "exploration/convergence_plot_view.hpp"
#include "exploration/exploration_view.hpp"
#include "plot/run_figures.hpp"
#include "workbench/main_window.hpp"

#include <QFile>
#include <QImage>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include <set>

using sparsemap::ui::MainWindow;

namespace {

// Legend entries of a plot (a legend in columns has empty cells, which are no entries).
int legendEntries(QCustomPlot* plot)
{
    int entries = 0;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        entries += plot->legend->item(i) != nullptr;
    return entries;
}

bool hasEmptyLegendCell(QCustomPlot* plot)
{
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (!plot->legend->item(i))
            return true;
    return false;
}

} // namespace

class TestFlowCharts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SparseMapTest");
        QCoreApplication::setApplicationName("FlowChartsTest");
        QSettings().clear();
    }

    void everyChartSavesAfterOneToTwelveRuns()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow window;
        window.setAutoAnswer(QMessageBox::Discard);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* exploration = window.explorationView();
        exploration->setWorkloadPath(SPARSEMAP_SOURCE_DIR "/samples/workloads/toy.yaml");
        exploration->setPreset("edge");
        exploration->setBudget(300);

        const QStringList methods{"sparsemap", "random", "sa"};
        const std::set<QString> everyChart{
            "Convergence", "Energy-delay front",      "Design-space map (PCA)",
            "Breakdown",   "Convergence of the runs", "Valid share per method"};
        bool sawEmptyCell = false;
        int runs = 0;
        for (const int target : {1, 3, 4, 12}) {
            while (runs < target) {
                exploration->setMethod(methods[runs % methods.size()]);
                exploration->setSeed(runs + 1);
                exploration->startSearch();
                QTRY_VERIFY_WITH_TIMEOUT(!exploration->isRunning(), 60000);
                ++runs;
            }
            QCOMPARE(int(window.project()->session().runs.size()), runs);

            // Every view in turn, as the user brings it up, each of its tabs, and every chart shown saved
            // once.
            std::set<QString> saved;
            std::set<QWidget*> done;
            const auto saveShownCharts = [&](const QString& where) {
                QTest::qWait(50); // the views lay out and draw
                for (QWidget* chart : window.findChildren<QWidget*>()) {
                    const QString title = chart->property("sparsemapChartTitle").toString();
                    if (title.isEmpty() || !chart->isVisible() || done.count(chart))
                        continue;
                    done.insert(chart);
                    if (auto* plot = qobject_cast<QCustomPlot*>(chart))
                        sawEmptyCell = sawEmptyCell || hasEmptyLegendCell(plot);
                    const QString stem = dir.filePath(
                        QString("%1-%2-%3").arg(where).arg(runs).arg(sparsemap::ui::figureSlug(title)));
                    for (const QString suffix : {"png", "svg", "pdf"}) {
                        const QString error = sparsemap::ui::saveChart(chart, stem + "." + suffix);
                        QVERIFY2(error.isEmpty(), qPrintable(error));
                        QVERIFY2(QFileInfo(stem + "." + suffix).size() > 1000,
                                 qPrintable(stem + "." + suffix));
                    }
                    QCOMPARE(QImage(stem + ".png").size(), QSize(2100, 1290)); // 7 x 4.3 in at 300 dpi
                    saved.insert(title);
                }
            };
            for (const char* name : {"exploration", "design", "compare"}) {
                QVERIFY(window.showView(name));
                saveShownCharts(name);
                for (QTabWidget* tabs : window.tabs()->currentWidget()->findChildren<QTabWidget*>()) {
                    const int current = tabs->currentIndex();
                    for (int i = 0; i < tabs->count(); ++i) {
                        tabs->setCurrentIndex(i);
                        saveShownCharts(name);
                    }
                    tabs->setCurrentIndex(current);
                }
            }
            QVERIFY2(saved == everyChart, qPrintable(QStringList(saved.begin(), saved.end()).join(", ")));

            // The legends still hold one entry per run after the saves.
            QCOMPARE(legendEntries(exploration->convergencePlot()), runs);
            QCOMPARE(legendEntries(window.compareView()->convergencePlot()), runs);
        }
        // Some legend had empty cells: the case that crashed.
        QVERIFY(sawEmptyCell);
    }
};

QTEST_MAIN(TestFlowCharts)
#include "test_flow_charts.moc"
