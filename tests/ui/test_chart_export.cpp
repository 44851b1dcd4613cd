// Saving charts (ui/common/chart_export.hpp): every chart of the workbench writes a non-empty PNG, SVG
// and PDF (checked by their file headers) at the figure size asked for, with small fonts raised while
// drawing and restored after; bad paths are refused without touching an existing file; the File
// menu's Save chart lists the charts on screen.
#include "common/chart_export.hpp"
#include "compare/compare_view.hpp"
#include "design_view/breakdown_chart.hpp"
#include "exploration/convergence_plot_view.hpp"
#include "exploration/design_space_plot_view.hpp"
#include "exploration/pareto_plot_view.hpp"
#include "model/genome_evaluator.hpp"
#include "search/method_registry.hpp"
#include "../core/test_support.hpp"

#include <QChartView>
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
