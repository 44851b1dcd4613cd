// The energy-delay view (ui/exploration/pareto_plot_view.hpp): a hand-made point set gives the front
// worked out by hand; the front is drawn fastest first; clicking a dot emits its point index; invalid
// designs are not drawn.
#include "exploration/pareto_plot_view.hpp"

#include "../core/test_support.hpp"

#include <QSignalSpy>
#include <QtTest>

using namespace sparsemap;
using namespace sparsemap::ui;

namespace {

} // namespace

class TestParetoView : public QObject {
    Q_OBJECT
private slots:
    void frontAndClicks()
    {
        // A(1000 cycles, 4 uJ), B(2000, 1 uJ), C(1500, 3 uJ), D(3000, 2 uJ: B is faster and cheaper),
        // E(500, 0.5 uJ) invalid. Front, fastest first: A, C, B. Best by EDP: B (2000 x 1e6 pJ).
        const search::PointLog points{test::evaluatedPoint(1000, 4e6), test::evaluatedPoint(2000, 1e6),
                                      test::evaluatedPoint(1500, 3e6), test::evaluatedPoint(3000, 2e6),
                                      test::evaluatedPoint(500, 5e5, false)};
        ParetoPlotView view;
        view.resize(800, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setPoints(points, 1);
        view.replot();
        QCOMPARE(view.front(), (std::vector<std::int64_t>{0, 2, 1}));
        QCOMPARE(view.validCount(), 4);
        // The front is drawn through exactly its points (cycles, uJ), fastest first.
        QCPGraph* front = view.graph(1);
        QCOMPARE(front->dataCount(), 3);
        QCOMPARE(front->data()->at(0)->key, 1000.0);
        QCOMPARE(front->data()->at(0)->value, 4.0);
        QCOMPARE(front->data()->at(2)->key, 2000.0);
        QCOMPARE(front->data()->at(2)->value, 1.0);

        QSignalSpy clicked(&view, &ParetoPlotView::pointClicked);
        for (const int index : {3, 2}) {
            const QPoint at = view.pixelOf(index).toPoint();
            QCOMPARE(view.pointAt(at), std::int64_t(index));
            QTest::mouseClick(&view, Qt::LeftButton, {}, at);
            QCOMPARE(clicked.last().first().toInt(), index);
        }
        // Far from every dot: nothing is clicked.
        QCOMPARE(view.pointAt(QPointF(2, 2)), std::int64_t(-1));
        view.clearPoints();
        QVERIFY(view.front().empty());
    }
};

QTEST_MAIN(TestParetoView)
#include "test_pareto_view.moc"
