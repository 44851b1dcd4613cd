// The design view on the toy SpMM (4x8 x 8x4) on the edge preset, with a design written by hand:
//   L1_T (DRAM): K 2 | L2_S (GLB -> 256 PE buffers): M 4, N 4 | L3_T (PE buffer): K 4
// whose loop nest, tiles and dense DRAM traffic are worked out below; then mm3 on the cloud preset
// with a random valid genome, export / import round trips and bad input.
#include "common/elided_label.hpp"
#include "reference_corpus.hpp"
#include "design/loop_nest_text.hpp"
#include "design_view/breakdown_chart.hpp"
#include "design_view/design_palette.hpp"
#include "design_view/design_metrics_panel.hpp"
#include "design_view/design_view.hpp"
#include "design_view/genome_strip.hpp"
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/design_io.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "sparse/tensor_ranks.hpp"

#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHelpEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolTip>
#include <QValueAxis>
#include <QtTest>

#include <cmath>
#include <random>

using namespace sparsemap;
using sparsemap::ui::DesignView;
using sparsemap::ui::design::BreakdownMode;

namespace {

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::max({std::abs(a), std::abs(b), 1e-300});
}

std::shared_ptr<const GenomeLayout> toyLayout()
{
    return std::make_shared<const GenomeLayout>(
        loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/toy.yaml"), loadPreset("edge"));
}

// The hand-written toy design above, every tensor uncompressed, no skipping or gating.
Genome toyGenome(const GenomeLayout& layout)
{
    const Workload& w = layout.workload();
    Design d;
    d.mapping = trivialMapping(layout.architecture(), w); // L1_T L2_T L2_S L3_T L3_S over M K N
    d.mapping.levels[0].bounds = {1, 2, 1};
    d.mapping.levels[2].bounds = {4, 1, 4};
    d.mapping.levels[3].bounds = {1, 4, 1};
    d.sparse.formats.assign(3, std::vector<TensorFormat>(3));
    for (int s = 0; s < 3; ++s)
        for (int t = 0; t < 3; ++t)
            d.sparse.formats[std::size_t(s)][std::size_t(t)].ranks = tensorRanks(w, d.mapping, t, s); // all U
    d.sparse.sites = {SgSite{1, {}}, SgSite{2, {}}, SgSite{kComputeSite, {}}};
    return encodeDesign(layout, d);
}

int geneIndex(const GenomeLayout& layout, const std::string& name)
{
    for (int g = 0; g < layout.size(); ++g)
        if (layout.gene(g).name == name)
            return g;
    return -1;
}

// The sum of every bar set of the chart's stacked series at one category.
double plottedTotal(QChartView* view, int category)
{
    double sum = 0;
    for (auto* series : view->chart()->series())
        for (auto* set : static_cast<QStackedBarSeries*>(series)->barSets())
            sum += set->at(category);
    return sum;
}

// The toy design in `view`, exported as a Sparseloop case into `dir` (made if needed); an error or "".
QString exportToyCase(DesignView& view, const QString& dir)
{
    auto layout = toyLayout();
    const QString error = view.showGenome(layout, toyGenome(*layout), "toy");
    return error.isEmpty() ? view.exportSparseloop(dir) : error;
}

} // namespace

class TestDesignView : public QObject {
    Q_OBJECT
private slots:
    void stripHasOneCellPerGeneWithTooltips();
    void loopNestIsTheHandWrittenOne();
    void metricsOfTheHandWrittenDesign();
    void importedFormatsNameNoUnknownRank();
    void breakdownAxisInWholeUnits();
    void chartSumsAreTheResultsLevels();
    void designYamlRoundTripKeepsMetrics();
    void sparseloopRoundTripKeepsMetrics();
    void badImportLeavesTheDesign();
    void invalidDesignShowsItsReason();
    void mm3OnCloudRandomValidGenome();
    void sparseloopArtefactIsShownUnderTheVerdict();
    void stripScalesToManyGenes();
    void importsASparseloopReferenceCase();
    void everyDenseComputeIsNamed();
    void titleElidesKeepingTheNumber();
    void spconvFormatSegmentsNameTheTensors();
    void mttkrpStripHasFourFormatSegments();
    void importCountsItsNotes();
    void exportMakesANewFolder();
};

void TestDesignView::stripHasOneCellPerGeneWithTooltips()
{
    DesignView view;
    view.resize(1400, 900);
    view.show();
    auto layout = toyLayout();
    // 5 perm + tiling (M 4 = 2x2, K 8 = 2x2x2, N 4 = 2x2: 7) + 15 formats + 3 S/G (GLB, PE buffer, MAC).
    QCOMPARE(layout->size(), 30);
    QSignalSpy changed(&view, &DesignView::designChanged);
    QCOMPARE(view.showGenome(layout, toyGenome(*layout), "toy"), QString());
    QCOMPARE(changed.count(), 1);
    auto* strip = view.genomeStrip();
    QCOMPARE(strip->cellCount(), layout->size());

    // Hovering the first K factor: the gene's description and its value's meaning (level 1 = L1_T).
    const int k1 = geneIndex(*layout, "K#1");
    QVERIFY(k1 >= 0);
    const QRect cell = strip->cellRect(k1);
    QVERIFY(cell.width() >= 18);
    QCOMPARE(strip->geneAt(cell.center()), k1);
    QHelpEvent help(QEvent::ToolTip, cell.center(), strip->mapToGlobal(cell.center()));
    QApplication::sendEvent(strip, &help);
    const QString tip = strip->toolTipFor(k1);
    QVERIFY2(tip.contains(QString::fromStdString(layout->gene(k1).description).toHtmlEscaped()),
             qPrintable(tip));
    QVERIFY2(tip.contains("factor 2 of K tiles level 1, L1_T (DRAM, temporal)"), qPrintable(tip));
    if (QToolTip::isVisible())
        QCOMPARE(QToolTip::text(), tip);

    // A format gene names its format; the S/G gene at the compute names its choice (0 = none).
    QCOMPARE(view.genome()->at(std::size_t(geneIndex(*layout, "P[5]"))), 0);
    QVERIFY(strip->toolTipFor(geneIndex(*layout, "P[5]")).contains("U (uncompressed)"));
    QVERIFY(strip->toolTipFor(geneIndex(*layout, "S/G compute")).contains(": none"));

    // Clicking selects the gene.
    QSignalSpy selected(strip, &ui::design::GenomeStrip::geneSelected);
    QTest::mouseClick(strip, Qt::LeftButton, Qt::NoModifier, cell.center());
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toInt(), k1);
    QCOMPARE(strip->selectedGene(), k1);
}

void TestDesignView::loopNestIsTheHandWrittenOne()
{
    DesignView view;
    auto layout = toyLayout();
    QCOMPARE(view.showGenome(layout, toyGenome(*layout), "toy"), QString());
    const QString nest = view.loopNestView()->toPlainText();
    // Tiles: DRAM holds everything; the GLB tile spans L2_T..L3_S (M 4, K 4, N 4); a PE buffer's
    // spans L3_T..L3_S (K 4). Loop names carry their mapping level (1 = L1_T ... 5 = L3_S).
    const QString expected = "// DRAM tile: P[4x8] Q[8x4] Z[4x4]\n"
                             "for k1 in [0,2)\n"
                             "  // GLB tile: P[4x4] Q[4x4] Z[4x4]\n"
                             "  par-for m3 in [0,4)\n"
                             "    par-for n3 in [0,4)\n"
                             "      // PE buffer tile: P[1x4] Q[4x1] Z[1x1]\n"
                             "      for k4 in [0,4)\n"
                             "        Z[m,n] += P[m,k] * Q[k,n]\n";
    QVERIFY2(nest.startsWith(expected), qPrintable(nest));
    QVERIFY(nest.contains("compute: none"));
    QVERIFY(view.metricsPanel()->validityLabel()->text().contains("valid"));
}

void TestDesignView::metricsOfTheHandWrittenDesign()
{
    DesignView view;
    auto layout = toyLayout();
    QCOMPARE(view.showGenome(layout, toyGenome(*layout), "toy"), QString());
    // A PE buffer (16 in use, one per (m, n)) writes per instance: P[1x4] filled once per k1 step
    // (2 x 4 = 8), Q likewise 8, Z's partial sum filled back once for the second k1 step and updated
    // by each of its 8 MACs: 25 words at 1 word/cycle = 25 cycles, while the 16 MACs need
    // 128 / 16 = 8 cycles. So 25 cycles, the PE buffer throttled to 8/25, and 128 / (25 x 256) = 2 %.
    QCOMPARE(view.result().cycles, 25.0);
    auto* panel = view.metricsPanel();
    QCOMPARE(panel->summaryValue("cycles"), QString("25"));
    QCOMPARE(panel->summaryValue("utilization"), QString("2.00 % of 256 MACs"));
    auto* table = panel->levelTable();
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(table->item(2, 6)->text(), QString("0.32"));
    // Capacity (uncompressed, no metadata): GLB holds P, Q, Z tiles of 4x4 = 48 words of 128 KB of
    // 8-bit words; a PE buffer P[1x4] + Q[4x1] + Z[1x1] = 9 of 1024.
    QCOMPARE(table->item(1, 2)->text(), QString("48 / 131072 (0.037 %)"));
    QCOMPARE(table->item(2, 2)->text(), QString("9 / 1024 (0.88 %)"));
    QCOMPARE(table->item(2, 1)->text(), QString("16 / 16 / 256"));

    // An imported Sparseloop buffer of depth 0 holds no word: its capacity cell says so, no "nan %".
    Architecture noRoom = view.architecture();
    noRoom.levels[1].capacityBits = 1; // what the Sparseloop reader makes of depth 0
    QCOMPARE(noRoom.levels[1].capacityWords(), std::int64_t{0});
    panel->setResult(noRoom, view.result());
    QCOMPARE(table->item(1, 2)->text(), QString("48 / 0 (no capacity)"));

    // A fractional instance count is the model's average of the instances in use (a sparse tile may
    // be empty): shown with what it is out of, not as a bare "15.5904".
    model::EvaluationResult sparse = view.result();
    sparse.levels[2].tensors[0].instances = 16 * 0.9744;
    sparse.levels[2].instances = 16 * 0.9744;
    panel->setResult(view.architecture(), sparse);
    QCOMPARE(table->item(2, 1)->text(), QString("15.6 / 16 / 256"));
    auto* breakdown = view.breakdownChart();
    breakdown->setResult(view.workload(), view.architecture(), sparse);
    const auto instancesOf = [&](const QString& level, const QString& tensor) {
        const QTableWidget* t = breakdown->table();
        for (int row = 0; row < t->rowCount(); ++row)
            if (t->item(row, 0)->text() == level && t->item(row, 1)->text() == tensor)
                return t->item(row, 2)->text();
        return QString("(no row %1 %2)").arg(level, tensor);
    };
    const QString pe = QString::fromStdString(view.architecture().levels[2].name);
    const QString glb = QString::fromStdString(view.architecture().levels[1].name);
    QCOMPARE(instancesOf(pe, "P"), QString("15.6 of 16 (average)"));
    QCOMPARE(instancesOf(pe, "Q"), QString("16")); // in every PE buffer
    QCOMPARE(instancesOf(pe + " total", ""), QString("15.6 of 16 (average)"));
    QCOMPARE(instancesOf(glb, "P"), QString("1")); // the GLB's one instance
}

void TestDesignView::breakdownAxisInWholeUnits()
{
    // A design of 3e7 pJ at its most costly level: the axis reads 0..35 µJ, not 0..3.5e+07 pJ; the
    // bars are drawn in µJ, the data and the tooltips stay in pJ.
    DesignView view;
    auto layout = toyLayout();
    QCOMPARE(view.showGenome(layout, toyGenome(*layout), "toy"), QString());
    model::EvaluationResult r = view.result();
    for (auto& level : r.levels)
        for (auto& t : level.tensors)
            t.energyPj = 0;
    r.levels[0].tensors[0].energyPj = 3e7;
    r.compute.energyPj = 5e6;
    auto* chart = view.breakdownChart();
    chart->setMode(BreakdownMode::Energy);
    chart->setResult(view.workload(), view.architecture(), r);
    QCOMPARE(chart->axisScale(), 1e6);
    QCOMPARE(plottedTotal(chart->chartView(), 0), 30.0);
    QCOMPARE(plottedTotal(chart->chartView(), 3), 5.0);
    QCOMPARE(chart->data().categoryTotal(0), 3e7);
    QValueAxis* axis = nullptr;
    for (auto* a : chart->chartView()->chart()->axes(Qt::Vertical))
        axis = qobject_cast<QValueAxis*>(a);
    QVERIFY(axis);
    QCOMPARE(axis->titleText(), QString("energy (µJ)"));
    QVERIFY2(axis->max() >= 31.5 && axis->max() <= 40, qPrintable(QString::number(axis->max())));
    QVERIFY(!QString::asprintf(axis->labelFormat().toUtf8().constData(), axis->max()).contains('e'));
    // Accesses of 2 million: in millions.
    chart->setMode(BreakdownMode::Accesses);
    QVERIFY(chart->axisScale() == 1 || chart->axisScale() == 1e3); // the toy's accesses: a few hundred
    r.levels[0].tensors[0].reads.actual = 2e6;
    chart->setResult(view.workload(), view.architecture(), r);
    QCOMPARE(chart->axisScale(), 1e3);
    for (auto* a : chart->chartView()->chart()->axes(Qt::Vertical))
        axis = qobject_cast<QValueAxis*>(a);
    QCOMPARE(axis->titleText(), QString("accesses (thousands of words; MACs)"));
}

void TestDesignView::importedFormatsNameNoUnknownRank()
{
    // A format imported from Sparseloop declares its ranks without dims (the model binds them): it reads
    // "UOP-CP (ranks bound by the model)", not "UOP(?)-CP(?)"; a bound rank keeps its dim.
    const Workload w = loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/toy.yaml");
    const auto rank = [](int dim, int mappingLevel, RankFormat format) {
        FormatRank r;
        r.dim = dim;
        r.mappingLevel = mappingLevel;
        r.format = format;
        return r;
    };
    TensorFormat imported;
    imported.ranks = {rank(-1, -1, RankFormat::UOP), rank(-1, -1, RankFormat::CP)};
    QCOMPARE(formatText(w, imported), std::string("UOP-CP (ranks bound by the model)"));
    TensorFormat bound;
    bound.ranks = {rank(0, 1, RankFormat::UOP), rank(2, 3, RankFormat::CP)};
    QCOMPARE(formatText(w, bound), "UOP(" + w.dims[0].name + "2)-CP(" + w.dims[2].name + "4)");
}

void TestDesignView::chartSumsAreTheResultsLevels()
{
    DesignView view;
    view.resize(1400, 900);
    view.show();
    auto layout = toyLayout();
    QCOMPARE(view.showGenome(layout, toyGenome(*layout), "toy"), QString());
    const auto& r = view.result();
    QVERIFY(r.valid);
    auto* chart = view.breakdownChart();
    chart->setMode(BreakdownMode::Energy);
    const auto& data = chart->data();
    QCOMPARE(data.categories, QStringList({"DRAM", "GLB", "PE buffer", "MAC"}));
    for (int s = 0; s < 3; ++s) {
        QVERIFY(r.levels[std::size_t(s)].energyPj > 0);
        QVERIFY(near(data.categoryTotal(s), r.levels[std::size_t(s)].energyPj));
        QVERIFY(near(plottedTotal(chart->chartView(), s) * chart->axisScale(),
                     r.levels[std::size_t(s)].energyPj));
    }
    QVERIFY(near(plottedTotal(chart->chartView(), 3) * chart->axisScale(), r.compute.energyPj));
    double all = 0;
    for (int c = 0; c < 4; ++c)
        all += plottedTotal(chart->chartView(), c) * chart->axisScale();
    QVERIFY(near(all, r.energyPj));

    // Accesses: with no S/G every access is actual. DRAM (one instance) sends each P and Q element
    // up once (the only DRAM loop, k1, walks disjoint K halves): 32 reads each; Z's 16 outputs are
    // updated once. The 128 dense MACs (4 x 8 x 4) are all actual.
    chart->setMode(BreakdownMode::Accesses);
    const auto& acc = chart->data();
    auto seriesValue = [&acc](const QString& name, int category) {
        for (const auto& s : acc.series)
            if (s.name == name)
                return s.values.at(std::size_t(category));
        return -1.0;
    };
    QCOMPARE(seriesValue("P actual", 0), 32.0);
    QCOMPARE(seriesValue("Q actual", 0), 32.0);
    QCOMPARE(seriesValue("Z actual", 0), 16.0);
    QCOMPARE(seriesValue("compute actual", 3), 128.0);
    QCOMPARE(seriesValue("P gated", 0), -1.0); // zero everywhere: no series
    const auto& dram = r.levels[0].tensors[0];
    QCOMPARE(seriesValue("P actual", 0),
             (dram.reads.actual + dram.fills.actual + dram.updates.actual) * dram.instances);
    // The table has one row per kept tensor and level, a total per level, and the compute.
    QCOMPARE(chart->table()->rowCount(), 3 * 3 + 3 + 1);
}

void TestDesignView::designYamlRoundTripKeepsMetrics()
{
    DesignView view;
    auto layout = toyLayout();
    QCOMPARE(view.showGenome(layout, toyGenome(*layout), "toy"), QString());
    QTemporaryDir dir;
    const QString path = dir.filePath("design.yaml");
    QCOMPARE(view.exportDesignYaml(path), QString());
    const auto doc = loadDesignFile(path.toStdString(), layout->workload(), layout->architecture());
    QCOMPARE(doc.genome, *view.genome());
    QVERIFY(doc.metrics.has_value());
    const GenomeLayout again(layout->workload(), layout->architecture(), doc.options);
    model::GenomeEvaluator evaluator(again);
    const auto& r = evaluator.evaluate(doc.genome);
    QCOMPARE(r.valid, view.result().valid);
    QCOMPARE(r.cycles, view.result().cycles);
    QCOMPARE(r.energyPj, view.result().energyPj);
    QCOMPARE(r.edp, view.result().edp);
    QCOMPARE(doc.metrics->cycles, r.cycles);
    QCOMPARE(doc.metrics->energyPj, r.energyPj);
}

void TestDesignView::sparseloopRoundTripKeepsMetrics()
{
    DesignView view;
    auto layout = toyLayout();
    QCOMPARE(view.showGenome(layout, toyGenome(*layout), "toy"), QString());
    const double cycles = view.result().cycles, energy = view.result().energyPj;
    QTemporaryDir dir;
    QCOMPARE(view.exportSparseloop(dir.path()), QString());
    QVERIFY(QFileInfo::exists(dir.filePath("aggregated_input.yaml")));
    QVERIFY(QFileInfo::exists(dir.filePath("ERT.yaml")));
    QCOMPARE(view.sparseloopExportNote(dir.path()), QString()); // Sparseloop reads it as we do
    QSignalSpy changed(&view, &DesignView::designChanged);
    QCOMPARE(view.importSparseloop(dir.path()), QString());
    QCOMPARE(changed.count(), 1);
    QVERIFY(view.sparseloopCase());
    QVERIFY(!view.genome());
    QCOMPARE(view.genomeStrip()->cellCount(), 0);
    QVERIFY(view.result().valid);
    QVERIFY(near(view.result().cycles, cycles));
    QVERIFY(near(view.result().energyPj, energy));
    // An imported case has no genome: no design YAML, but it exports as Sparseloop again.
    QVERIFY(!view.exportDesignYaml(dir.filePath("x.yaml")).isEmpty());
    QVERIFY(!view.exportYamlButton()->isEnabled());
    QTemporaryDir second;
    QCOMPARE(view.exportSparseloop(second.path()), QString());
    DesignView other;
    QCOMPARE(other.importSparseloop(second.path()), QString());
    QCOMPARE(other.result().cycles, view.result().cycles);
    QCOMPARE(other.result().energyPj, view.result().energyPj);
}

void TestDesignView::badImportLeavesTheDesign()
{
    DesignView view;
    auto layout = toyLayout();
    QCOMPARE(view.showGenome(layout, toyGenome(*layout), "toy"), QString());
    const QString nest = view.loopNestView()->toPlainText();
    const double energy = view.result().energyPj;
    QSignalSpy changed(&view, &DesignView::designChanged);

    QTemporaryDir empty;
    const QString missing = view.importSparseloop(empty.path());
    QVERIFY(!missing.isEmpty());
    QVERIFY2(missing.contains("aggregated_input.yaml"), qPrintable(missing));

    QTemporaryDir broken;
    QFile file(broken.filePath("aggregated_input.yaml"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("architecture: [this is not\n");
    file.close();
    const QString error = view.importSparseloop(broken.path());
    QVERIFY(!error.isEmpty());
    QVERIFY(!view.messageLabel()->isHidden());
    QCOMPARE(view.messageLabel()->text(), error);

    QCOMPARE(changed.count(), 0);
    QCOMPARE(view.title(), QString("toy"));
    QVERIFY(view.genome().has_value());
    QCOMPARE(view.loopNestView()->toPlainText(), nest);
    QCOMPARE(view.result().energyPj, energy);

    // A genome that does not fit the layout is refused the same way.
    QVERIFY(!view.showGenome(layout, Genome{1, 2, 3}, "short").isEmpty());
    QCOMPARE(view.title(), QString("toy"));
}

void TestDesignView::invalidDesignShowsItsReason()
{
    DesignView view;
    auto layout = toyLayout();
    Genome genome = toyGenome(*layout);
    // The first factor 2 of M to L3_S: a spatial 2 below a PE buffer, which feeds a single MAC.
    const int m1 = geneIndex(*layout, "M#1");
    genome[std::size_t(m1)] = 5;
    QCOMPARE(view.showGenome(layout, genome, "bad"), QString());
    QVERIFY(!view.result().valid);
    const QString reason = QString::fromStdString(view.result().reason);
    QVERIFY(!reason.isEmpty());
    const QString shown = view.metricsPanel()->validityLabel()->text();
    QVERIFY2(shown.contains("invalid") && shown.contains(reason.toHtmlEscaped()), qPrintable(shown));
    QVERIFY(view.breakdownChart()->data().categories.isEmpty());
    QVERIFY(view.loopNestView()->toPlainText().contains("par-for m5 in [0,2)"));
}

void TestDesignView::mm3OnCloudRandomValidGenome()
{
    auto layout = std::make_shared<const GenomeLayout>(
        loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/mm3.yaml"), loadPreset("cloud"));
    model::GenomeEvaluator evaluator(*layout);
    std::mt19937_64 rng(1);
    Genome genome;
    for (int i = 0; i < 100000 && genome.empty(); ++i) {
        Genome g = randomGenome(*layout, rng);
        if (evaluator.evaluate(g).valid)
            genome = g;
    }
    QVERIFY(!genome.empty());
    DesignView view;
    view.resize(1600, 1000);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.showGenome(layout, genome, "mm3 on cloud: a random valid genome"), QString());
    QCOMPARE(view.genomeStrip()->cellCount(), layout->size());
    QVERIFY(view.result().valid);
    QCOMPARE(view.result().energyPj, evaluator.evaluate(genome).energyPj);
    for (std::size_t s = 0; s < view.result().levels.size(); ++s)
        QVERIFY(near(view.breakdownChart()->data().categoryTotal(int(s)), view.result().levels[s].energyPj));
    // This design compresses with formats bound to loops and gates at the compute on one operand:
    // Sparseloop reads it differently, and the export says so.
    {
        QTemporaryDir dir;
        QCOMPARE(view.exportSparseloop(dir.path()), QString());
        DesignView imported;
        QCOMPARE(imported.importSparseloop(dir.path()), QString());
        const QString note = view.sparseloopExportNote(dir.path());
        if (near(imported.result().energyPj, view.result().energyPj) &&
            near(imported.result().cycles, view.result().cycles))
            QCOMPARE(note, QString());
        else
            QVERIFY2(note.contains("as Sparseloop reads it"), qPrintable(note));
    }
    // Screenshots for a look: SPARSEMAP_SHOTS=dir saves the view on both tabs.
    const QString shots = qEnvironmentVariable("SPARSEMAP_SHOTS");
    if (!shots.isEmpty()) {
        view.grab().save(shots + "/design-mm3-metrics.png");
        view.detailTabs()->setCurrentIndex(1);
        QTest::qWait(50);
        view.grab().save(shots + "/design-mm3-breakdown.png");
        auto toy = toyLayout();
        view.showGenome(toy, toyGenome(*toy), "toy: the hand-written design");
        view.genomeStrip()->setSelectedGene(geneIndex(*toy, "K#1"));
        QTest::qWait(50);
        view.grab().save(shots + "/design-toy-breakdown.png");
        view.breakdownChart()->setMode(BreakdownMode::Accesses);
        QTest::qWait(50);
        view.grab().save(shots + "/design-toy-accesses.png");
        view.detailTabs()->setCurrentIndex(0);
        QTest::qWait(50);
        view.grab().save(shots + "/design-toy-metrics.png");
    }
}

// mm5 on edge with the PE buffers' 28 x 28 tiles of Z compressed: Sparseloop sees no occupancy for them
// (test_model_sparse's sparseloopArtefactIsFlagged works the rounding out); the panel says so under
// "valid", and says nothing for the same design with Z uncompressed.
void TestDesignView::sparseloopArtefactIsShownUnderTheVerdict()
{
    auto layout = std::make_shared<const GenomeLayout>(
        loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/mm5.yaml"), loadPreset("edge"));
    Genome genome{2, 1, 1, 5, 1, 1, 1, 3, 3, 3, 3, 4, 4, 1, 4, 1, 1, 1, 1, 1, 1, 3, 4, 1, 1, 1, 1,
                  1, 3, 3, 3, 4, 4, 1, 4, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 3, 6, 5};
    DesignView view;
    QCOMPARE(view.showGenome(layout, genome, "mm5 on edge"), QString());
    // SPARSEMAP_SHOTS=dir saves the view at both sizes, for a look.
    if (const QString shots = qEnvironmentVariable("SPARSEMAP_SHOTS"); !shots.isEmpty())
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            view.resize(size);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            QTest::qWait(50);
            view.grab().save(shots + QString("/design-mm5-artefact-%1.png").arg(size.width()));
        }
    QString shown = view.metricsPanel()->validityLabel()->text();
    QVERIFY2(shown.startsWith("<b>valid</b><br>") &&
                 shown.contains("Sparseloop artefact: Sparseloop sees no occupancy for Z at PE buffer"),
             qPrintable(shown));
    const int z = layout->outputTensor();
    for (int i = 0; i < layout->size(); ++i)
        if (layout->gene(i).segment == GeneSegment::Format && layout->gene(i).tensor == z)
            genome[std::size_t(i)] = 0;
    QCOMPARE(view.showGenome(layout, genome, "mm5 on edge, Z uncompressed"), QString());
    shown = view.metricsPanel()->validityLabel()->text();
    QCOMPARE(shown, QString("<b>valid</b>"));
}

void TestDesignView::stripScalesToManyGenes()
{
    // The bundled workload with the longest genome on the cloud preset (MTTKRP's 68 genes).
    std::shared_ptr<const GenomeLayout> layout;
    QDirIterator it(SPARSEMAP_SOURCE_DIR "/samples/workloads", {"*.yaml"}, QDir::Files);
    while (it.hasNext()) {
        const auto workload = loadWorkloadFile(it.next().toStdString());
        auto candidate = std::make_shared<const GenomeLayout>(workload, loadPreset("cloud"));
        if (!layout || candidate->size() > layout->size())
            layout = candidate;
    }
    QVERIFY(layout->size() >= 40);
    std::mt19937_64 rng(3);
    DesignView view;
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.showGenome(layout, randomGenome(*layout, rng), "longest genome"), QString());
    auto* strip = view.genomeStrip();
    QCOMPARE(strip->cellCount(), layout->size());
    QTRY_VERIFY(strip->width() >= strip->minimumSizeHint().width());
    // Cells never shrink below 18 px and never overlap; the last one is inside the strip.
    for (int g = 0; g < layout->size(); ++g) {
        QVERIFY(strip->cellRect(g).width() >= 18);
        if (g > 0)
            QVERIFY(strip->cellRect(g).left() >= strip->cellRect(g - 1).right());
    }
    QVERIFY(strip->cellRect(layout->size() - 1).right() < strip->width());
    QCOMPARE(strip->geneAt(strip->cellRect(layout->size() - 1).center()), layout->size() - 1);
    const QString shots = qEnvironmentVariable("SPARSEMAP_SHOTS");
    if (!shots.isEmpty())
        view.grab().save(shots + "/design-long-genome.png");
}

void TestDesignView::importsASparseloopReferenceCase()
{
    // Sparseloop's own run of this case printed "Cycles: 48875" and "Energy: 201.64 uJ"
    // (timeloop-model.stats.txt beside it); the model reproduces the references within 0.1 %.
    QString root = qEnvironmentVariable("SPARSEMAP_REFERENCE_DIR");
    if (root.isEmpty())
        root = SPARSEMAP_SOURCE_DIR "/../shared/reference/sparseloop";
    const QString dir = root + "/stc/WD-1.0/M512-K1024-N256-IAD0.27-WD1.0/DSTC-RF2x-24-bandwidth";
    if (!QFileInfo::exists(dir + "/aggregated_input.yaml"))
        SPARSEMAP_REFERENCE_MISSING("the Sparseloop reference cases (../shared/reference/sparseloop)");
    DesignView view;
    view.resize(1600, 1000);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.importSparseloop(dir), QString());
    QVERIFY(view.result().valid);
    QVERIFY2(std::abs(view.result().cycles - 48875) <= 0.001 * 48875,
             qPrintable(QString::number(view.result().cycles)));
    QVERIFY2(std::abs(view.result().energyPj - 201.64e6) <= 0.001 * 201.64e6,
             qPrintable(QString::number(view.result().energyPj)));
    QCOMPARE(view.genomeStrip()->cellCount(), 0);
    QVERIFY(!view.loopNestView()->toPlainText().contains("cannot be written"));
    QVERIFY(view.loopNestView()->toPlainText().contains("formats:"));
    QCOMPARE(view.breakdownChart()->data().categories.size(), int(view.architecture().levels.size()) + 1);
    const QString shots = qEnvironmentVariable("SPARSEMAP_SHOTS");
    if (!shots.isEmpty()) {
        view.detailTabs()->setCurrentIndex(1);
        QTest::qWait(50);
        view.grab().save(shots + "/design-sparseloop-case.png");
    }
}

// The toy SpMM is 4 x 8 x 4 = 128 dense computes: whatever the design's formats and S/G, the Metrics
// line names all of them, actual + gated + skipped + not issued = 128.
void TestDesignView::everyDenseComputeIsNamed()
{
    auto layout = toyLayout();
    std::mt19937_64 rng(7);
    const QRegularExpression line(
        R"(^(\d+) actual \+ (\d+) gated \+ (\d+) skipped \+ (\d+) not issued = (\d+) \(dense\))");
    int checked = 0, sparse = 0;
    for (int i = 0; i < 400 && checked < 30; ++i) {
        DesignView view;
        Genome g = randomGenome(*layout, rng);
        orderFormatGenesForSparseloop(*layout, g); // draws in the design space Sparseloop scores
        if (!view.showGenome(layout, g, "random").isEmpty() || !view.result().valid)
            continue;
        const QString text = view.metricsPanel()->summaryValue("computes");
        const auto match = line.match(text);
        QVERIFY2(match.hasMatch(), qPrintable(text));
        const qint64 actual = match.captured(1).toLongLong(), gated = match.captured(2).toLongLong(),
                     skipped = match.captured(3).toLongLong(), rest = match.captured(4).toLongLong();
        QCOMPARE(match.captured(5).toLongLong(), qint64(128));
        QCOMPARE(actual + gated + skipped + rest, qint64(128));
        QCOMPARE(double(actual), view.result().compute.actual);
        QCOMPARE(double(gated), view.result().compute.gated);
        QCOMPARE(double(skipped), view.result().compute.skipped);
        sparse += gated + skipped + rest > 0;
        ++checked;
    }
    QVERIFY(checked >= 10);
    QVERIFY(sparse > 0); // some designs gate, skip or drop computes
}

// A long title is elided in the middle: the design number at its end stays readable, and the full
// title is the tooltip.
void TestDesignView::titleElidesKeepingTheNumber()
{
    DesignView view;
    view.resize(1024, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto layout = toyLayout();
    const QString title =
        "sparsemap-random-perm batched-spmm/mobile (2) s123456, a long run name, design #222960";
    QCOMPARE(view.showGenome(layout, toyGenome(*layout), title), QString());
    view.resize(500, 700);
    QTRY_VERIFY(view.titleLabel()->isElided());
    QVERIFY2(view.titleLabel()->text().endsWith("#222960"), qPrintable(view.titleLabel()->text()));
    QCOMPARE(view.titleLabel()->toolTip(), title);
    QCOMPARE(view.titleLabel()->fullText(), title);
    view.resize(1600, 1000);
    QTRY_VERIFY(!view.titleLabel()->isElided());
    // Narrower than "…, design #222960": the number still stands whole after the ellipsis.
    view.titleLabel()->resize(view.titleLabel()->fontMetrics().horizontalAdvance("design #222960") / 2,
                              view.titleLabel()->height());
    QVERIFY2(view.titleLabel()->text() == QString(QChar(0x2026)) + "#222960",
             qPrintable(view.titleLabel()->text()));
    QCOMPARE(view.titleLabel()->toolTip(), title);
}

// SpConv's dims include P and Q, so its format segments are named after its tensors I, W and O
// (README: the input I is operand P, the weights W operand Q, the output O is Z).
void TestDesignView::spconvFormatSegmentsNameTheTensors()
{
    const GenomeLayout layout(loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/conv4.yaml"),
                              loadPreset("mobile"));
    QCOMPARE(layout.segmentName(GeneSegment::Format, 0), std::string("I"));
    QCOMPARE(layout.segmentName(GeneSegment::Format, 1), std::string("W"));
    QCOMPARE(layout.segmentName(GeneSegment::Format, 2), std::string("O"));
    QCOMPARE(layout.gene(layout.formatSegment(1).begin).name, std::string("W[1]"));
    QCOMPARE(sparsemap::ui::design::segmentCaption(layout, GeneSegment::Format, 2), QString("O fmt"));
    // The toy SpMM's tensors are called P, Q and Z themselves.
    QCOMPARE(toyLayout()->segmentName(GeneSegment::Format, 0), std::string("P"));
}

// MTTKRP (A, B, C -> O): the strip draws four format segments, one per tensor, each with its caption
// and its own colour, set apart by the segment gap; 7 parts in all (perm, tiling, 4 formats, S/G).
void TestDesignView::mttkrpStripHasFourFormatSegments()
{
    auto layout = std::make_shared<const GenomeLayout>(
        loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/mttkrp.yaml"), loadPreset("edge"));
    QCOMPARE(layout->size(), 68);
    DesignView view;
    view.resize(1600, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    std::mt19937_64 rng(5);
    QCOMPARE(view.showGenome(layout, randomGenome(*layout, rng), "mttkrp"), QString());
    auto* strip = view.genomeStrip();
    QCOMPARE(strip->cellCount(), 68);
    // Within a segment cells abut; between two parts there is a gap of a few pixels.
    auto gapBefore = [&](int gene) {
        return strip->cellRect(gene).left() - strip->cellRect(gene - 1).right();
    };
    const int within = gapBefore(46); // A[1] -> A[2]
    QVERIFY(within <= 1);
    const char* names[] = {"A", "B", "C", "O"};
    QSet<QRgb> colours;
    for (int slot = 0; slot < 4; ++slot) {
        const auto r = layout->formatSegment(slot);
        QCOMPARE(layout->gene(r.begin).name, std::string(names[slot]) + "[1]");
        QVERIFY2(gapBefore(r.begin) >= within + 3, names[slot]); // a new part starts here
        QCOMPARE(sparsemap::ui::design::segmentCaption(*layout, GeneSegment::Format, slot),
                 QString(names[slot]) + " fmt");
        colours.insert(sparsemap::ui::design::segmentColor(*layout, GeneSegment::Format, slot).rgb());
    }
    QCOMPARE(colours.size(), 4);
    QVERIFY(gapBefore(layout->segment(GeneSegment::SkipGate).begin) >= within + 3);
    QVERIFY(strip->cellRect(67).right() < strip->width());
    // An S/G gene's tooltip names a three-input choice.
    const int sg = layout->segment(GeneSegment::SkipGate).begin;
    QVERIFY2(strip->toolTipFor(sg).contains("18 Skip B&lt;-&gt;C"), qPrintable(strip->toolTipFor(sg)));
}

// The import message counts its notes in words: an exported case read back has one note (the importer
// always says how it read compound_components), one unknown top-level key in the input adds a second.
void TestDesignView::importCountsItsNotes()
{
    DesignView view;
    QTemporaryDir dir;
    QCOMPARE(exportToyCase(view, dir.path()), QString());
    DesignView one;
    QCOMPARE(one.importSparseloop(dir.path()), QString());
    QCOMPARE(one.sparseloopCase()->notes.size(), std::size_t(1));
    QVERIFY2(one.messageLabel()->text().contains("(1 note on"), qPrintable(one.messageLabel()->text()));
    QFile input(dir.filePath("aggregated_input.yaml"));
    QVERIFY(input.open(QIODevice::Append));
    input.write("\nmy_own_remarks: kept for later\n");
    input.close();
    DesignView two;
    QCOMPARE(two.importSparseloop(dir.path()), QString());
    QCOMPARE(two.sparseloopCase()->notes.size(), std::size_t(2));
    QVERIFY2(two.messageLabel()->text().contains("(2 notes on"), qPrintable(two.messageLabel()->text()));
}

// The Sparseloop export takes a folder that does not exist yet (its chooser is a save dialog, not an
// open-folder one) and makes it, parents included.
void TestDesignView::exportMakesANewFolder()
{
    DesignView view;
    QTemporaryDir dir;
    const QString fresh = dir.filePath("new/case");
    QVERIFY(!QFileInfo::exists(fresh));
    QCOMPARE(exportToyCase(view, fresh), QString());
    QVERIFY(QFileInfo::exists(fresh + "/aggregated_input.yaml"));
    QVERIFY(QFileInfo::exists(fresh + "/ERT.yaml"));
}

QTEST_MAIN(TestDesignView)
#include "test_design_view.moc"
