// The hardware-behaviour view on the hand example of tests/core/test_hardware_trace.cpp: a 4x4x4 SpMM
// on 4 PEs x 4 MACs whose mapping uses PEs 0-1 (par-for n3 in [0,2)) and MACs 0-1 of each
// (par-for k5 in [0,2)), 16 time steps, operands from hand-written .mtx files and Gate Q <- P at
// compute. Step 0: MACs 0, 4 active, 1, 5 gated; the other 12 unused.
#include "hardware_view/hardware_behavior_view.hpp"
#include "hardware_view/hardware_scene_items.hpp"
#include "mapping/mapping.hpp"
#include "workload/workload_factory.hpp"

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace sparsemap;
using analysis::MacState;
using sparsemap::ui::HardwareBehaviorView;
using sparsemap::ui::PeItem;

namespace {

Architecture toyArchitecture()
{
    Architecture a;
    a.name = "toy";
    StorageLevel dram, glb, pe;
    dram.name = "DRAM";
    glb.name = "GLB";
    glb.capacityBits = 1024 * 8;
    pe.name = "PE buffer";
    pe.instances = 4;
    pe.capacityBits = 64 * 8;
    a.levels = {dram, glb, pe};
    a.compute.instances = 16;
    return a;
}

Design handDesign(const Workload& w, const Architecture& arch)
{
    Design d;
    d.mapping = trivialMapping(arch, w);
    auto& L = d.mapping.levels;
    L[0].bounds = {2, 1, 1};
    L[1].bounds = {1, 1, 2};
    L[2].bounds = {1, 1, 2};
    L[3].bounds = {2, 2, 1};
    L[4].bounds = {1, 2, 1};
    d.sparse.formats.assign(3, std::vector<TensorFormat>(3));
    d.sparse.sites.push_back(SgSite{kComputeSite, {SgAction{SgKind::Gate, 1, {0}}}});
    return d;
}

DensitySpec actualFile(const QString& path)
{
    DensitySpec s;
    s.model = DensityModelKind::Actual;
    s.file = s.resolvedFile = path.toStdString();
    return s;
}

} // namespace

class TestHardwareView : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        std::ofstream(m_dir.filePath("P.mtx").toStdString())
            << "%%MatrixMarket matrix coordinate pattern general\n4 4 3\n1 1\n1 3\n2 2\n";
        std::ofstream(m_dir.filePath("Q.mtx").toStdString())
            << "%%MatrixMarket matrix coordinate pattern general\n4 4 6\n1 1\n1 4\n2 2\n4 1\n4 2\n4 3\n";
        m_workload = makeSpmm("hand", 4, 4, 4, actualFile(m_dir.filePath("P.mtx")),
                              actualFile(m_dir.filePath("Q.mtx")));
        m_arch = toyArchitecture();
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

    void badDesignShowsTheReason()
    {
        HardwareBehaviorView view;
        auto d = handDesign(m_workload, m_arch);
        d.mapping.levels[4].bounds = {1, 8, 1}; // 8 MACs per PE: the PE buffer feeds only 4
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
