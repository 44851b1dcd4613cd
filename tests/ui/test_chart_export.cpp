// Saving charts (ui/common/chart_export.hpp): every chart of the workbench writes a non-empty PNG, SVG
// and PDF (checked by their file headers) at the figure size asked for, with small fonts raised while
// drawing and restored after; every chart of many runs saves whatever the number of runs (1 to 50: a
// legend in columns has empty cells); bad paths are refused without touching an existing file; the
// File menu's Save chart lists the charts on screen. The axes of the charts of best-so-far values and
// of the front show every curve whole, off the axis frame (ui/common/axis_range.hpp).
#include "common/axis_range.hpp"
#include "common/chart_export.hpp"
#include "common/objective_label.hpp"
#include "compare/compare_view.hpp"
#include "design_view/breakdown_chart.hpp"
#include "exploration/convergence_plot_view.hpp"
#include "exploration/design_space_plot_view.hpp"
#include "exploration/pareto_plot_view.hpp"
#include "model/genome_evaluator.hpp"
#include "plot/run_figures.hpp"
#include "search/method_registry.hpp"
#include "../core/test_support.hpp"

#include <QChartView>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QTemporaryDir>
#include <QtTest>

using namespace sparsemap;
using namespace sparsemap::ui;

namespace {

QByteArray head(const QString& path, int bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.read(bytes);
}

// Checks the three formats of one chart; returns the PNG's path.
void checkFormats(QWidget* chart, const QString& dir, const QString& stem)
{
    for (const QString suffix : {"png", "svg", "pdf"}) {
        const QString path = dir + "/" + stem + "." + suffix;
        const QString error = saveChart(chart, path);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(path + " is (nearly) empty"));
        if (suffix == "png") {
            QCOMPARE(head(path, 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
            // 7 x 4.3 in at 300 dpi.
            const QImage image(path);
            QCOMPARE(image.size(), QSize(2100, 1290));
            QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 300);
        } else if (suffix == "svg") {
            const QByteArray text = head(path, 100000);
            QVERIFY(text.startsWith("<?xml"));
            QVERIFY(text.contains("<svg"));
            QVERIFY(text.contains("width=\"177.8mm\"")); // 7 in
        } else {
            QVERIFY(head(path, 5) == "%PDF-");
        }
    }
}

// A run whose best so far is bests[g] after generation g (100 evaluations each), its population average
// twice that; ten points, every other one valid, the first of objective bests.back().
RunRecord curveRun(const std::string& name, const std::string& method, const std::vector<double>& bests)
{
    RunRecord run;
    run.name = name;
    run.method = method;
    for (std::size_t g = 0; g < bests.size(); ++g) {
        search::GenerationStats stats;
        stats.generation = int(g);
        stats.evaluations = std::int64_t(g + 1) * 100;
        stats.best = bests[g];
        stats.populationAverage = 2 * bests[g];
        stats.validShare = 0.5;
        run.result.convergence.push_back(stats);
    }
    for (int i = 0; i < 10; ++i) {
        search::EvaluatedPoint p;
        p.valid = i % 2 == 0;
        p.generation = 0;
        if (p.valid) {
            p.cycles = 1000.0 * (i + 1);
            p.energyPj = bests.back() / p.cycles * (1 + i);
            p.objective = p.edp = p.cycles * p.energyPj;
        } else {
            p.objective = std::numeric_limits<double>::infinity();
            p.reason = "GLB: the tiles need 140 KB but it holds 128 KB";
        }
        run.result.points.push_back(p);
    }
    run.result.bestIndex = 0;
    return run;
}

// Every value of every graph of `plot` is drawn inside its axes, at least 3 px from the frame (a
// best-so-far line on the frame is hidden by the axis line), and inside the axes' ranges.
void checkCurvesInside(QCustomPlot* plot, bool checkKeys, const QString& where)
{
    plot->replot();
    const QRect frame = plot->axisRect()->rect();
    QVERIFY2(frame.height() > 50, qPrintable(where));
    int values = 0;
    for (int g = 0; g < plot->graphCount(); ++g) {
        QCPGraph* graph = plot->graph(g);
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            ++values;
            const QCPRange y = plot->yAxis->range();
            const QString at = QString("%1: %2 at %3 of y %4..%5")
                                   .arg(where, graph->name())
                                   .arg(it->value)
                                   .arg(y.lower)
                                   .arg(y.upper);
            QVERIFY2(y.lower < it->value && it->value < y.upper, qPrintable(at));
            const double py = plot->yAxis->coordToPixel(it->value);
            QVERIFY2(py >= frame.top() + 3 && py <= frame.bottom() - 3,
                     qPrintable(
                         at + QString(": pixel %1 of %2..%3").arg(py).arg(frame.top()).arg(frame.bottom())));
            if (checkKeys) {
                const QCPRange x = plot->xAxis->range();
                QVERIFY2(x.lower < it->key && it->key < x.upper, qPrintable(where + ": key"));
                const double px = plot->xAxis->coordToPixel(it->key);
                QVERIFY2(px >= frame.left() + 3 && px <= frame.right() - 3,
                         qPrintable(where + ": key pixel"));
            }
        }
    }
    QVERIFY2(values > 0, qPrintable(where + ": nothing plotted"));
}

// Curves of best-so-far values: one value, equal values, twelve decades, and a run whose best
// (8.2e12) lies below its last decade tick (1e13).
const std::vector<std::vector<double>> kCurveSets = {
    {8.2e12}, {5e6, 5e6, 5e6}, {1e15, 1e12, 1e9, 1e6, 1e3}, {3e14, 9e13, 2e13, 8.2e12}};

search::SearchResult smallRun(const GenomeLayout& layout)
{
    search::SearchSettings settings;
    settings.budget = 400;
    settings.seed = 2;
    settings.threads = 1;
    const auto optimizer = search::makeOptimizer("sparsemap");
    return search::runSearch(*optimizer, layout, settings);
}

} // namespace

class TestChartExport : public QObject {
    Q_OBJECT
private slots:
    void everyChartSavesThreeFormats()
    {
        const QTemporaryDir dir;
        const GenomeLayout layout(test::toyWorkload(), test::toyArchitecture());
        const auto result = smallRun(layout);
        QVERIFY(result.bestIndex >= 0);

        ConvergencePlotView convergence;
        convergence.resize(800, 500);
        convergence.beginRun("sparsemap");
        for (const auto& g : result.convergence)
            convergence.addGeneration(g);
        convergence.refresh();
        checkFormats(&convergence, dir.path(), "convergence");

        std::vector<Genome> genomes;
        for (const auto& p : result.points)
            genomes.push_back(p.genome);
        std::vector<double> x(genomes.size()), y(genomes.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] = double(i % 17);
            y[i] = double(i % 13);
        }
        DesignSpacePlotView map;
        map.resize(800, 500);
        map.setPoints(result.points, x, y, result.bestIndex);
        checkFormats(&map, dir.path(), "pca");

        ParetoPlotView pareto;
        pareto.resize(800, 500);
        pareto.setPoints(result.points, result.bestIndex);
        QVERIFY(!pareto.front().empty());
        checkFormats(&pareto, dir.path(), "pareto");

        Session session;
        RunRecord run;
        run.name = "sparsemap toy";
        run.method = "sparsemap";
        run.workload = test::toyWorkload();
        run.architecture = test::toyArchitecture();
        run.result = result;
        session.runs.push_back(run);
        CompareView compare;
        compare.resize(1000, 700);
        compare.setSession(session);
        checkFormats(compare.convergencePlot(), dir.path(), "compare");
        checkFormats(compare.validSharePlot(), dir.path(), "valid-share");

        model::GenomeEvaluator evaluator(layout);
        const auto& evaluated = evaluator.evaluate(result.best()->genome.toGenome());
        design::BreakdownChart breakdown;
        breakdown.resize(900, 600);
        breakdown.setResult(layout.workload(), layout.architecture(), evaluated);
        checkFormats(breakdown.chartView(), dir.path(), "breakdown");
    }

    void smallFontsAreRaisedOnlyWhileDrawing()
    {
        // The convergence legend uses 8 pt on screen; the figure's floor is 9 pt, and after saving the
        // screen font is back.
        ConvergencePlotView plot;
        plot.resize(600, 400);
        plot.beginRun("a");
        plot.addGeneration({0, 10, 5.0, 6.0, 0.5});
        plot.addGeneration({1, 20, 4.0, 5.0, 0.5});
        plot.refresh();
        const double screenPt = plot.legend->font().pointSizeF();
        QVERIFY(screenPt < 9);
        const QTemporaryDir dir;
        FigureSize size;
        size.minFontPt = 9;
        // A figure of 9 pt text is drawn bigger than one that keeps the 8 pt legend: compare the ink of
        // the two at the same size. Raising the floor must change the drawing.
        QVERIFY(saveChart(&plot, dir.path() + "/nine.png", size).isEmpty());
        size.minFontPt = 4;
        QVERIFY(saveChart(&plot, dir.path() + "/four.png", size).isEmpty());
        QVERIFY(QImage(dir.path() + "/nine.png") != QImage(dir.path() + "/four.png"));
        QCOMPARE(plot.legend->font().pointSizeF(), screenPt);
        QCOMPARE(plot.legend->item(0)->font().pointSizeF(), screenPt);
    }

    // Every chart that holds several runs or methods saves as PNG, SVG and PDF with 1, 2, 3, 4, 12
    // and 50 of them, at a two-column and at a one-column figure size: the legend below the axes is
    // laid out in columns, and a last row with empty cells crashed the save (null legend items).
    void everyChartKindSavesWithAnyNumberOfRuns()
    {
        const QTemporaryDir dir;
        FigureSize wide, narrow;
        narrow.widthInches = 3.5;
        narrow.heightInches = 2.6;
        narrow.dpi = 150;
        for (const int runs : {1, 2, 3, 4, 12, 50}) {
            Session session;
            for (int r = 0; r < runs; ++r) {
                const std::string name = "sparsemap-random-perm batched-spmm/mobile (" +
                                         std::to_string(r + 2) + ") s" + std::to_string(100 + r);
                session.runs.push_back(curveRun(name, "method-" + std::to_string(r), kCurveSets[r % 4]));
                session.pinned.push_back({"pin " + std::to_string(r), r, 0});
            }
            ConvergencePlotView generations;
            generations.resize(1200, 800);
            for (const auto& run : session.runs) {
                generations.beginRun(QString::fromStdString(run.name));
                for (const auto& g : run.result.convergence)
                    generations.addGeneration(g);
            }
            generations.refresh();
            CompareView compare;
            compare.resize(1200, 800);
            compare.setSession(session);
            QCOMPARE(int(compare.methodShares().size()), runs);
            const std::vector<std::pair<QWidget*, QString>> charts = {
                {&generations, "generations"},
                {compare.convergencePlot(), "compare"},
                {compare.validSharePlot(), "valid-share"}};
            for (const auto& [chart, stem] : charts)
                for (const FigureSize& size : {wide, narrow})
                    for (const QString suffix : {"png", "svg", "pdf"}) {
                        const QString path = dir.filePath(
                            QString("%1-%2-%3.%4").arg(stem).arg(runs).arg(size.widthInches).arg(suffix));
                        const QString error = saveChart(chart, path, size);
                        QVERIFY2(error.isEmpty(), qPrintable(error));
                        QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(path));
                        if (suffix == "png")
                            QCOMPARE(QImage(path).width(), int(std::lround(size.widthInches * size.dpi)));
                    }

            // A sweep's mean convergence of `runs` methods (sparsemap-plot's sweep-<arch>-<workload>).
            const QString sweep = dir.filePath(QString("sweep-%1").arg(runs));
            QVERIFY(QDir().mkpath(sweep));
            QFile csv(sweep + "/convergence.csv");
            QVERIFY(csv.open(QIODevice::WriteOnly));
            csv.write("architecture,workload,method,evaluations,best_geomean\n");
            for (int r = 0; r < runs; ++r)
                for (int g = 0; g < 3; ++g)
                    csv.write(QString("edge,toy,method-%1,%2,%3\n")
                                  .arg(r)
                                  .arg((g + 1) * 100)
                                  .arg(1e9 / (g + 1) / (r + 1))
                                  .toUtf8());
            csv.close();
            FigureOptions options;
            options.outDir = sweep + "/figures";
            options.formats = {ChartFormat::Png, ChartFormat::Svg, ChartFormat::Pdf};
            const QStringList written = renderSweepFigures(sweep, options);
            QCOMPARE(written.size(), 3);
            for (const QString& path : written)
                QVERIFY2(QFileInfo(path).size() > 1000, qPrintable(path));
        }
    }

    // The convergence charts (the Exploration view's per generation, the Compare view's per evaluation)
    // and the energy-delay front show every curve whole: the axis' range holds the lowest and highest
    // value with a margin, never the best on the frame.
    void axesShowEveryCurveWhole()
    {
        for (std::size_t set = 0; set < kCurveSets.size(); ++set) {
            const auto& bests = kCurveSets[set];
            const QString where = QString("curve set %1").arg(set);
            ConvergencePlotView generations;
            generations.resize(800, 500);
            generations.beginRun("a");
            for (const auto& g : curveRun("a", "sparsemap", bests).result.convergence)
                generations.addGeneration(g);
            generations.refresh();
            checkCurvesInside(&generations, false, "generations, " + where);

            Session session;
            session.runs.push_back(curveRun("a", "sparsemap", bests));
            std::vector<double> other = bests; // a second run, a decade above
            for (double& v : other)
                v *= 10;
            session.runs.push_back(curveRun("b", "random", other));
            CompareView compare;
            compare.resize(1000, 700);
            compare.setSession(session);
            checkCurvesInside(compare.convergencePlot(), false, "compare, " + where);

            // The front of designs spread like the curve's values (cycles 1000..5000).
            const search::PointLog points = curveRun("a", "sparsemap", bests).result.points;
            ParetoPlotView pareto;
            pareto.resize(800, 500);
            pareto.setPoints(points, 0);
            checkCurvesInside(&pareto, true, "pareto, " + where);
        }
        // The margins by hand: a factor of 1.5 around one value or equal values; 5 % of the twelve
        // decades (0.6 decade) around 1e3..1e15; 5 % of the span on a linear axis.
        const auto one = paddedAxisRange(8.2e12, 8.2e12, true);
        QVERIFY(one);
        QVERIFY(std::abs(one->lower - 8.2e12 / 1.5) < 1e-9 * 8.2e12);
        QVERIFY(std::abs(one->upper - 8.2e12 * 1.5) < 1e-9 * 8.2e12);
        const auto wide = paddedAxisRange(1e3, 1e15, true);
        QVERIFY(std::abs(std::log10(wide->lower) - 2.4) < 1e-9);
        QVERIFY(std::abs(std::log10(wide->upper) - 15.6) < 1e-9);
        const auto linear = paddedAxisRange(10, 30, false);
        QCOMPARE(linear->lower, 9.0);
        QCOMPARE(linear->upper, 31.0);
        QVERIFY(!paddedAxisRange(0, 5, true));
        QVERIFY(!paddedAxisRange(1, qInf(), true));
        QVERIFY(!paddedAxisRange(qQNaN(), 1, false));
    }

    // A legend below the axes is laid out again for the figure's width: three long run names side by
    // side on a 1600 px screen take more rows in a 3.5 in figure, and no entry runs past its right edge
    // (it was drawn in the screen's three columns and cut, "...mobile (2) s"), nor its frame at the
    // figure's bottom edge.
    void legendFitsTheFiguresWidth()
    {
        ConvergencePlotView plot;
        plot.resize(1600, 500);
        for (int r = 0; r < 3; ++r) {
            plot.beginRun(QString("sparsemap-random-perm batched-spmm/mobile (2) s%1").arg(r + 1));
            plot.addGeneration({0, 10, 5.0 + r, 6.0 + r, 0.5});
        }
        plot.refresh();
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.replot();
        QCOMPARE(plot.legend->columnCount(), 3);
        int figureWidth = -1, figureHeight = -1, legendBottom = -1, widestRight = -1, squeezed = 0;
        connect(&plot, &QCustomPlot::afterLayout, this, [&] {
            figureWidth = plot.viewport().width();
            figureHeight = plot.viewport().height();
            legendBottom = plot.legend->outerRect().bottom();
            for (int i = 0; i < plot.legend->itemCount(); ++i)
                if (QCPAbstractLegendItem* item = plot.legend->item(i)) {
                    widestRight = std::max(widestRight, item->outerRect().right());
                    // Narrower than its text needs: the name is cut.
                    squeezed += item->outerRect().width() < item->minimumOuterSizeHint().width();
                }
        });
        const QTemporaryDir dir;
        FigureSize size;
        size.widthInches = 3.5;
        size.heightInches = 3;
        size.dpi = 100;
        QVERIFY(saveChart(&plot, dir.filePath("narrow.png"), size).isEmpty());
        QCOMPARE(figureWidth, 336); // 3.5 in at 96 units an inch
        QVERIFY2(widestRight > 0 && widestRight <= figureWidth, qPrintable(QString::number(widestRight)));
        QCOMPARE(squeezed, 0);
        // The legend's frame is whole: its bottom line (drawn one pixel under outerRect().bottom()) is
        // inside the figure, not on or past its last row.
        QCOMPARE(figureHeight, 288); // 3 in
        QVERIFY2(legendBottom + 1 < figureHeight - 1, qPrintable(QString::number(legendBottom)));
        // The names were shortened for the figure only.
        QCOMPARE(plot.graph(0)->name(), QString("sparsemap-random-perm batched-spmm/mobile (2) s1"));
    }

    // Units as written in one place (common/objective_label.hpp): energies in µJ, never "uJ", and an
    // EDP always with its unit, on the axes of the charts and in sparsemap-plot's figures.
    void unitsAreWrittenOut()
    {
        ParetoPlotView pareto;
        QCOMPARE(pareto.yAxis->label(), QString::fromUtf8("energy (µJ)"));
        QCOMPARE(pareto.xAxis->label(), QString("cycles"));
        QCOMPARE(objectiveAxisLabel(search::Objective::Edp), QString::fromUtf8("EDP (pJ × cycles)"));
    }

    void badPathsAreRefused()
    {
        ConvergencePlotView plot;
        const QTemporaryDir dir;
        QVERIFY(saveChart(&plot, dir.path() + "/figure.jpg").contains(".png, .svg or .pdf"));
        QVERIFY(saveChart(&plot, dir.path() + "/no-such-folder/figure.png").contains("Cannot write"));
        QWidget notAChart;
        QVERIFY(saveChart(&notAChart, dir.path() + "/x.png").contains("not a chart"));
        // An existing file is left as it was when the save fails (a folder in place of the temporary file
        // cannot be faked portably; a figure size out of range fails before writing).
        QFile existing(dir.path() + "/kept.png");
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("old");
        existing.close();
        FigureSize huge;
        huge.widthInches = 1000;
        QVERIFY(!saveChart(&plot, dir.path() + "/kept.png", huge).isEmpty());
        QCOMPARE(head(dir.path() + "/kept.png", 10), QByteArray("old"));
    }

    void saveChartMenuListsVisibleCharts()
    {
        QWidget window;
        auto* a = new ConvergencePlotView(&window);
        auto* b = new ParetoPlotView(&window);
        a->setGeometry(0, 0, 300, 200);
        b->setGeometry(0, 200, 300, 200);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QMenu menu;
        addSaveChartActions(&menu, &window);
        QStringList titles;
        for (QAction* action : menu.actions())
            titles << action->text();
        QCOMPARE(titles, (QStringList{"Convergence...", "Energy-delay front..."}));
        b->hide();
        addSaveChartActions(&menu, &window);
        QCOMPARE(menu.actions().size(), 1);
        QCOMPARE(a->contextMenuPolicy(), Qt::CustomContextMenu);
    }
};

QTEST_MAIN(TestChartExport)
#include "test_chart_export.moc"
