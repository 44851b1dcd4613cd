// The CGRA view: blocks mapped off the GUI thread stream into the table, the selected row's schedule is
// drawn on the bound resources, bad masks are reported in the status line, and a run can be cancelled.
#include "cgra_view/cgra_result_model.hpp"
#include "cgra_view/cgra_view.hpp"
#include "cgra_view/modulo_schedule_widget.hpp"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

using namespace sparsemap;
using sparsemap::ui::CgraResultModel;
using sparsemap::ui::CgraView;

namespace {

bool waitForRun(CgraView& view)
{
    QSignalSpy spy(&view, &CgraView::mappingFinished);
    return spy.wait(60000);
}

void screenshot(QWidget& w, const char* name)
{
    const QByteArray dir = qgetenv("SPARSEMAP_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        w.grab().save(QString::fromUtf8(dir) + "/" + name);
}

} // namespace

class TestCgraView : public QObject {
    Q_OBJECT
private slots:
    void randomBlocksFillTheTable()
    {
        CgraView view;
        view.resize(1500, 900);
        new QAbstractItemModelTester(view.resultModel(),
                                     QAbstractItemModelTester::FailureReportingMode::QtTest, &view);
        view.setRandomBlocks(8, 8, 0.4, 1, 3);
        view.setVariants({cgra::MappingVariant::Baseline, cgra::MappingVariant::SparseMap});
        QVERIFY(view.startMapping());
        QVERIFY(view.isBusy());
        QVERIFY(!view.startMapping()); // one run at a time
        QVERIFY(waitForRun(view));
        QVERIFY(!view.isBusy());
        auto* model = view.resultModel();
        QCOMPARE(model->rowCount(), 6);
        // Rows come block by block, baseline first; each row matches a direct call of the core.
        const auto block = cgra::randomBlock(8, 8, 0.4, 1);
        cgra::MappingOptions options;
        const auto direct = cgra::mapBlock(block, cgra::paperCgra(), options);
        QCOMPARE(model->data(model->index(1, CgraResultModel::Variant)).toString(), QString("sparsemap"));
        QCOMPARE(model->data(model->index(1, CgraResultModel::Mii)).toInt(), direct.mii);
        QCOMPARE(model->data(model->index(1, CgraResultModel::Cops)).toInt(), direct.firstCops);
        QCOMPARE(model->data(model->index(1, CgraResultModel::Mcids)).toInt(), direct.firstMcids);
        QCOMPARE(model->data(model->index(0, CgraResultModel::Variant)).toString(), QString("baseline"));
        QCOMPARE(model->data(model->index(1, CgraResultModel::Shape)).toString(), QString("C8K8"));
        QVERIFY(model->summary().contains("sparsemap: II₀=MII"));
        // The table's COPs and MCIDs are the first attempt's, and say so: the details of a row give the
        // final II's.
        QCOMPARE(model->headerData(CgraResultModel::Cops, Qt::Horizontal).toString(), QString("COPs at II₀"));
        QCOMPARE(model->headerData(CgraResultModel::Mcids, Qt::Horizontal).toString(),
                 QString("MCIDs at II₀"));
        QVERIFY(model->summary().contains("COPs at II₀"));
        // The selected row's schedule: every node drawn in a column of its kind, in its modulo slot.
        view.selectRow(1);
        auto* grid = view.scheduleWidget();
        QVERIFY(grid->hasSchedule());
        const auto& s = model->mapping(1).finalSchedule;
        const auto spec = cgra::paperCgra();
        for (std::size_t v = 0; v < s.graph.nodes.size(); ++v) {
            const QPoint cell = grid->cellOf(int(v));
            QCOMPARE(cell.y(), s.modulo(int(v)));
            const auto kind = s.graph.nodes[v].kind;
            if (kind == cgra::NodeKind::Read)
                QVERIFY(cell.x() >= 0 && cell.x() < spec.inputBuses());
            else if (kind == cgra::NodeKind::Write)
                QVERIFY(cell.x() >= spec.inputBuses() + spec.peCount());
            else
                QVERIFY(cell.x() >= spec.inputBuses() && cell.x() < spec.inputBuses() + spec.peCount());
        }
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        screenshot(view, "cgra-view-random.png");
    }

    void maskFileWithMulticast()
    {
        CgraView view;
        view.resize(1500, 800);
        QVERIFY(view.loadMaskFile(SPARSEMAP_SOURCE_DIR "/samples/cgra/fig4.mask"));
        view.setVariants({cgra::MappingVariant::SparseMap});
        QVERIFY(view.startMapping());
        QVERIFY(waitForRun(view));
        QCOMPARE(view.resultModel()->rowCount(), 1);
        const auto& m = view.resultModel()->mapping(0);
        QVERIFY(m.success);
        QCOMPARE(m.finalSchedule.multicastCount(), 1);
        // r0 and its copy sit on two different input buses (two grid columns) in slot 0.
        std::vector<int> columns;
        for (std::size_t v = 0; v < m.finalSchedule.graph.nodes.size(); ++v)
            if (m.finalSchedule.graph.nodes[v].kind == cgra::NodeKind::Read)
                columns.push_back(view.scheduleWidget()->cellOf(int(v)).x());
        QCOMPARE(int(columns.size()), 2);
        QVERIFY(columns[0] != columns[1]);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        screenshot(view, "cgra-view-fig4.png");
    }

    void badMaskIsReported()
    {
        CgraView view;
        QVERIFY(!view.loadMaskFile(SPARSEMAP_SOURCE_DIR "/tests/data/bad/cgra/value-two.mask"));
        QVERIFY2(view.statusText().contains("value-two.mask:3:5: unexpected '2'"),
                 qPrintable(view.statusText()));
        view.setSource(CgraView::Source::MaskFile);
        QVERIFY(!view.startMapping()); // nothing loaded
        QVERIFY2(view.statusText().contains("no mask file loaded"), qPrintable(view.statusText()));
        view.setRandomBlocks(8, 8, 0.4, 1, 1);
        view.setVariants({});
        QVERIFY(!view.startMapping());
        QVERIFY(view.statusText().contains("at least one scheduler"));
    }

    void spconvBlockLargerThanTheLayerIsRefused()
    {
        CgraView view;
        view.setSource(CgraView::Source::SpConv); // the first bundled layer is conv1 (C 3)
        QVERIFY(!view.startMapping());
        QVERIFY2(view.statusText().contains("larger than workload"), qPrintable(view.statusText()));
    }

    void cancelStopsEarly()
    {
        CgraView view;
        view.setRandomBlocks(8, 8, 0.4, 1, 1000);
        view.setVariants({cgra::MappingVariant::Baseline, cgra::MappingVariant::NoTechniques,
                          cgra::MappingVariant::Aiba, cgra::MappingVariant::AibaMulCi,
                          cgra::MappingVariant::SparseMap});
        QSignalSpy spy(&view, &CgraView::mappingFinished);
        QVERIFY(view.startMapping());
        view.cancel();
        QVERIFY(spy.wait(60000));
        QCOMPARE(spy.front().front().toBool(), true);
        QVERIFY(view.resultModel()->rowCount() < 5000);
        QVERIFY(view.statusText().startsWith("Cancelled"));
    }
};

QTEST_MAIN(TestCgraView)
#include "test_cgra_view.moc"
