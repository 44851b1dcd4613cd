#pragma once
// The exploration tab: choose a workload, an architecture preset and a search method, run the search
// on a worker thread, watch it converge and explore the design space; clicking a design shows its
// loop nest and metrics. Points arrive per generation; the plots redraw on a ~5 Hz timer so that
// tens of thousands of points keep the GUI responsive.
#include "arch/architecture.hpp"
#include "genome/genome_layout.hpp"
#include "search/search_types.hpp"
#include "search_worker.hpp"
#include "session/session.hpp"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace sparsemap::ui {

class ConvergencePlotView;
class DesignSpacePlotView;
class ParetoPlotView;

// A run's name and colour in the session (core/session: unique name, a colour the session's other
// runs do not have), given before the run starts so that its curve is named and coloured as it will
// be in the session from the first generation on.
struct RunIdentity {
    std::string name;
    std::string color; // "#rrggbb"
};

class ExplorationView : public QWidget {
    Q_OBJECT
public:
    explicit ExplorationView(QWidget* parent = nullptr);
    ~ExplorationView() override;

    // Selects (adding when needed) a workload file in the chooser.
    void setWorkloadPath(const QString& path);
    void setPreset(const QString& name);
    // Offers an architecture that is not a preset (the editor's) in the chooser, under `label`, and
    // keeps it up to date; selecting it runs searches on exactly this architecture. With `select`
    // the chooser follows it (the view runs what the Architecture view shows); when another entry is
    // chosen instead, a note above the plots says so.
    void setCustomArchitecture(const Architecture& arch, const QString& label, bool select = false);
    // The same for a workload (the workload editor's), under the data "custom" in the chooser.
    void setCustomWorkload(const Workload& workload, const QString& label, bool select = false);
    // The session's workloads, offered as "session: NAME" (replacing the previous list).
    void setSessionWorkloads(const std::vector<Workload>& workloads);
    // Selects session workload `index` (of the last setSessionWorkloads); false when there is none.
    bool selectSessionWorkload(int index);
    // The same for the session's architectures, in the architecture chooser.
    void setSessionArchitectures(const std::vector<Architecture>& architectures);
    bool selectSessionArchitecture(int index);
    // The chooser entries' texts (what the user reads).
    QString workloadChoice() const;
    QString architectureChoice() const;
    // Names the architecture a run uses (e.g. distinct within the session, so that an edited preset
    // and the preset never share a name); without one, the architecture's own name is kept.
    void setArchitectureNamer(std::function<std::string(const Architecture&)> namer);
    // The same for the workload (distinct within the session).
    void setWorkloadNamer(std::function<std::string(const Workload&)> namer);
    // Gives a run its name and colour from its label ("sparsemap mm3/cloud s1") when it starts;
    // without one, the label and the palette's colour for the runs drawn.
    void setRunIdentity(std::function<RunIdentity(const std::string& label)> identity);
    // The run this view emitted (runCompleted) joined the session as `stored` (its name or colour may
    // differ from those given at the start): the curves follow.
    void runStored(const RunRecord& stored);
    // The workload and architecture a Run would search now (throws InputError/exceptions on bad files).
    Workload chosenWorkload() const;
    Architecture chosenArchitecture() const;
    QString followNote() const;
    void setMethod(const QString& name);
    void setBudget(int budget);
    void setSeed(int seed);

    bool isRunning() const;
    // The points of the current (or last) run, in evaluation order; indices of pointActivated.
    // The finished run's own log when there is one (not a copy), else the points streamed so far.
    const search::PointLog& points() const { return m_result ? m_result->points : m_live; }
    std::shared_ptr<const search::SearchResult> lastResult() const { return m_result; }
    // The layout the shown points belong to (null before the first run).
    std::shared_ptr<const GenomeLayout> layout() const { return m_layout; }
    // Shows a finished run (e.g. from a loaded session): its points in the map, its curve overlaid.
    // The run's points are shared, not copied; the maps are made on a worker thread (plotsRefreshed).
    void showRun(const RunRecord& run);
    // Whether the maps are being made from the points on a worker thread (a refresh, a shown run).
    bool isPreparingPlots() const { return m_plotJob; }

    QProgressBar* progressBar() const { return m_progress; }
    ConvergencePlotView* convergencePlot() const { return m_convergence; }
    DesignSpacePlotView* designSpacePlot() const { return m_designSpace; }
    ParetoPlotView* paretoPlot() const { return m_pareto; }
    QPlainTextEdit* detailsView() const { return m_details; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* openDesignButton() const { return m_openDesign; }

public slots:
    void startSearch();
    void cancelSearch();
    // Cancels for a closing window: the run still lands (runCompleted) but nothing is drawn.
    void stopForClose();
    void showPoint(int index); // shows the design's loop nest and metrics, emits pointActivated
    void refreshPlots();

signals:
    void pointActivated(int index);
    // "Open in Design view" was pressed for point `index` of points().
    void designOpenRequested(int index);
    void searchStarted(const QString& label);
    void searchFinished();
    // A run ended (finished or cancelled): everything needed to keep it in the session.
    void runCompleted(std::shared_ptr<const sparsemap::RunRecord> run);
    // The maps show the points of the last refresh (made on a worker thread).
    void plotsRefreshed();

private:
    QWidget* buildControls();
    void openWorkload();
    void onProgress(const search::GenerationStats& stats);
    void showProgress(); // the progress line from the last generation reported
    void onPoints(const PointBatch& batch);
    void onFinished(std::shared_ptr<const search::SearchResult> result);
    void onFailed(const QString& message);
    void setRunning(bool running);
    void updateFollowNote();
    void emitRun(const search::SearchResult& result);
    void absorb(const search::PointLog& points); // appends to m_live, tracking the best so far
    void absorbPending();                        // m_pending into m_live

    SearchWorker m_worker;
    QTimer m_refreshTimer;
    QElapsedTimer m_clock;
    std::shared_ptr<const GenomeLayout> m_layout;
    model::ModelOptions m_modelOptions; // of the run shown (a stored run's own)
    search::PointLog m_live; // the running search's points, as streamed (empty once it has finished)
    // Points streamed while a plot job holds m_live's columns: appending to m_live then would copy
    // all of them on the GUI thread (the job's copy shares them), so they wait here.
    search::PointLog m_pending;
    bool m_plotJob = false;   // the maps are being made on a worker thread
    quint64 m_plotTicket = 0; // changes when the points shown are another run's (a job's maps go)
    std::shared_ptr<const search::SearchResult> m_result; // the finished or shown run
    std::int64_t m_budget = 0;
    search::SearchSettings m_settings; // of the current run
    QString m_runLabel;
    QString m_runColor;                           // "#rrggbb", of the run shown or running
    std::vector<search::GenerationStats> m_stats; // of the current run, for a failed run's record
    std::int64_t m_bestIndex = -1;
    bool m_dirty = false;
    bool m_closing = false; // stopForClose() was called during this run

    QComboBox* m_workload = nullptr;
    QComboBox* m_preset = nullptr;
    std::optional<Architecture> m_customArch;         // the chooser's entry with data "custom"
    std::optional<Workload> m_customWorkload;         // likewise
    std::vector<Workload> m_sessionWorkloads;         // the chooser's entries with data "session:<index>"
    std::vector<Architecture> m_sessionArchitectures; // likewise in the architecture chooser
    std::function<std::string(const Architecture&)> m_architectureNamer;
    std::function<std::string(const Workload&)> m_workloadNamer;
    std::function<RunIdentity(const std::string&)> m_runIdentity;
    QLabel* m_followNote = nullptr;
    QComboBox* m_method = nullptr;
    QComboBox* m_objective = nullptr;
    QSpinBox* m_budgetSpin = nullptr;
    QSpinBox* m_seedSpin = nullptr;
    QSpinBox* m_threads = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    ConvergencePlotView* m_convergence = nullptr;
    DesignSpacePlotView* m_designSpace = nullptr;
    ParetoPlotView* m_pareto = nullptr;
    QPlainTextEdit* m_details = nullptr;
    QPushButton* m_openDesign = nullptr;
    int m_shownIndex = -1; // the point m_details shows
};

} // namespace sparsemap::ui
