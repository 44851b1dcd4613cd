// The compare view on three hand-made runs and a pin whose numbers are known: the table's rows and
// values, numeric sorting with "—" last, one convergence curve per selected run, the valid share per
// method, and a double-click asking for the right design.
#include "compare/compare_view.hpp"
#include "compare/run_sort_proxy.hpp"
#include "compare/run_table_model.hpp"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

#include <array>
#include <qcustomplot.h>

#include <limits>

using namespace sparsemap;
using sparsemap::ui::CompareView;
using sparsemap::ui::RunTableModel;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

search::EvaluatedPoint point(bool valid, double cycles = 0, double energy = 0, int generation = 0)
{
    search::EvaluatedPoint p;
    p.valid = valid;
    p.cycles = cycles;
    p.energyPj = energy;
    p.edp = cycles * energy;
    p.objective = valid ? p.edp : kInf;
    p.reason = valid ? "" : "over capacity";
    p.generation = generation;
    return p;
}

RunRecord run(const std::string& name, const std::string& method, std::uint64_t seed, std::int64_t budget)
{
    RunRecord r;
    r.name = name;
    r.method = method;
    r.workload.name = "mm3";
    r.architecture.name = "cloud";
    r.settings.seed = seed;
    r.settings.budget = budget;
    r.result.method = method;
    return r;
}

// alpha (sparsemap): EDPs 2e11, -, 9e10, 1.5e11 -> best 9e10 at point 2, 3 of 4 valid, 2 curve points.
// beta (random): EDPs 1e11, -, - -> best 1e11 at point 0, 1 of 3 valid, 3 curve points.
// gamma (sparsemap): nothing valid -> no best, 0 of 2 valid, no curve point (best stays +inf).
// pinned: alpha's point 3, EDP 1.5e11.
Session handMadeSession()
{
    Session s;
    RunRecord a = run("alpha", "sparsemap", 1, 4);
    a.result.points = {point(true, 1e5, 2e6), point(false), point(true, 9e4, 1e6, 1),
                       point(true, 1e5, 1.5e6, 1)};
    a.result.bestIndex = 2;
    a.result.convergence = {{0, 2, 2e11, 2e11, 0.5}, {1, 4, 9e10, 1.2e11, 0.75}};
    a.result.seconds = 1.25;
    RunRecord b = run("beta", "random", 2, 3);
    b.result.points = {point(true, 1e5, 1e6), point(false), point(false)};
    b.result.bestIndex = 0;
    b.result.convergence = {{0, 1, 1e11, 1e11, 1.0}, {1, 2, 1e11, kInf, 0.5}, {2, 3, 1e11, kInf, 1.0 / 3}};
    b.result.seconds = 0.5;
    RunRecord c = run("gamma", "sparsemap", 3, 2);
    c.result.points = {point(false), point(false)};
    c.result.convergence = {{0, 2, kInf, kInf, 0.0}};
    c.result.cancelled = true;
    s.runs = {a, b, c};
    s.pinned = {{"alpha late", 0, 3}};
    return s;
}

QString cell(const CompareView& view, int proxyRow, int column)
{
    return view.proxy()->index(proxyRow, column).data().toString();
}

QStringList namesInViewOrder(const CompareView& view)
{
    QStringList names;
    for (int r = 0; r < view.proxy()->rowCount(); ++r)
        names << cell(view, r, RunTableModel::Name);
    return names;
}

// The plot's one pin label, drawn: empty when it lies inside the axes, named "alpha late", and no
// segment (key, value to key, value, in plot coordinates) meets its box; otherwise what is wrong.
QString curveMeetingPinLabel(QCustomPlot* plot, const QList<std::array<double, 4>>& segments)
{
    plot->replot();
    QCPItemText* label = nullptr;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)))
            label = text;
    if (!label || label->text() != "alpha late")
        return "no pin label named alpha late";
    const QRectF box =
        QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
    if (!(box.width() > 10 && box.height() > 5) || !QRectF(plot->axisRect()->rect()).contains(box))
        return "the label is not a box inside the axes";
    const auto px = [&](double key, double value) {
        return QPointF(plot->xAxis->coordToPixel(key), plot->yAxis->coordToPixel(value));
    };
    for (const auto& [k1, v1, k2, v2] : segments)
        if (QRectF(px(k1, v1), px(k2, v2)).normalized().adjusted(-1, -1, 1, 1).intersects(box))
            return QString("segment (%1, %2)-(%3, %4) meets the label (%5,%6 %7x%8)")
                .arg(k1)
                .arg(v1)
                .arg(k2)
                .arg(v2)
                .arg(box.x())
                .arg(box.y())
                .arg(box.width())
                .arg(box.height());
    return {};
}

} // namespace

class TestCompareView : public QObject {
    Q_OBJECT
private slots:
    void modelsPassTheModelTester()
    {
        CompareView view;
        QAbstractItemModelTester modelTester(view.model(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(view.proxy(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        view.setSession(handMadeSession());
        view.table()->sortByColumn(RunTableModel::BestEdp, Qt::DescendingOrder);
        view.setSession({});
        view.setSession(handMadeSession());
        QCOMPARE(view.proxy()->rowCount(), 4);
    }

    void tableHasRunsThenPins()
    {
        CompareView view;
        view.setSession(handMadeSession());
        const RunTableModel* m = view.model();
        QCOMPARE(m->rowCount(), 4);
        QCOMPARE(m->columnCount(), int(RunTableModel::ColumnCount));
        const auto text = [&](int row, int column) { return m->index(row, column).data().toString(); };
        QCOMPARE(text(0, RunTableModel::Name), QString("alpha"));
        QCOMPARE(text(0, RunTableModel::Kind), QString("run"));
        QCOMPARE(text(0, RunTableModel::Method), QString("sparsemap"));
        QCOMPARE(text(0, RunTableModel::Workload), QString("mm3"));
        QCOMPARE(text(0, RunTableModel::Architecture), QString("cloud"));
        QCOMPARE(text(0, RunTableModel::Seed), QString("1"));
        QCOMPARE(text(0, RunTableModel::Budget), QString("4"));
        QCOMPARE(text(0, RunTableModel::Evaluations), QString("4"));
        QCOMPARE(text(0, RunTableModel::BestEdp), QString("9e+10"));
        QCOMPARE(text(0, RunTableModel::Energy), QString("1e+06"));
        QCOMPARE(text(0, RunTableModel::Cycles), QString("9e+04"));
        QCOMPARE(text(0, RunTableModel::ValidShare), QString("75.0 %"));
        QCOMPARE(text(0, RunTableModel::Seconds), QString("1.25"));
        QCOMPARE(text(0, RunTableModel::Cancelled), QString("no"));
        QCOMPARE(m->index(0, RunTableModel::BestEdp).data(RunTableModel::SortRole).toDouble(), 9e10);
        QCOMPARE(text(1, RunTableModel::ValidShare), QString("33.3 %"));
        // gamma found nothing valid: no metrics, a valid share of 0, cancelled.
        QCOMPARE(text(2, RunTableModel::BestEdp), QString("—"));
        QCOMPARE(text(2, RunTableModel::Energy), QString("—"));
        QVERIFY(!m->index(2, RunTableModel::BestEdp).data(RunTableModel::SortRole).isValid());
        QCOMPARE(text(2, RunTableModel::ValidShare), QString("0.0 %"));
        QCOMPARE(text(2, RunTableModel::Cancelled), QString("yes"));
        QCOMPARE(m->index(2, 0).data(RunTableModel::PointRole).toLongLong(), -1);
        // The pin: alpha's point 3, found at evaluation 4, EDP 1e5 x 1.5e6.
        QCOMPARE(text(3, RunTableModel::Name), QString("alpha late"));
        QCOMPARE(text(3, RunTableModel::Kind), QString("pinned"));
        QCOMPARE(text(3, RunTableModel::Method), QString("sparsemap"));
        QCOMPARE(text(3, RunTableModel::Evaluations), QString("4"));
        QCOMPARE(text(3, RunTableModel::BestEdp), QString("1.5e+11"));
        QCOMPARE(text(3, RunTableModel::ValidShare), QString("—"));
        QCOMPARE(m->index(3, 0).data(RunTableModel::RunRole).toInt(), 0);
        QCOMPARE(m->index(3, 0).data(RunTableModel::PointRole).toLongLong(), 3);
    }

    void sortsNumericallyWithMissingLast()
    {
        CompareView view;
        view.setSession(handMadeSession());
        // As text, "1.5e+11" < "1e+11" < "9e+10"; as numbers 9e10 < 1e11 < 1.5e11.
        view.table()->sortByColumn(RunTableModel::BestEdp, Qt::AscendingOrder);
        QCOMPARE(namesInViewOrder(view), QStringList({"alpha", "beta", "alpha late", "gamma"}));
        view.table()->sortByColumn(RunTableModel::BestEdp, Qt::DescendingOrder);
        QCOMPARE(namesInViewOrder(view), QStringList({"alpha late", "beta", "alpha", "gamma"}));
        // Pins have no valid share: last both ways. Runs: gamma 0 < beta 1/3 < alpha 3/4.
        view.table()->sortByColumn(RunTableModel::ValidShare, Qt::AscendingOrder);
        QCOMPARE(namesInViewOrder(view), QStringList({"gamma", "beta", "alpha", "alpha late"}));
        view.table()->sortByColumn(RunTableModel::ValidShare, Qt::DescendingOrder);
        QCOMPARE(namesInViewOrder(view), QStringList({"alpha", "beta", "gamma", "alpha late"}));
        // Seeds 1, 2, 3 and the pin's run seed 1.
        view.table()->sortByColumn(RunTableModel::Seed, Qt::DescendingOrder);
        QCOMPARE(cell(view, 0, RunTableModel::Name), QString("gamma"));
    }

    void plotsTheSelectedRuns()
    {
        CompareView view;
        view.resize(1000, 700);
        view.setSession(handMadeSession());
        // Nothing selected: every run, with its finite convergence points (gamma has none).
        QCOMPARE(view.convergencePlot()->graphCount(), 3);
        QCOMPARE(view.plottedRuns(), std::vector<int>({0, 1, 2}));
        QCOMPARE(view.convergencePlot()->graph(0)->dataCount(), 2);
        QCOMPARE(view.convergencePlot()->graph(1)->dataCount(), 3);
        QCOMPARE(view.convergencePlot()->graph(2)->dataCount(), 0);
        QCOMPARE(view.convergencePlot()->graph(0)->data()->at(1)->key, 4.0);
        QCOMPARE(view.convergencePlot()->graph(0)->data()->at(1)->value, 9e10);
        QCOMPARE(view.convergencePlot()->graph(1)->name(), QString("beta"));
        // The pin (alpha's point 3: evaluation 4, EDP 1.5e11) is marked while alpha is plotted.
        QCOMPARE(view.pinMarkerCount(), 1);
        auto* ring = qobject_cast<QCPItemTracer*>(view.convergencePlot()->item(0));
        QVERIFY(ring);
        QCOMPARE(ring->position->coords(), QPointF(4, 1.5e11));

        view.table()->selectRow(1); // beta (session order: no sort yet)
        QCOMPARE(view.convergencePlot()->graphCount(), 1);
        QCOMPARE(view.plottedRuns(), std::vector<int>({1}));
        QCOMPARE(view.convergencePlot()->graph(0)->dataCount(), 3);
        QCOMPARE(view.pinMarkerCount(), 0);

        // The pin stands for its run: selecting it together with alpha plots alpha once.
        view.table()->clearSelection();
        view.table()->selectionModel()->select(view.proxy()->index(0, 0),
                                               QItemSelectionModel::Select | QItemSelectionModel::Rows);
        view.table()->selectionModel()->select(view.proxy()->index(3, 0),
                                               QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(view.plottedRuns(), std::vector<int>({0}));
        QCOMPARE(view.convergencePlot()->graphCount(), 1);
        QCOMPARE(view.convergencePlot()->graph(0)->dataCount(), 2);

        // A new session (a run added) keeps the selection, by name.
        Session more = handMadeSession();
        more.runs.insert(more.runs.begin(), more.runs[1]);
        more.runs[0].name = "delta";
        more.pinned[0].run = 1; // alpha moved down by one
        view.setSession(more);
        QCOMPARE(view.model()->rowCount(), 5);
        QCOMPARE(view.plottedRuns(), std::vector<int>({1})); // alpha, now run 1
        QCOMPARE(view.table()->selectionModel()->selectedRows().size(), 2);

        view.table()->clearSelection();
        QCOMPARE(view.convergencePlot()->graphCount(), 4);
    }

    void validSharePerMethod()
    {
        CompareView view;
        view.setSession(handMadeSession());
        // sparsemap: (3 + 0) valid of (4 + 2) = 50 %; random: 1 of 3.
        const auto& shares = view.methodShares();
        QCOMPARE(shares.size(), std::size_t(2));
        QCOMPARE(shares[0].method, QString("sparsemap"));
        QCOMPARE(shares[0].valid, std::int64_t(3));
        QCOMPARE(shares[0].evaluated, std::int64_t(6));
        QCOMPARE(shares[1].method, QString("random"));
        auto* bars = qobject_cast<QCPBars*>(view.validSharePlot()->plottable(0));
        QVERIFY(bars);
        QCOMPARE(bars->dataCount(), 2);
        QCOMPARE(bars->data()->at(0)->value, 50.0);
        QCOMPARE(bars->data()->at(1)->value, 100.0 / 3);
    }

    // The bars pool the runs the table's selection plots: alpha alone is sparsemap 3 of 4 = 75 %, gamma
    // alone sparsemap 0 of 2, beta and alpha two bars; no selection, every run again.
    void validShareFollowsTheSelection()
    {
        CompareView view;
        view.setSession(handMadeSession());
        const auto select = [&](std::initializer_list<int> rows) {
            view.table()->clearSelection();
            for (int row : rows)
                view.table()->selectionModel()->select(
                    view.proxy()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        };
        const auto bars = [&] {
            QStringList out;
            auto* b = qobject_cast<QCPBars*>(view.validSharePlot()->plottable(0));
            for (int i = 0; b && i < b->dataCount(); ++i)
                out << view.methodShares()[std::size_t(i)].method + " " +
                           QString::number(b->data()->at(i)->value, 'f', 1);
            return out.join(", ");
        };
        select({0});
        QCOMPARE(bars(), QString("sparsemap 75.0"));
        select({2});
        QCOMPARE(bars(), QString("sparsemap 0.0"));
        select({1, 0});
        QCOMPARE(bars(), QString("sparsemap 75.0, random 33.3"));
        select({3}); // the pin stands for alpha
        QCOMPARE(bars(), QString("sparsemap 75.0"));
        view.table()->clearSelection();
        QCOMPARE(bars(), QString("sparsemap 50.0, random 33.3"));
    }

    // The pin's name is drawn beside its ring where alpha's best-so-far curve (2e11 from evaluation 2,
    // 9e10 from evaluation 4; the pin is at evaluation 4, 1.5e11) does not run: no segment of the curve
    // crosses the label's box.
    void pinLabelCoversNoCurve()
    {
        CompareView view;
        view.resize(1000, 700);
        view.setSession(handMadeSession());
        view.table()->selectRow(0); // alpha
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.pinMarkerCount(), 1);
        // The step curve drawn: (2, 2e11) level to evaluation 4, then down to 9e10 (its last point).
        const QString meets =
            curveMeetingPinLabel(view.convergencePlot(), {{2, 2e11, 4, 2e11}, {4, 2e11, 4, 9e10}});
        QVERIFY2(meets.isEmpty(), qPrintable(meets));
    }

    // Another run's curve passes just below and left of the pin (alpha's late point, 1.5e11 at
    // evaluation 4, the right end): the name goes where it meets neither curve and stays inside the
    // axes (it used to go below and left whenever the right side had no room, over such a curve).
    void pinLabelAvoidsOtherRunsCurves()
    {
        Session session = handMadeSession();
        RunRecord delta = run("delta", "sa", 4, 4);
        delta.result.points = {point(true, 1e5, 1.4e6), point(true, 1e5, 1.3e6), point(false), point(false)};
        delta.result.bestIndex = 1;
        delta.result.convergence = {{0, 1, 1.4e11, 1.4e11, 1.0}, {1, 4, 1.3e11, 1.3e11, 0.5}};
        session.runs.push_back(delta);
        CompareView view;
        view.resize(1000, 700);
        view.setSession(session);
        view.table()->clearSelection(); // every run plotted
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.pinMarkerCount(), 1);
        // alpha: 2e11 from evaluation 2 to 4, down to 9e10; delta: 1.4e11 from 1 to 4, down to 1.3e11.
        const QString meets = curveMeetingPinLabel(
            view.convergencePlot(),
            {{2, 2e11, 4, 2e11}, {4, 2e11, 4, 9e10}, {1, 1.4e11, 4, 1.4e11}, {4, 1.4e11, 4, 1.3e11}});
        QVERIFY2(meets.isEmpty(), qPrintable(meets));
    }

    void doubleClickRequestsTheDesign()
    {
        CompareView view;
        view.resize(1000, 700);
        view.setSession(handMadeSession());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy requested(&view, &CompareView::designRequested);
        const auto doubleClick = [&](int row) {
            const QRect rect = view.table()->visualRect(view.proxy()->index(row, RunTableModel::Name));
            // A real double-click is press, release, then a double-click event: the view opens the row
            // pressed.
            QTest::mouseClick(view.table()->viewport(), Qt::LeftButton, {}, rect.center());
            QTest::mouseDClick(view.table()->viewport(), Qt::LeftButton, {}, rect.center());
        };
        doubleClick(0); // alpha: its best, point 2
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toInt(), 0);
        QCOMPARE(requested.at(0).at(1).value<std::int64_t>(), std::int64_t(2));
        doubleClick(3); // the pin: alpha's point 3
        QCOMPARE(requested.count(), 2);
        QCOMPARE(requested.at(1).at(1).value<std::int64_t>(), std::int64_t(3));
        doubleClick(2); // gamma has no valid design: nothing to open
        QCOMPARE(requested.count(), 2);
    }

    void emptySessionIsCalm()
    {
        CompareView view;
        view.setSession({});
        QCOMPARE(view.model()->rowCount(), 0);
        QCOMPARE(view.convergencePlot()->graphCount(), 0);
        QVERIFY(view.methodShares().empty());
    }
};

QTEST_MAIN(TestCompareView)
#include "test_compare_view.moc"
