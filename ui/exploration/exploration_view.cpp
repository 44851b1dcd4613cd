#include "exploration_view.hpp"
#include "pareto_plot_view.hpp"

#include "analysis/design_space_pca.hpp"
#include "common/objective_label.hpp"
#include "convergence_plot_view.hpp"
#include "design/loop_nest_text.hpp"
#include "design_space_plot_view.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "model/result_text.hpp"
#include "search/method_registry.hpp"
#include "common/background_job.hpp"
#include "common/post_to_owner.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QThread>
#include <QVBoxLayout>
#include <exception>

namespace sparsemap::ui {

namespace {

constexpr int kRefreshMs = 200; // ~5 Hz: smooth enough to watch, cheap with 20k points

QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

ExplorationView::ExplorationView(QWidget* parent) : QWidget(parent)
{
    m_convergence = new ConvergencePlotView;
    m_designSpace = new DesignSpacePlotView;
    m_details = new QPlainTextEdit;
    m_details->setReadOnly(true);
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_details->setPlaceholderText("Click a design in the design-space map to see its loop nest.");

    auto* plots = new QSplitter(Qt::Horizontal);
    plots->addWidget(m_convergence);
    // The map of paper Fig. 7 and, beside it, the energy-delay front of the same points.
    m_pareto = new ParetoPlotView;
    auto* maps = new QTabWidget;
    maps->setObjectName("ExplorationMaps");
    maps->addTab(m_designSpace, "Design space (PCA)");
    maps->addTab(m_pareto, "Energy-delay front");
    plots->addWidget(maps);
    // Halves whatever the maps hold when the view is first shown (the split used to follow the size
    // hints of the moment: a narrow convergence plot after some runs).
    plots->setStretchFactor(0, 1);
    plots->setStretchFactor(1, 1);
    plots->setSizes({500, 500});
    auto* vertical = new QSplitter(Qt::Vertical);
    vertical->addWidget(plots);
    // The shown design's loop nest, with a way on to the full Design view.
    m_openDesign = new QPushButton("Open in Design view");
    m_openDesign->setEnabled(false);
    m_openDesign->setToolTip("Show this design's genome strip, metrics, breakdown and hardware behaviour");
    connect(m_openDesign, &QPushButton::clicked, this, [this] {
        if (m_shownIndex >= 0)
            emit designOpenRequested(m_shownIndex);
    });
    auto* detailsBox = new QWidget;
    auto* detailsLayout = new QVBoxLayout(detailsBox);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_details, 1);
    auto* detailsBar = new QHBoxLayout;
    detailsBar->addStretch();
    detailsBar->addWidget(m_openDesign);
    detailsLayout->addLayout(detailsBar);
    vertical->addWidget(detailsBox);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 2);
    vertical->setSizes({480, 300}); // the plots first: the loop nest scrolls

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    layout->addWidget(vertical, 1);

    m_refreshTimer.setInterval(kRefreshMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &ExplorationView::refreshPlots);
    connect(&m_worker, &SearchWorker::progressed, this, &ExplorationView::onProgress);
    connect(&m_worker, &SearchWorker::pointsArrived, this, &ExplorationView::onPoints);
    connect(&m_worker, &SearchWorker::finished, this, &ExplorationView::onFinished);
    connect(&m_worker, &SearchWorker::failed, this, &ExplorationView::onFailed);
    connect(m_designSpace, &DesignSpacePlotView::pointClicked, this, &ExplorationView::showPoint);
    connect(m_pareto, &ParetoPlotView::pointClicked, this, &ExplorationView::showPoint);
    setRunning(false);
}

ExplorationView::~ExplorationView() = default;

bool ExplorationView::isRunning() const
{
    return m_worker.isRunning();
}

void ExplorationView::openWorkload()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open workload", QString(),
                                                      "Workload YAML (*.yaml *.yml);;All files (*)");
    if (!path.isEmpty())
        setWorkloadPath(path);
}

void ExplorationView::startSearch()
{
    if (m_worker.isRunning())
        return;
    search::SearchSettings settings;
    settings.objective = search::Objective(m_objective->currentData().toInt());
    settings.budget = m_budgetSpin->value();
    settings.seed = std::uint64_t(m_seedSpin->value());
    settings.threads = m_threads->value();
    try {
        auto layout = std::make_shared<const GenomeLayout>(chosenWorkload(), chosenArchitecture());
        m_live.clear();
        m_closing = false;
        m_bestIndex = -1;
        m_result.reset();
        m_layout = layout;
        m_modelOptions = {}; // the workbench searches with Sparseloop's rules
        m_budget = settings.budget;
        m_settings = settings;
        m_stats.clear();
        m_designSpace->clearPoints();
        m_pareto->clearPoints();
        m_details->clear();
        m_shownIndex = -1;
        m_openDesign->setEnabled(false);
        m_worker.start(layout, m_method->currentText().toStdString(), settings);
    } catch (const std::exception& e) {
        m_status->setText("Cannot start: " + qstr(e.what()));
        return;
    }
    m_convergence->setObjectiveLabel(objectiveAxisLabel(settings.objective));
    const QString label = QString("%1 %2/%3 s%4")
                              .arg(m_method->currentText(), qstr(m_layout->workload().name),
                                   qstr(m_layout->architecture().name))
                              .arg(settings.seed);
    // Named and coloured as the session will keep it, from the start.
    RunIdentity identity{label.toStdString(), defaultRunColor(std::size_t(m_convergence->runCount()))};
    if (m_runIdentity)
        identity = m_runIdentity(label.toStdString());
    m_runLabel = qstr(identity.name);
    m_runColor = qstr(identity.color);
    m_convergence->beginRun(m_runLabel, QColor(m_runColor));
    m_progress->setRange(0, int(settings.budget));
    m_progress->setValue(0);
    m_progress->setFormat("%v / %m evaluations");
    m_status->setText("Running " + m_method->currentText() + "...");
    m_clock.start();
    setRunning(true);
    m_refreshTimer.start();
    emit searchStarted(m_runLabel);
}

Workload ExplorationView::chosenWorkload() const
{
    const QString data = m_workload->currentData().toString();
    Workload workload;
    if (data == "custom" && m_customWorkload)
        workload = *m_customWorkload;
    else if (data.startsWith("session:") && std::size_t(data.mid(8).toInt()) < m_sessionWorkloads.size())
        workload = m_sessionWorkloads[std::size_t(data.mid(8).toInt())];
    else
        workload = loadWorkloadFile(data.toStdString());
    if (m_workloadNamer)
        workload.name = m_workloadNamer(workload);
    return workload;
}

Architecture ExplorationView::chosenArchitecture() const
{
    const QString data = m_preset->currentData().toString();
    const bool session =
        data.startsWith("session:") && std::size_t(data.mid(8).toInt()) < m_sessionArchitectures.size();
    Architecture arch = data == "custom" && m_customArch ? *m_customArch
                        : session ? m_sessionArchitectures[std::size_t(data.mid(8).toInt())]
                                  : loadPreset(m_preset->currentText().toStdString());
    if (m_architectureNamer)
        arch.name = m_architectureNamer(arch);
    return arch;
}

void ExplorationView::cancelSearch()
{
    if (!m_worker.isRunning())
        return;
    m_worker.cancel();
    m_status->setText("Stopping " + m_method->currentText() + "...");
}

void ExplorationView::stopForClose()
{
    m_closing = true;
    cancelSearch();
}

void ExplorationView::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
}

void ExplorationView::onProgress(const search::GenerationStats& stats)
{
    // Every generation reports (hundreds a second on a fast model); the curves take the data here and
    // the progress line is redrawn on the refresh timer (showProgress): a progress bar repaints at once
    // on every new value, which took most of the GUI thread's time during a fast run.
    m_convergence->addGeneration(stats);
    m_stats.push_back(stats);
}

void ExplorationView::showProgress()
{
    if (m_stats.empty())
        return;
    const auto& stats = m_stats.back();
    const auto done = std::max<std::int64_t>(stats.evaluations, 1);
    const double eta = double(m_clock.elapsed()) / 1000.0 * double(m_budget - stats.evaluations) / done;
    m_progress->setValue(int(std::min(stats.evaluations, m_budget)));
    m_progress->setFormat(QString("%v / %m evaluations  ·  ETA %1 s  ·  %2% valid")
                              .arg(std::max(eta, 0.0), 0, 'f', 1)
                              .arg(100.0 * stats.validShare, 0, 'f', 1));
}

void ExplorationView::onPoints(const PointBatch& batch)
{
    m_dirty = true;
    if (m_plotJob) {
        m_pending.append(*batch);
        return;
    }
    absorbPending();
    absorb(*batch);
}

void ExplorationView::absorbPending()
{
    if (!m_pending.empty())
        absorb(m_pending);
    m_pending.clear();
}

void ExplorationView::absorb(const search::PointLog& points)
{
    const std::size_t first = m_live.size();
    m_live.append(points);
    // The best so far, tracked here because the result only arrives at the end.
    const auto valid = m_live.validFlags();
    const auto objectives = m_live.objectives();
    for (std::size_t i = first; i < m_live.size(); ++i)
        if (valid[i] && (m_bestIndex < 0 || objectives[i] < objectives[std::size_t(m_bestIndex)]))
            m_bestIndex = std::int64_t(i);
    m_dirty = true;
}

void ExplorationView::onFinished(std::shared_ptr<const search::SearchResult> result)
{
    m_refreshTimer.stop();
    m_result = result;
    // The result is authoritative: it holds every point, also those of a generation cut by cancel.
    // The plots read it from now on (shared, not copied); the streamed copy goes (freed off the GUI
    // thread: a run of millions of points streamed hundreds of MB).
    releaseOffGuiThread(std::make_shared<search::PointLog>(std::move(m_live)));
    m_live.clear();
    m_pending.clear();
    m_bestIndex = result->bestIndex;
    m_dirty = true;
    if (!m_closing) // the window is going: no plots to draw for millions of points
        refreshPlots();
    // The progress line keeps the count and the valid share, not an ETA that no longer applies.
    m_progress->setValue(int(std::min<std::int64_t>(std::int64_t(points().size()), m_budget)));
    m_progress->setFormat(
        QString("%v / %m evaluations  ·  %1% valid%2")
            .arg(100.0 * (result->convergence.empty() ? 0.0 : result->convergence.back().validShare), 0, 'f',
                 1)
            .arg(result->cancelled ? "  ·  cancelled" : ""));
    const auto best = result->best();
    m_status->setText(QString("%1%2: %3 evaluations in %4 s, best objective %5")
                          .arg(qstr(result->method), result->cancelled ? " (cancelled)" : "")
                          .arg(points().size())
                          .arg(result->seconds, 0, 'f', 2)
                          .arg(best ? QString::number(best->objective, 'g', 5) : QString("none valid")));
    setRunning(false);
    if (best && !m_closing)
        showPoint(int(result->bestIndex));
    emitRun(*result);
    emit searchFinished();
}

void ExplorationView::emitRun(const search::SearchResult& result)
{
    auto run = std::make_shared<RunRecord>();
    run->name = m_runLabel.toStdString();
    run->color = m_runColor.toStdString();
    run->method = result.method;
    run->workload = m_layout->workload();
    run->architecture = m_layout->architecture();
    run->genomeOptions = m_layout->options();
    run->settings = m_settings;
    run->result = result;
    emit runCompleted(run);
}

void ExplorationView::onFailed(const QString& message)
{
    m_refreshTimer.stop();
    m_progress->setFormat("%v / %m evaluations  ·  failed");
    m_status->setText("Search failed: " + message);
    setRunning(false);
    // What the run found before it failed is kept, as a cancelled run.
    if (!m_live.empty() && m_layout) {
        search::SearchResult partial;
        partial.method = m_method->currentText().toStdString();
        absorbPending();
        partial.points = std::move(m_live);
        m_live.clear();
        partial.convergence = m_stats;
        partial.bestIndex = m_bestIndex;
        partial.cancelled = true;
        partial.seconds = double(m_clock.elapsed()) / 1000.0;
        emitRun(partial);
    }
    emit searchFinished();
}

void ExplorationView::showRun(const RunRecord& run)
{
    if (m_worker.isRunning())
        return; // the running search owns the plots
    try {
        m_layout = std::make_shared<const GenomeLayout>(run.workload, run.architecture, run.genomeOptions);
        m_modelOptions = run.modelOptions;
    } catch (const std::exception& e) {
        m_status->setText("Cannot show run: " + qstr(e.what()));
        return;
    }
    // A copy of the result that shares the run's points (PointLog copies share their columns): the
    // store's run is not copied point by point on the GUI thread.
    m_result = std::make_shared<const search::SearchResult>(run.result);
    m_live.clear();
    m_pending.clear();
    ++m_plotTicket; // a job still making the previous run's maps is not shown
    m_bestIndex = run.result.bestIndex;
    m_budget = run.settings.budget;
    m_settings = run.settings;
    m_runLabel = qstr(run.name);
    m_runColor = qstr(run.color);
    m_convergence->setObjectiveLabel(objectiveAxisLabel(run.settings.objective));
    // In the run's own colour, also when its curve is drawn already (from before a session was reopened).
    if (!m_convergence->restyleRun(m_runLabel, m_runLabel, QColor(m_runColor))) {
        m_convergence->beginRun(m_runLabel, QColor(m_runColor));
        for (const auto& stats : run.result.convergence)
            m_convergence->addGeneration(stats);
    }
    m_details->clear();
    m_shownIndex = -1;
    m_openDesign->setEnabled(false);
    m_dirty = true;
    refreshPlots();
    m_status->setText(QString("Run %1: %2 evaluations").arg(m_runLabel).arg(points().size()));
    // The progress line describes the run shown, not the last one started.
    const double validShare = run.result.convergence.empty() ? 0.0 : run.result.convergence.back().validShare;
    m_progress->setRange(0, int(std::max<std::int64_t>(run.settings.budget, 1)));
    m_progress->setValue(int(std::min<std::int64_t>(std::int64_t(points().size()), run.settings.budget)));
    m_progress->setFormat(QString("%v / %m evaluations  ·  %1% valid").arg(100.0 * validShare, 0, 'f', 1));
    if (m_bestIndex >= 0)
        showPoint(int(m_bestIndex));
}

void ExplorationView::runStored(const RunRecord& stored)
{
    const QString name = qstr(stored.name);
    const QString color = qstr(stored.color);
    if (name == m_runLabel && color == m_runColor)
        return;
    m_convergence->restyleRun(m_runLabel, name, QColor(color));
    m_runLabel = name;
    m_runColor = color;
}

void ExplorationView::refreshPlots()
{
    if (m_worker.isRunning())
        showProgress();
    m_convergence->refresh();
    if (!m_dirty || !m_layout || m_plotJob)
        return; // (a job under way refreshes again when it ends if the points changed meanwhile)
    m_dirty = false;
    // The projection and the maps' dots are made on a worker thread from a copy of the log that shares
    // its columns (no points are copied); the GUI thread only hands the finished containers to the
    // plots. Millions of points take a second or more there; the GUI keeps painting meanwhile.
    m_plotJob = true;
    const QPointer<ExplorationView> self(this);
    (void)runInBackground([self, points = points(), layout = m_layout, best = m_bestIndex,
                           ticket = m_plotTicket, mapSize = m_designSpace->drawingSize(),
                           frontSize = m_pareto->drawingSize()]() mutable {
        std::shared_ptr<DesignSpacePlotView::Frame> map;
        std::shared_ptr<ParetoPlotView::Frame> front;
        std::string error;
        {
            const search::PointLog log = std::move(points); // released before the maps are handed over
            try {
                // Refit on everything so far: the axes follow the population as the search moves.
                auto projection = analysis::projectDesignSpace(*layout, log);
                map = DesignSpacePlotView::prepare(log, std::move(projection.x), std::move(projection.y),
                                                   best, mapSize);
                front = ParetoPlotView::prepare(log, best, frontSize);
            } catch (const std::exception& e) {
                error = e.what();
            }
        }
        postToOwner(self, [map = std::move(map), front = std::move(front), error = std::move(error),
                           ticket](ExplorationView& view) mutable {
            view.m_plotJob = false;
            if (ticket == view.m_plotTicket) {
                if (map && front) {
                    view.m_designSpace->apply(std::move(map));
                    view.m_pareto->apply(std::move(front));
                    if (view.m_shownIndex >= 0)
                        view.m_designSpace->setSelectedIndex(view.m_shownIndex);
                } else {
                    view.m_status->setText("Cannot draw the design space: " + qstr(error));
                }
            }
            releaseOffGuiThread(std::move(map)); // a stale job's maps (nothing once applied)
            releaseOffGuiThread(std::move(front));
            view.absorbPending(); // m_live's columns are its own again
            if (view.m_dirty && !view.m_closing)
                view.refreshPlots();
            else if (!view.m_dirty)
                emit view.plotsRefreshed();
        });
    });
}

void ExplorationView::showPoint(int index)
{
    if (!m_layout || index < 0 || index >= int(points().size()))
        return;
    const auto point = points()[std::size_t(index)];
    QString text = QString("Design #%1 (generation %2)\n\n").arg(index).arg(point.generation);
    if (point.genome.empty()) {
        text += "This method's designs have no SparseMap genome.\n";
    } else if (m_result && index == m_result->bestIndex && m_result->bestDesign) {
        // The run's best comes out of the search with its design and result.
        text += qstr(
            renderLoopNest(m_layout->workload(), m_layout->architecture(), m_result->bestDesign->evaluated));
        text += "\n" + qstr(model::renderSummary(m_result->bestDesign->evaluation));
    } else {
        model::GenomeEvaluator evaluator(*m_layout, m_modelOptions);
        const auto& result = evaluator.evaluate(point.genome.toGenome());
        text += qstr(renderLoopNest(m_layout->workload(), m_layout->architecture(), evaluator.lastDesign()));
        text += "\n" + qstr(model::renderSummary(result));
    }
    m_details->setPlainText(text);
    m_designSpace->setSelectedIndex(index);
    m_shownIndex = index;
    m_openDesign->setEnabled(!point.genome.empty());
    emit pointActivated(index);
}

} // namespace sparsemap::ui
