#pragma once
// Convergence of several runs overlaid (paper Fig. 18 style): per run, the best objective so far
// (solid) and the population average of the valid members (dashed) per generation, log y axis.
// Curves of earlier runs stay until clearRuns(), so that methods and seeds can be compared.
#include "search/search_types.hpp"

#include <qcustomplot.h>

namespace sparsemap::ui {

class ConvergencePlotView : public QCustomPlot {
    Q_OBJECT
public:
    explicit ConvergencePlotView(QWidget* parent = nullptr);

    // Starts a new pair of curves named `label` (e.g. "sparsemap, seed 1") in `color` (the run's, from
    // the session; without one, the palette's entry for the number of runs drawn).
    void beginRun(const QString& label, const QColor& color = {});
    // Renames and recolours the curves of run `label` (a run that joined the session under another
    // name or colour, or a reopened session's run); false when no run of that label is drawn.
    bool restyleRun(const QString& label, const QString& newLabel, const QColor& color);
    // The colour of run `label`'s curves (invalid when none is drawn).
    QColor runColor(const QString& label) const;
    void addGeneration(const search::GenerationStats& stats); // no replot: the caller's timer does it
    void setObjectiveLabel(const QString& label);
    void clearRuns();
    // True when a run of this label is drawn already (a run re-opened from the session is not redrawn).
    bool hasRun(const QString& label) const;
    int runCount() const { return m_runs; }
    void refresh(); // rescales and replots
    // Small whatever the legend holds: its entries wrap to the width given (legend_below.hpp).
    QSize minimumSizeHint() const override { return {240, 200}; }

private:
    int m_runs = 0;
    QCPGraph* m_best = nullptr;
    QCPGraph* m_average = nullptr;
};

} // namespace sparsemap::ui
