#pragma once
// The compare tab: a sortable table of the session's runs and pinned designs (RunTableModel), the
// convergence curves of the selected runs overlaid (best objective so far against evaluations, log
// y; every run when none is selected) and the share of valid designs per method (paper Fig. 17b),
// pooled over the runs of each method. Double-clicking a row asks for its design.
#include "session/session.hpp"

#include <QColor>
#include <QWidget>

#include <cstdint>
#include <vector>

class QCustomPlot;
class QLabel;
class QTableView;

namespace sparsemap::ui {

class RunSortProxy;
class RunTableModel;

class CompareView : public QWidget {
    Q_OBJECT
public:
    struct MethodShare {
        QString method;
        std::int64_t valid = 0;
        std::int64_t evaluated = 0;
        double share() const { return evaluated ? static_cast<double>(valid) / evaluated : 0.0; }
    };

    explicit CompareView(QWidget* parent = nullptr);

    // Copies what the table and plots show (not the point logs); call again whenever the session changes.
    void setSession(const Session& session);

    RunTableModel* model() const { return m_model; }
    RunSortProxy* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    QCustomPlot* convergencePlot() const { return m_convergence; }
    QCustomPlot* validSharePlot() const { return m_validShare; }
    // The runs that have a curve, in graph order (graph i is run plottedRuns()[i]).
    const std::vector<int>& plottedRuns() const { return m_plotted; }
    // Pinned designs marked on the convergence plot (those of plotted runs with a valid design).
    int pinMarkerCount() const { return m_pinMarkers; }
    // One entry per method in order of first appearance among the runs (bar i is entry i).
    const std::vector<MethodShare>& methodShares() const { return m_shares; }

signals:
    // A row was double-clicked: the best point of a run, or a pinned design's point.
    void designRequested(int run, std::int64_t pointIndex);

private:
    struct Curve {
        QString name;
        QColor color; // the run's own
        search::Objective objective = search::Objective::Edp;
        QVector<double> evaluations, best;
    };

    void updateConvergence();
    void updateValidShare();
    std::vector<int> selectedRuns() const;

    RunTableModel* m_model;
    RunSortProxy* m_proxy;
    QTableView* m_table;
    QCustomPlot* m_convergence;
    QCustomPlot* m_validShare;
    QLabel* m_summary;
    struct Pin {
        QString name;
        int run = -1;
        double evaluation = 0; // 1-based: the evaluation that found it
        double objective = 0;
    };

    std::vector<Curve> m_curves; // one per run of the session
    std::vector<Pin> m_pins;     // valid pinned designs only (an invalid one has no objective to show)
    int m_pinMarkers = 0;
    std::vector<int> m_plotted;
    std::vector<MethodShare> m_runShares; // one per run of the session
    std::vector<MethodShare> m_shares;    // per method, over the selected runs (all when none is)
};

} // namespace sparsemap::ui
