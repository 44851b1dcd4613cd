#include "compare_view.hpp"
#include "common/chart_export.hpp"
#include "common/axis_range.hpp"
#include "common/legend_below.hpp"

#include "common/objective_label.hpp"

#include "run_sort_proxy.hpp"
#include "run_table_model.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace sparsemap::ui {

CompareView::CompareView(QWidget* parent)
    : QWidget(parent), m_model(new RunTableModel(this)), m_proxy(new RunSortProxy(this)),
      m_table(new QTableView), m_convergence(new QCustomPlot), m_validShare(new QCustomPlot),
      m_summary(new QLabel)
{
    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // session order until the user picks a column
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setToolTip(tr("Select runs to plot only them; double-click a row to open its design."));

    m_convergence->xAxis->setLabel(tr("evaluations"));
    m_convergence->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_convergence->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    // "gb" with 2 digits: a narrow range gets ticks like 1.5·10^12, and no two ticks read the same.
    m_convergence->yAxis->setNumberFormat("gb");
    m_convergence->yAxis->setNumberPrecision(2);
    placeLegendBelow(m_convergence, 4); // not over the curves, whatever the screen
    m_convergence->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_convergence->setMinimumSize(320, 220);

    auto* methods = new QCPAxisTickerText;
    m_validShare->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(methods));
    m_validShare->xAxis->setTickLabelRotation(30);
    m_validShare->xAxis->setSubTicks(false);
    m_validShare->xAxis->grid()->setVisible(false);
    m_validShare->yAxis->setLabel(tr("valid designs (%)"));
    m_validShare->yAxis->setRange(0, 105);
    m_validShare->setMinimumSize(220, 220);
    enableChartSaving(m_convergence, tr("Convergence of the runs"), "compare-convergence");
    enableChartSaving(m_validShare, tr("Valid share per method"), "valid-share");

    auto* plots = new QSplitter(Qt::Horizontal);
    plots->addWidget(m_convergence);
    plots->addWidget(m_validShare);
    plots->setStretchFactor(0, 3);
    plots->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(plots);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setSizes({250, 500}); // the table needs a few rows, the plots the room (proportions)
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &CompareView::updateConvergence);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &CompareView::updateValidShare);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const QModelIndex source = m_proxy->mapToSource(index);
        const int run = source.data(RunTableModel::RunRole).toInt();
        const auto point = static_cast<std::int64_t>(source.data(RunTableModel::PointRole).toLongLong());
        if (run >= 0 && point >= 0) // a run without a valid design has nothing to open
            emit designRequested(run, point);
    });
    setSession({});
}

void CompareView::setSession(const Session& session)
{
    // The session changes under the user (a run finishes, a pin is added): keep the rows they
    // selected, by kind and name, so that their comparison survives.
    QList<QPair<bool, QString>> selected;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        const RunTableModel::Row& row = m_model->row(m_proxy->mapToSource(index).row());
        selected.append({row.pinned, row.name});
    }
    const QSignalBlocker blocker(m_table->selectionModel()); // one plot update at the end, not per row
    m_model->setSession(session);
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const RunTableModel::Row& row = m_model->row(r);
        if (selected.contains(QPair<bool, QString>(row.pinned, row.name)))
            m_table->selectionModel()->select(m_proxy->mapFromSource(m_model->index(r, 0)),
                                              QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
    m_curves.clear();
    m_runShares.clear();
    for (std::size_t i = 0; i < session.runs.size(); ++i) {
        const RunRecord& run = session.runs[i];
        Curve c;
        c.name = QString::fromStdString(run.name);
        c.color = RunTableModel::runColor(session, static_cast<int>(i));
        c.objective = run.settings.objective;
        for (const auto& g : run.result.convergence) // a log axis cannot show 0 or +inf (nothing valid yet)
            if (std::isfinite(g.best) && g.best > 0) {
                c.evaluations.push_back(static_cast<double>(g.evaluations));
                c.best.push_back(g.best);
            }
        m_curves.push_back(std::move(c));

        MethodShare share{QString::fromStdString(run.method), 0, 0};
        share.valid = run.result.validCount();
        share.evaluated = static_cast<std::int64_t>(run.result.points.size());
        m_runShares.push_back(share);
    }
    m_pins.clear();
    for (const auto& pin : session.pinned) {
        if (pin.run < 0 || pin.run >= static_cast<int>(session.runs.size()))
            continue;
        const auto& points = session.runs[static_cast<std::size_t>(pin.run)].result.points;
        if (pin.pointIndex < 0 || pin.pointIndex >= static_cast<std::int64_t>(points.size()))
            continue;
        const auto& p = points[static_cast<std::size_t>(pin.pointIndex)];
        if (p.valid && std::isfinite(p.objective) && p.objective > 0)
            m_pins.push_back({QString::fromStdString(pin.name), pin.run,
                              static_cast<double>(pin.pointIndex + 1), p.objective});
    }
    m_summary->setText(
        session.runs.empty()
            ? tr("No runs yet: runs made in the Exploration view appear here.")
            : tr("%n run(s)", nullptr, static_cast<int>(session.runs.size())) + ", " +
                  tr("%n pinned design(s)", nullptr, static_cast<int>(session.pinned.size())) +
                  tr(" — select rows to compare their convergence; double-click to open a design"));
    updateConvergence();
    updateValidShare();
}

std::vector<int> CompareView::selectedRuns() const
{
    std::vector<int> runs;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows()) {
        const int run = m_proxy->mapToSource(index).data(RunTableModel::RunRole).toInt();
        if (run >= 0 && std::find(runs.begin(), runs.end(), run) == runs.end())
            runs.push_back(run);
    }
    std::sort(runs.begin(), runs.end());
    if (runs.empty())
        for (int r = 0; r < static_cast<int>(m_curves.size()); ++r)
            runs.push_back(r);
    return runs;
}

void CompareView::updateConvergence()
{
    m_convergence->clearGraphs();
    m_plotted = selectedRuns();
    bool sameObjective = true;
    for (int run : m_plotted) {
        const Curve& c = m_curves[static_cast<std::size_t>(run)];
        sameObjective =
            sameObjective && c.objective == m_curves[static_cast<std::size_t>(m_plotted[0])].objective;
        QCPGraph* graph = m_convergence->addGraph();
        graph->setName(c.name);
        graph->setPen(QPen(c.color, 2));
        graph->setLineStyle(QCPGraph::lsStepLeft); // the best so far holds until the next improvement
        graph->setData(c.evaluations, c.best, true);
    }
    // Pinned designs of the plotted runs: a ring at (evaluation, objective) with the pin's name.
    m_convergence->clearItems();
    m_pinMarkers = 0;
    std::vector<std::pair<QCPItemText*, QPointF>> labels; // each with its ring's (evaluation, objective)
    for (const Pin& pin : m_pins) {
        if (std::find(m_plotted.begin(), m_plotted.end(), pin.run) == m_plotted.end())
            continue;
        auto* ring = new QCPItemTracer(m_convergence);
        ring->position->setCoords(pin.evaluation, pin.objective);
        ring->setStyle(QCPItemTracer::tsCircle);
        ring->setSize(9);
        const QColor color = m_curves[static_cast<std::size_t>(pin.run)].color;
        ring->setPen(QPen(color, 2));
        auto* label = new QCPItemText(m_convergence);
        label->position->setParentAnchor(ring->position);
        labels.emplace_back(label, QPointF(pin.evaluation, pin.objective)); // placed once the axes are set
        label->setClipToAxisRect(false);
        label->setPadding(QMargins(2, 1, 2, 1));
        label->setText(pin.name);
        label->setFont(QFont(font().family(), 8));
        label->setColor(color.darker(130));
        ++m_pinMarkers;
    }
    m_convergence->yAxis->setLabel(
        m_plotted.empty() ? tr("best objective")
        : sameObjective
            ? tr("best ") + objectiveAxisLabel(m_curves[static_cast<std::size_t>(m_plotted[0])].objective)
            : tr("best objective (each run's own)"));
    m_convergence->legend->setVisible(!m_plotted.empty());
    m_convergence->rescaleAxes();
    if (m_convergence->xAxis->range().lower > 0)
        m_convergence->xAxis->setRangeLower(0);
    // Room above and below the curves on the log axis, so that the first and best values show.
    fitAxisToPlotted(m_convergence->yAxis);
    // A pin's name goes beside its ring, on the side where it crosses the fewest plotted curves (every
    // run's step curve, in pixels) and stays inside the axes: above and right first (its own run's curve
    // only falls and was at most the pin's value when the pin was found), then below and left, above and
    // left, below and right.
    m_convergence->replot(); // lays out the axes: pixel positions below are the drawn ones
    const QRect axes = m_convergence->axisRect()->rect();
    std::vector<QLineF> segments;
    for (int g = 0; g < m_convergence->graphCount(); ++g) {
        const auto data = m_convergence->graph(g)->data();
        for (int i = 0; i + 1 < data->size(); ++i) { // lsStepLeft: across at the value, then down
            const QPointF a(m_convergence->xAxis->coordToPixel(data->at(i)->key),
                            m_convergence->yAxis->coordToPixel(data->at(i)->value));
            const QPointF b(m_convergence->xAxis->coordToPixel(data->at(i + 1)->key),
                            m_convergence->yAxis->coordToPixel(data->at(i + 1)->value));
            segments.emplace_back(a, QPointF(b.x(), a.y()));
            segments.emplace_back(QPointF(b.x(), a.y()), b);
        }
    }
    const auto crossings = [&](const QRectF& box) {
        int count = 0;
        for (const QLineF& segment : segments)
            if (QRectF(segment.p1(), segment.p2()).normalized().adjusted(-1, -1, 1, 1).intersects(box))
                ++count;
        return count;
    };
    for (const auto& [label, ring] : labels) {
        const QPointF at(m_convergence->xAxis->coordToPixel(ring.x()),
                         m_convergence->yAxis->coordToPixel(ring.y()));
        const QFontMetrics metrics(label->font());
        const QSizeF size(metrics.horizontalAdvance(label->text()) + 4, metrics.height() + 2);
        struct Side {
            double dx, dy;
            Qt::Alignment alignment;
        };
        const Side sides[] = {{4, -6, Qt::AlignLeft | Qt::AlignBottom},
                              {-4, 6, Qt::AlignRight | Qt::AlignTop},
                              {-4, -6, Qt::AlignRight | Qt::AlignBottom},
                              {4, 6, Qt::AlignLeft | Qt::AlignTop}};
        const Side* best = nullptr;
        int fewest = 0;
        for (const Side& side : sides) {
            const QPointF corner(side.dx > 0 ? at.x() + side.dx : at.x() + side.dx - size.width(),
                                 side.dy < 0 ? at.y() + side.dy - size.height() : at.y() + side.dy);
            const QRectF box(corner, size);
            const int count = crossings(box) + (QRectF(axes).contains(box) ? 0 : 1000);
            if (!best || count < fewest) {
                best = &side;
                fewest = count;
            }
        }
        label->position->setCoords(best->dx, best->dy);
        label->setPositionAlignment(best->alignment);
    }
    m_convergence->replot();
}

void CompareView::updateValidShare()
{
    // Per method, over the runs the table's selection plots (all runs when none is selected).
    m_shares.clear();
    for (int run : selectedRuns()) {
        const MethodShare& runShare = m_runShares[static_cast<std::size_t>(run)];
        auto share = std::find_if(m_shares.begin(), m_shares.end(),
                                  [&](const MethodShare& s) { return s.method == runShare.method; });
        if (share == m_shares.end())
            share = m_shares.insert(m_shares.end(), MethodShare{runShare.method, 0, 0});
        share->valid += runShare.valid;
        share->evaluated += runShare.evaluated;
    }
    m_validShare->clearPlottables();
    m_validShare->clearItems();
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(m_validShare->xAxis->ticker());
    ticker->clear();
    auto* bars = new QCPBars(m_validShare->xAxis, m_validShare->yAxis);
    bars->setWidth(0.6);
    bars->setPen(QPen(QColor(31, 119, 180).darker(130)));
    bars->setBrush(QColor(31, 119, 180, 170));
    QVector<double> keys, values;
    for (int i = 0; i < static_cast<int>(m_shares.size()); ++i) {
        const MethodShare& s = m_shares[static_cast<std::size_t>(i)];
        keys.push_back(i + 1);
        values.push_back(100 * s.share());
        ticker->addTick(i + 1, s.method);
        auto* label = new QCPItemText(m_validShare);
        label->position->setCoords(i + 1, 100 * s.share());
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(QString::number(100 * s.share(), 'f', s.share() < 0.1 ? 1 : 0) + "%");
        label->setFont(QFont(font().family(), 8));
    }
    bars->setData(keys, values, true);
    m_validShare->xAxis->setRange(0.4, std::max<double>(1, static_cast<double>(m_shares.size())) + 0.6);
    m_validShare->replot();
}

} // namespace sparsemap::ui
