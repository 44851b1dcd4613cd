// The hardware-behaviour view on the hand example of tests/core/hardware_example.hpp: a 4x4x4 SpMM
// on 4 PEs x 4 MACs whose mapping uses PEs 0-1 (par-for n3 in [0,2)) and MACs 0-1 of each
// (par-for k5 in [0,2)), 16 time steps, operands from hand-written .mtx files and Gate Q <- P at
// compute. Step 0: MACs 0, 4 active, 1, 5 gated; the other 12 unused.
#include "../core/hardware_example.hpp"
#include "../core/test_support.hpp"
#include "design_view/design_view.hpp"
#include "genome/genome_codec.hpp"
#include "hardware_view/hardware_behavior_view.hpp"
#include "io/architecture_io.hpp"
#include "io/sparseloop/sparseloop_import.hpp"
#include "io/sparseloop/sparseloop_options.hpp"
#include "model/evaluator.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "hardware_view/hardware_scene_items.hpp"
#include "mapping/mapping.hpp"
#include "workbench/main_window.hpp"
#include "workload/workload_factory.hpp"

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QComboBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSlider>
#include <QtTest>
#include <cmath>
#include <random>

using namespace sparsemap;
using analysis::MacState;
using sparsemap::ui::HardwareBehaviorView;
using sparsemap::ui::PeItem;

namespace {

Design handDesign(const Workload& w, const Architecture& arch)
{
    Design d = test::hardwareExampleDesign(w, arch);
    d.sparse.sites.push_back(SgSite{kComputeSite, {SgAction{SgKind::Gate, 1, {0}}}});
    return d;
}

// The first valid genome of seed 5's random draws (empty when 50,000 draws find none).
Genome firstValidGenome(const GenomeLayout& layout)
{
    model::GenomeEvaluator evaluator(layout);
    std::mt19937_64 rng(5);
    for (int draw = 0; draw < 50000; ++draw) {
        Genome g = randomGenome(layout, rng);
        if (evaluator.evaluate(g).valid)
            return g;
    }
    return {};
}

} // namespace

class TestHardwareView : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_workload = test::hardwareExampleWorkload(QDir(m_dir.path()), "hand");
        m_arch = test::toyArchitecture();
    }

    void highlightsTheUsedPes()
    {
        HardwareBehaviorView view;
        view.setDesign(m_workload, m_arch, handDesign(m_workload, m_arch), {});
        QVERIFY(view.errorText().isEmpty());
        QCOMPARE(view.stepCount(), std::int64_t{16});
        int pes = 0, used = 0;
        for (QGraphicsItem* item : view.scene()->items())
            if (item->type() == PeItem::Type) {
                ++pes;
                if (static_cast<PeItem*>(item)->used()) {
                    ++used;
                    QVERIFY(static_cast<PeItem*>(item)->pe() < 2);
                }
            }
        QCOMPARE(pes, 4);
        QCOMPARE(used, 2);
        // The GLB's tile of P at step 0 (m1 = 0) is labelled in the scene.
        bool found = false;
        for (QGraphicsItem* item : view.scene()->items())
            if (auto* text = qgraphicsitem_cast<QGraphicsSimpleTextItem*>(item))
                found = found || text->text() == QStringLiteral("P[0:2,0:4]");
        QVERIFY(found);
    }

    void steppingRecoloursTheMacs()
    {
        HardwareBehaviorView view;
        view.setDesign(m_workload, m_arch, handDesign(m_workload, m_arch), {});
        QSignalSpy spy(&view, &HardwareBehaviorView::stepChanged);
        QCOMPARE(view.step(), std::int64_t{0});
        auto c = view.shownCounts();
        QCOMPARE(c.active, std::int64_t{2});
        QCOMPARE(c.gated, std::int64_t{2});
        QCOMPARE(c.skipped, std::int64_t{0});
        QCOMPARE(c.idle, std::int64_t{12});
        QCOMPARE(view.shownState(0), MacState::Active);
        QCOMPARE(view.shownState(1), MacState::Gated);
        QCOMPARE(view.shownState(4), MacState::Active);
        QCOMPARE(view.shownState(5), MacState::Gated);
        QCOMPARE(view.shownState(2), MacState::Idle);
        // Step 8: m1 = 1, n2 = 0, m4 = 0, k4 = 0 -> M 2, where P's row is empty: all four gated.
        view.setStep(8);
        QCOMPARE(spy.count(), 1);
        c = view.shownCounts();
        QCOMPARE(c.gated, std::int64_t{4});
        QCOMPARE(c.active, std::int64_t{0});
        QVERIFY(view.loopReadout().contains(QStringLiteral("m1 = 1/2")));
        QVERIFY(view.loopReadout().contains(QStringLiteral("k4 = 0/2")));
        // Every step shows what the trace computes.
        for (std::int64_t s = 0; s < view.stepCount(); ++s) {
            view.setStep(s);
            QCOMPARE(view.shownCounts(), view.trace()->countStep(s));
        }
    }

    void stepsAreClamped()
    {
        HardwareBehaviorView view;
        view.setDesign(m_workload, m_arch, handDesign(m_workload, m_arch), {});
        view.setStep(1000);
        QCOMPARE(view.step(), std::int64_t{15});
        view.nextStep();
        QCOMPARE(view.step(), std::int64_t{15});
        view.setStep(-4);
        QCOMPARE(view.step(), std::int64_t{0});
        view.previousStep();
        QCOMPARE(view.step(), std::int64_t{0});
        view.nextStep();
        QCOMPARE(view.step(), std::int64_t{1});
    }

    void playAdvancesAndStopsAtTheEnd()
    {
        HardwareBehaviorView view;
        view.setDesign(m_workload, m_arch, handDesign(m_workload, m_arch), {});
        view.setStep(13);
        view.setPlaying(true);
        QVERIFY(view.isPlaying());
        QTRY_COMPARE_WITH_TIMEOUT(view.step(), std::int64_t{15}, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!view.isPlaying(), 5000);
    }

    // A time step is one iteration of the mapping's temporal loops, not a cycle: the step count is the
    // product of the temporal bounds (16 here), and the readout says "Step = temporal iteration k of 16"
    // and the model's cycle it corresponds to, floor(k x cycles / 16). Typing a step and Enter, or the
    // slider, jumps to it.
    void stepsAreTemporalIterations()
    {
        const Design d = handDesign(m_workload, m_arch);
        std::int64_t iterations = 1;
        for (const auto& level : d.mapping.levels)
            if (level.kind == LoopKind::Temporal)
                for (const std::int64_t bound : level.bounds)
                    iterations *= bound;
        QCOMPARE(iterations, std::int64_t{16});
        model::Evaluator evaluator(m_workload, m_arch);
        const model::EvaluationResult result = evaluator.evaluate(d);
        QVERIFY2(result.valid, result.reason.c_str());
        const double cycles = result.cycles;
        QVERIFY(cycles > 0 && cycles == std::floor(cycles));
        const auto expected = [cycles](std::int64_t step) {
            return QString("Step = temporal iteration %1 of 16 ≈ cycle %2 of %3")
                .arg(step)
                .arg(static_cast<std::int64_t>(std::floor(double(step) * cycles / 16)))
                .arg(static_cast<std::int64_t>(cycles));
        };
        HardwareBehaviorView view;
        view.setDesign(m_workload, m_arch, d, result);
        QCOMPARE(view.stepCount(), iterations);
        QCOMPARE(view.stepText(), expected(0));
        view.stepEdit()->setText("11");
        QTest::keyClick(view.stepEdit(), Qt::Key_Return);
        QCOMPARE(view.step(), std::int64_t{11});
        QCOMPARE(view.stepText(), expected(11));
        QCOMPARE(view.stepSlider()->value(), 11);
        view.stepSlider()->setValue(5);
        QCOMPARE(view.step(), std::int64_t{5});
        QCOMPARE(view.stepEdit()->text(), QString("5"));
        QCOMPARE(view.stepText(), expected(5));
        // Without the model's cycles (an invalid design) the iterations alone.
        view.setDesign(m_workload, m_arch, d, {});
        QCOMPARE(view.stepText(), QString("Step = temporal iteration 0 of 16"));
    }

    // Play's speed is chosen in steps per second: a tick of at least 30 ms advances several steps at
    // the high speeds (stride x 1000 / interval = the speed).
    void playSpeedIsChosen()
    {
        HardwareBehaviorView view;
        view.setDesign(m_workload, m_arch, handDesign(m_workload, m_arch), {});
        QCOMPARE(view.playSpeed(), 10); // the default
        QCOMPARE(view.playStride(), 1);
        QCOMPARE(view.playInterval(), 100);
        view.speedBox()->setCurrentIndex(view.speedBox()->findData(100));
        QCOMPARE(view.playSpeed(), 100);
        QCOMPARE(view.playInterval(), 30);
        QCOMPARE(view.playStride(), 3);
        view.speedBox()->setCurrentIndex(view.speedBox()->findData(1000));
        QCOMPARE(view.playStride(), 30);
        QCOMPARE(view.playInterval(), 30);
        view.setPlaySpeed(1);
        QCOMPARE(view.speedBox()->currentData().toInt(), 1);
        QCOMPARE(view.playInterval(), 1000);
        // At 1000 steps/s a tick walks 30 of the 16 steps: the end, then Play stops.
        view.setPlaySpeed(1000);
        view.setStep(2);
        view.setPlaying(true);
        QTRY_VERIFY_WITH_TIMEOUT(!view.isPlaying(), 5000);
        QCOMPARE(view.step(), std::int64_t{15});
    }

    // Summed over every step, the picture's active / gated / skipped MACs are the model's counts
    // (the numbers the Metrics show), on the toy SpMM and on gating designs of conv4 on mobile; the
    // rest of the MAC-steps are "not issued".
    void pictureCountsAreTheModels()
    {
        struct Case {
            const char* workload;
            const char* arch;
            int designs;
            bool gating;
        };
        int shown = 0;
        for (const Case& c : {Case{"toy", "edge", 4, false}, Case{"conv4", "mobile", 2, true}}) {
            auto layout = std::make_shared<const GenomeLayout>(
                loadWorkloadFile(std::string(SPARSEMAP_SOURCE_DIR "/samples/workloads/") + c.workload +
                                 ".yaml"),
                loadPreset(c.arch));
            model::GenomeEvaluator evaluator(*layout);
            std::mt19937_64 rng(11);
            int found = 0;
            for (int draw = 0; draw < 50000 && found < c.designs; ++draw) {
                const Genome genome = randomGenome(*layout, rng);
                const auto& r = evaluator.evaluate(genome);
                // Walking every step costs ~ steps x MACs: designs of at most 200,000 steps.
                if (!r.valid || (c.gating && r.compute.gated <= 0) ||
                    r.compute.algorithmic / std::max(1.0, r.compute.maxInstances) > 200000)
                    continue;
                ++found;
                ui::DesignView design;
                QCOMPARE(design.showGenome(layout, genome, "random"), QString());
                HardwareBehaviorView view;
                view.setDesign(design.workload(), design.architecture(), design.design(), design.result());
                QVERIFY2(view.errorText().isEmpty(), qPrintable(view.errorText()));
                QVERIFY(view.trace()->usesModelCounts());
                const auto total = view.trace()->countAllSteps();
                const auto& model = design.result().compute;
                QCOMPARE(total.active, std::int64_t(std::llround(model.actual)));
                QCOMPARE(total.gated, std::int64_t(std::llround(model.gated)));
                QCOMPARE(total.skipped, std::int64_t(std::llround(model.skipped)));
                QCOMPARE(total.used(), view.trace()->macSteps());
                QCOMPARE(total.empty, view.trace()->macSteps() - total.active - total.gated - total.skipped);
                if (c.gating)
                    QVERIFY(total.gated > 0);
                QCOMPARE(view.shownCounts(), view.trace()->countStep(0)); // what is drawn is what is counted
                ++shown;
            }
            QVERIFY2(found == c.designs, c.workload);
        }
        QCOMPARE(shown, 6);
    }

    // The same on three-input designs read from Sparseloop cases (tests/data/sparseloop-3input): the
    // picture's active / gated / skipped MACs summed over the steps are the model's.
    void pictureCountsAreTheModelsWithThreeOperands()
    {
        std::int64_t notEffectual = 0;
        for (const char* name : {"toy-abc-cp-cskip", "toy-a-cp-cgate", "toy-sskip-all"}) {
            const SparseloopCase c = importSparseloopCase(
                std::string(SPARSEMAP_SOURCE_DIR "/tests/data/sparseloop-3input/") + name);
            const Design design = model::sparseloopDesign(c);
            model::Evaluator evaluator(c.workload, c.architecture, model::sparseloopModelOptions(c));
            const auto result = evaluator.evaluate(design);
            QVERIFY2(result.valid, result.reason.c_str());
            HardwareBehaviorView view;
            view.setDesign(c.workload, c.architecture, design, result);
            QVERIFY2(view.errorText().isEmpty(), qPrintable(view.errorText()));
            QVERIFY(view.trace()->usesModelCounts());
            const auto total = view.trace()->countAllSteps();
            QCOMPARE(total.active, std::int64_t(std::llround(result.compute.actual)));
            QCOMPARE(total.gated, std::int64_t(std::llround(result.compute.gated)));
            QCOMPARE(total.skipped, std::int64_t(std::llround(result.compute.skipped)));
            QCOMPARE(total.used(), view.trace()->macSteps());
            notEffectual += total.gated + total.skipped;
        }
        QVERIFY(notEffectual > 0);
    }

    // At Fit on a 1400x850 and on a 1024x700 view every text of the picture is at least 8 px high, also
    // for the largest arrays of the presets (cloud: 32 x 32 PEs of 64 MACs), whose PE grid collapses to
    // fit; the picture is landscape, the level column on the left and the PE array right of it. On the
    // 420x430 the Design view's tab gets in a 1024x700 window, the picture does not fit legibly: Fit
    // keeps the texts at 8 px, shows the top-left (the first level's box), and scrolls to the rest.
    void labelsReadableAtFit()
    {
        for (const char* preset : {"edge", "mobile", "cloud"}) {
            auto layout = std::make_shared<const GenomeLayout>(
                loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/mm3.yaml"), loadPreset(preset));
            const Genome genome = firstValidGenome(*layout);
            QVERIFY2(!genome.empty(), preset);
            ui::DesignView design;
            QCOMPARE(design.showGenome(layout, genome, "random"), QString());
            for (const QSize size : {QSize(1400, 850), QSize(1024, 700), QSize(420, 430)}) {
                HardwareBehaviorView view;
                view.resize(size);
                view.show();
                QVERIFY(QTest::qWaitForWindowExposed(&view));
                view.setDesign(design.workload(), design.architecture(), design.design(), design.result());
                view.graphicsView()->fitAll();
                const QString where = QString("%1 at %2x%3").arg(preset).arg(size.width()).arg(size.height());
                // The text height on screen: the font's pixel size (points at the view's DPI) times the
                // item's scale times the view's zoom.
                const double zoom = view.graphicsView()->transform().m11();
                int texts = 0;
                double smallest = 1e9, textsRight = 0;
                for (QGraphicsItem* item : view.scene()->items())
                    if (auto* text = qgraphicsitem_cast<QGraphicsSimpleTextItem*>(item);
                        text && !text->text().isEmpty()) {
                        const double px =
                            text->font().pointSizeF() * view.logicalDpiY() / 72.0 * text->scale() * zoom;
                        smallest = std::min(smallest, px);
                        if (!text->text().contains(" array: ")) // the array's own header stands above it
                            textsRight = std::max(textsRight, text->sceneBoundingRect().right());
                        ++texts;
                    }
                QVERIFY(texts > 5);
                QVERIFY2(smallest >= 8.0, qPrintable(QString("%1: %2 px").arg(where).arg(smallest)));
                if (size.width() < 600) {
                    const auto* gv = view.graphicsView();
                    QVERIFY2(gv->horizontalScrollBar()->maximum() > 0,
                             qPrintable(where)); // more to the right
                    QCOMPARE(gv->horizontalScrollBar()->value(), gv->horizontalScrollBar()->minimum());
                    QCOMPARE(gv->verticalScrollBar()->value(), gv->verticalScrollBar()->minimum());
                    // The top-left of the picture is in sight.
                    const QPointF topLeft = view.scene()->itemsBoundingRect().topLeft();
                    QVERIFY2(gv->viewport()->rect().contains(gv->mapFromScene(topLeft + QPointF(2, 2))),
                             qPrintable(where));
                }
                // Side by side: every PE right of every level text, and the whole picture wider than high.
                QRectF pes, all;
                for (QGraphicsItem* item : view.scene()->items()) {
                    all |= item->sceneBoundingRect();
                    if (item->type() == PeItem::Type)
                        pes |= item->sceneBoundingRect();
                }
                QVERIFY2(pes.left() > textsRight, qPrintable(where));
                QVERIFY2(all.width() >= 1.3 * all.height(),
                         qPrintable(QString("%1: %2 x %3").arg(where).arg(all.width()).arg(all.height())));
            }
        }
    }

    // In a 1024x700 main window the Design view's Hardware behaviour tab (the loop nest folded while it
    // is shown) fits the whole picture at Fit with every text at least 8 px high: no scroll bars, the
    // scene inside the viewport, for a valid mm3 design on each preset (cloud: 32 x 32 PEs of 64 MACs).
    // It used to stay cropped with scroll bars, its texts at 9 px.
    void fitsA1024x700Window()
    {
        for (const char* preset : {"edge", "mobile", "cloud"}) {
            auto layout = std::make_shared<const GenomeLayout>(
                loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/mm3.yaml"), loadPreset(preset));
            const Genome genome = firstValidGenome(*layout);
            QVERIFY2(!genome.empty(), preset);
            ui::MainWindow window;
            window.setAutoAnswer(QMessageBox::Discard);
            window.resize(1024, 700);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.showView("design"));
            QCOMPARE(window.designView()->showGenome(layout, genome, "random"), QString());
            auto* tabs = window.designView()->detailTabs();
            tabs->setCurrentWidget(window.hardwareView());
            QTest::qWait(50);
            QCOMPARE(window.size(), QSize(1024, 700));
            auto* view = window.hardwareView();
            auto* gv = view->graphicsView();
            gv->fitAll();
            QTest::qWait(20);
            const QString where = QString("%1 in %2x%3").arg(preset).arg(gv->width()).arg(gv->height());
            const double zoom = gv->transform().m11();
            double smallest = 1e9;
            for (QGraphicsItem* item : view->scene()->items())
                if (auto* text = qgraphicsitem_cast<QGraphicsSimpleTextItem*>(item);
                    text && !text->text().isEmpty())
                    smallest = std::min(smallest, text->font().pointSizeF() * view->logicalDpiY() / 72.0 *
                                                      text->scale() * zoom);
            QVERIFY2(smallest >= 8.0, qPrintable(QString("%1: %2 px").arg(where).arg(smallest)));
            QVERIFY2(gv->horizontalScrollBar()->maximum() == 0 && gv->verticalScrollBar()->maximum() == 0,
                     qPrintable(QString("%1: scroll bars; scene %2x%3 at zoom %4")
                                    .arg(where)
                                    .arg(view->scene()->sceneRect().width())
                                    .arg(view->scene()->sceneRect().height())
                                    .arg(zoom)));
            const QRect picture = gv->mapFromScene(view->scene()->itemsBoundingRect()).boundingRect();
            QVERIFY2(gv->viewport()->rect().adjusted(-1, -1, 1, 1).contains(picture),
                     qPrintable(QString("%1: picture %2x%3 at %4,%5, viewport %6x%7")
                                    .arg(where)
                                    .arg(picture.width())
                                    .arg(picture.height())
                                    .arg(picture.x())
                                    .arg(picture.y())
                                    .arg(gv->viewport()->width())
                                    .arg(gv->viewport()->height())));
            // Back on the Metrics, the loop nest is there again.
            tabs->setCurrentIndex(0);
            QTest::qWait(20);
            QVERIFY(window.designView()->findChild<QPlainTextEdit*>()->width() > 100);
        }
    }

    // Hovering a PE tells its tiles and its MACs' states at the step: PE 0 holds MACs 0-3, of which at
    // step 0 MAC 0 is active, MAC 1 gated and MACs 2, 3 unused (the file's header).
    void hoverTellsAPesMacs()
    {
        HardwareBehaviorView view;
        view.setDesign(m_workload, m_arch, handDesign(m_workload, m_arch), {});
        const PeItem* pe0 = nullptr;
        for (QGraphicsItem* item : view.scene()->items())
            if (item->type() == PeItem::Type && static_cast<PeItem*>(item)->pe() == 0)
                pe0 = static_cast<PeItem*>(item);
        QVERIFY(pe0);
        const QString tip = pe0->toolTip();
        QVERIFY2(tip.contains("MACs: 1 active, 1 gated, 0 skipped, 0 not issued, 2 unused"), qPrintable(tip));
        // Its tiles at step 0 (m1 = n2 = n3 = 0): P rows M 0-1 (m4) over all K (k4, k5), Q column N 0.
        QVERIFY2(tip.contains("P[0:2,0:4]") && tip.contains("Q[0:4,0]"), qPrintable(tip));
        // Step 8: all four used MACs gated (P's row of M 2 is empty), so PE 0's two are gated.
        view.setStep(8);
        QVERIFY2(pe0->toolTip().contains("MACs: 0 active, 2 gated"), qPrintable(pe0->toolTip()));
    }

    void badDesignShowsTheReason()
    {
        HardwareBehaviorView view;
        auto d = handDesign(m_workload, m_arch);
        for (auto& level : d.mapping.levels)
            level.bounds = {1, 1, 1};
        d.mapping.levels[0].bounds = {2, 1, 4};
        d.mapping.levels[4].bounds = {2, 4, 1}; // 8 MACs per PE: the PE buffer feeds only 4
        view.setDesign(m_workload, m_arch, d, {});
        QVERIFY(!view.errorText().isEmpty());
        QVERIFY(view.errorText().contains(QStringLiteral("below PE buffer")));
        QCOMPARE(view.stepCount(), std::int64_t{0});
        view.setStep(3); // harmless
        view.clear();
        QVERIFY(view.trace() == nullptr);
    }

private:
    QTemporaryDir m_dir;
    Workload m_workload;
    Architecture m_arch;
};

QTEST_MAIN(TestHardwareView)
#include "test_hardware_view.moc"
