// The exploration view end to end on the toy SpMM: a run fills the progress bar, the convergence plot
// and the design-space map; a clicked design shows its loop nest; cancel stops a long run at once.
#include "exploration/convergence_plot_view.hpp"
#include "exploration/design_space_plot_view.hpp"
#include "exploration/exploration_view.hpp"
#include "io/architecture_io.hpp"

#include <QComboBox>
#include <QElapsedTimer>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using sparsemap::ui::ExplorationView;

class TestExplorationView : public QObject {
    Q_OBJECT
private slots:
    void runFillsPlotsAndDetails();
    void clickingADotShowsItsDesign();
    void cancelStopsAtOnceKeepingBest();
    void runsOverlayInConvergencePlot();
    void legendWrapsToThePlotsWidth();
    void searchesAnEditedArchitecture();
    void emptyMapHasNoColourScale();
    void axisLabelSameLiveAndReloaded();
    void controlsHaveTooltipsAndNaturalOrder();
    void methodsAreGroupedDefaultAndBaselinesFirst();

private:
    static void prepare(ExplorationView& view, int budget)
    {
        view.setWorkloadPath(SPARSEMAP_SOURCE_DIR "/samples/workloads/toy.yaml");
        view.setPreset("edge");
        view.setMethod("sparsemap");
        view.setBudget(budget);
    }
};

void TestExplorationView::runFillsPlotsAndDetails()
{
    ExplorationView view;
    view.resize(1200, 800);
    view.show();
    prepare(view, 500);
    QSignalSpy activated(&view, &ExplorationView::pointActivated);
    view.runButton()->click();
    QVERIFY(view.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isPreparingPlots(), 30000); // the maps are made on a worker thread

    QCOMPARE(view.progressBar()->maximum(), 500);
    QCOMPARE(view.progressBar()->value(), 500);
    QVERIFY(view.convergencePlot()->graphCount() >= 1);
    QVERIFY(view.convergencePlot()->graph(0)->dataCount() > 0);
    QCOMPARE(view.designSpacePlot()->pointCount(), 500);
    QCOMPARE(int(view.points().size()), 500);
    QVERIFY(view.lastResult() && view.lastResult()->best());

    activated.clear();
    view.showPoint(0);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toInt(), 0);
    QVERIFY2(view.detailsView()->toPlainText().contains("Z[m,n] += P[m,k] * Q[k,n]"),
             qPrintable(view.detailsView()->toPlainText()));
}

void TestExplorationView::clickingADotShowsItsDesign()
{
    ExplorationView view;
    view.resize(1200, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    prepare(view, 500);
    view.startSearch();
    QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isPreparingPlots(), 30000);
    auto* plot = view.designSpacePlot();
    plot->replot(); // lay the axes out at the widget's size, so that pixels are final
    const int best = int(view.lastResult()->bestIndex);
    const QPoint pixel = plot->pixelOf(best).toPoint();
    QCOMPARE(plot->pointAt(pixel) >= 0, true);
    QSignalSpy activated(&view, &ExplorationView::pointActivated);
    view.detailsView()->clear();
    QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, pixel);
    QCOMPARE(activated.count(), 1);
    QVERIFY(view.detailsView()->toPlainText().contains("Z[m,n] += P[m,k] * Q[k,n]"));
    // The clicked dot is ringed, and the ring moves with the next design shown.
    QCOMPARE(plot->selectedIndex(), activated.at(0).at(0).toInt());
    view.showPoint(3);
    QCOMPARE(plot->selectedIndex(), 3);
}

void TestExplorationView::cancelStopsAtOnceKeepingBest()
{
    ExplorationView view;
    view.show();
    prepare(view, 5'000'000);
    view.runButton()->click();
    // Let it find something first.
    QTRY_VERIFY_WITH_TIMEOUT(view.points().size() >= 200, 30000);
    QElapsedTimer clock;
    clock.start();
    view.cancelButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 5000);
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed()) + " ms"));
    QVERIFY(view.lastResult());
    QVERIFY(view.lastResult()->cancelled);
    QVERIFY(view.lastResult()->best());
    QVERIFY(view.progressBar()->value() < 5'000'000);
    QVERIFY(view.runButton()->isEnabled());
    // No ETA stays behind once the run has stopped.
    QVERIFY2(!view.progressBar()->text().contains("ETA"), qPrintable(view.progressBar()->text()));
    QVERIFY2(view.progressBar()->text().contains("cancelled"), qPrintable(view.progressBar()->text()));
}

void TestExplorationView::runsOverlayInConvergencePlot()
{
    ExplorationView view;
    prepare(view, 300);
    for (int seed = 1; seed <= 2; ++seed) {
        view.setSeed(seed);
        view.startSearch();
        QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 60000);
    }
    QCOMPARE(view.convergencePlot()->runCount(), 2);
    QCOMPARE(view.convergencePlot()->graphCount(), 4); // best and average per run
    QVERIFY(view.convergencePlot()->legend->visible());
}

// The legend below the convergence plot takes as many columns as the plot's width holds: a narrow
// plot gets more rows, its entries never stand outside it, and long run names do not make the plot's
// minimum wider (a splitter would keep the plot as wide as a row of names; issue 16 item 6).
void TestExplorationView::legendWrapsToThePlotsWidth()
{
    sparsemap::ui::ConvergencePlotView plot;
    const QStringList names = {"sparsemap-random-perm batched-spmm/mobile (2) s1",
                               "sparsemap-random-perm batched-spmm/mobile (2) s2",
                               "sparsemap-random-perm batched-spmm/mobile (2) s3",
                               "sparsemap-random-perm batched-spmm/mobile (2) s4"};
    for (const QString& name : names) {
        plot.beginRun(name);
        for (int g = 0; g < 5; ++g)
            plot.addGeneration(sparsemap::search::GenerationStats{g, 10 * g, 10.0 - g, 20.0 - g, 0.5});
    }
    const QFontMetrics metrics(plot.legend->font());
    const int nameWidth = metrics.horizontalAdvance(names[0]);
    // Three names side by side are wider than the narrow plot below: a fixed three-column legend
    // would not fit it.
    QVERIFY(3 * nameWidth > 420);
    const QWidget& widget = plot;
    QVERIFY2(widget.minimumSizeHint().width() < 420,
             qPrintable(QString::number(widget.minimumSizeHint().width())));
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    // Lays the plot out at `width` px; the legend's rows, or -1 when it is not whole below the axes.
    const auto rowsAt = [&](int width) {
        plot.resize(width, 360);
        QCoreApplication::sendPostedEvents(&plot, QEvent::Resize); // the viewport follows the size
        plot.replot();
        const QRect legend = plot.legend->outerRect();
        if (!plot.rect().contains(legend) || legend.top() < plot.axisRect()->outerRect().bottom())
            return -1;
        int rows = 0;
        for (int r = 0; r < plot.legend->rowCount(); ++r)
            for (int c = 0; c < plot.legend->columnCount(); ++c)
                if (plot.legend->element(r, c)) {
                    ++rows;
                    break;
                }
        return rows;
    };
    // An entry is its name, a 32 px line sample and some padding: less than the name and 100 px.
    QCOMPARE(rowsAt(nameWidth + 60), 4);      // one entry a row
    QCOMPARE(rowsAt(2 * nameWidth + 200), 2); // two columns
    QCOMPARE(rowsAt(4 * nameWidth + 400), 2); // three columns at most (the Exploration view's)
}

void TestExplorationView::emptyMapHasNoColourScale()
{
    ExplorationView view;
    view.designSpacePlot()->clearPoints();
    QVERIFY(!view.designSpacePlot()->colorScaleShown()); // nothing valid to colour
    prepare(view, 300);
    view.startSearch();
    QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isPreparingPlots(), 30000);
    QVERIFY(view.lastResult()->best());
    QVERIFY(view.designSpacePlot()->colorScaleShown());
    view.designSpacePlot()->clearPoints();
    QVERIFY(!view.designSpacePlot()->colorScaleShown());
}

void TestExplorationView::axisLabelSameLiveAndReloaded()
{
    ExplorationView live;
    prepare(live, 200);
    QSignalSpy completed(&live, &ExplorationView::runCompleted);
    live.startSearch();
    QTRY_VERIFY_WITH_TIMEOUT(!live.isRunning(), 60000);
    QCOMPARE(completed.count(), 1);
    const QString label = live.convergencePlot()->yAxis->label();
    QVERIFY2(label.startsWith("EDP"), qPrintable(label));
    ExplorationView reloaded;
    const auto run = completed.at(0).at(0).value<std::shared_ptr<const sparsemap::RunRecord>>();
    reloaded.showRun(*run);
    QCOMPARE(reloaded.convergencePlot()->yAxis->label(), label);
    // The shown run's points are the run's own (shared), and its map comes from a worker thread.
    QVERIFY(reloaded.points().sharesColumnsWith(run->result.points));
    QTRY_VERIFY_WITH_TIMEOUT(!reloaded.isPreparingPlots(), 30000);
    QCOMPARE(reloaded.designSpacePlot()->pointCount(), int(run->result.points.size()));
}

void TestExplorationView::controlsHaveTooltipsAndNaturalOrder()
{
    ExplorationView view;
    const auto spins = view.findChildren<QSpinBox*>();
    QCOMPARE(spins.size(), 3); // budget, seed, threads
    for (const QSpinBox* spin : spins)
        QVERIFY(!spin->toolTip().isEmpty());
    bool found = false;
    for (const QComboBox* combo : view.findChildren<QComboBox*>()) {
        const int conv2 = combo->findText("conv2"), conv10 = combo->findText("conv10");
        if (conv2 < 0 || conv10 < 0)
            continue;
        found = true;
        QVERIFY(conv2 < conv10);
        QVERIFY(combo->findText("mm2") < combo->findText("mm10"));
    }
    QVERIFY(found);
}

// The method chooser: sparsemap chosen, the baselines (sa, random, mindmappings among them) listed
// before any ablation, each group under a heading that cannot be chosen.
void TestExplorationView::methodsAreGroupedDefaultAndBaselinesFirst()
{
    ExplorationView view;
    QComboBox* methods = nullptr;
    for (QComboBox* combo : view.findChildren<QComboBox*>())
        if (combo->findData(QString("sparsemap-paper")) >= 0)
            methods = combo;
    QVERIFY(methods);
    QCOMPARE(methods->currentData().toString(), QString("sparsemap"));
    QCOMPARE(methods->currentText(), QString("sparsemap"));
    const int firstAblation = methods->findData(QString("sparsemap-no-polish"));
    QVERIFY(firstAblation > 0);
    for (const char* baseline : {"sa", "random", "mindmappings", "mapper", "ga"}) {
        const int at = methods->findData(QString(baseline));
        QVERIFY2(at > 0 && at < firstAblation, baseline);
    }
    QVERIFY(methods->findData(QString("sparsemap-paper")) < firstAblation);
    // The headings: the default's and the baselines', neither selectable.
    const int baselinesHeading = methods->findText("baselines");
    QVERIFY(baselinesHeading > 0 && baselinesHeading < methods->findData(QString("sa")));
    auto* model = qobject_cast<QStandardItemModel*>(methods->model());
    QVERIFY(model);
    QVERIFY(!(model->item(baselinesHeading)->flags() & Qt::ItemIsSelectable));
    QVERIFY(model->item(methods->findData(QString("sa")))->flags() & Qt::ItemIsSelectable);
    view.setMethod("random");
    QCOMPARE(methods->currentText(), QString("random"));
    view.setMethod("baselines"); // a heading is not a method: nothing changes
    QCOMPARE(methods->currentText(), QString("random"));
}

QTEST_MAIN(TestExplorationView)
#include "test_exploration_view.moc"

// An architecture that is not a preset (the editor's) is offered and used as given: the toy
// accelerator of paper Fig. 3 has 4 PEs x 4 MACs, so the run's layout has its 5 mapping levels and
// the best design's loop nest shows its level names.
void TestExplorationView::searchesAnEditedArchitecture()
{
    ExplorationView view;
    prepare(view, 300);
    auto arch = sparsemap::loadArchitectureFile(SPARSEMAP_SOURCE_DIR "/samples/arch/toy.yaml");
    arch.levels[1].name = "Scratchpad"; // an edit no preset has
    view.setCustomArchitecture(arch, "edited: toy");
    view.setCustomArchitecture(arch, "edited: toy"); // offered once, however often it changes
    view.setPreset("edited: toy");
    view.startSearch();
    QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), 60000);
    QVERIFY(view.lastResult() && view.lastResult()->best());
    QCOMPARE(int(view.points().size()), 300);
    view.showPoint(int(view.lastResult()->bestIndex));
    QVERIFY2(view.detailsView()->toPlainText().contains("Scratchpad"),
             qPrintable(view.detailsView()->toPlainText()));
}
