#pragma once
// The figures of runs and sweeps, drawn headless by `sparsemap-plot` (app/plot) with the workbench's
// own chart widgets, so that a figure from the command line is the chart the GUI shows:
// - runs (a session file, or a `sparsemap search --out` folder's run.session.yaml):
//   convergence (best objective against evaluations, every run; the Compare view's chart),
//   valid-share (per method, paper Fig. 17b), convergence-generations (best and population average per
//   generation, paper Fig. 18 style: ablation runs side by side), and per run its design-space map
//   (pca-<run>, paper Fig. 7), energy-delay front (pareto-<run>) and its best design's energy
//   breakdown (breakdown-<run>);
// - a sweep folder (`sparsemap sweep --out`): per architecture and workload the methods' mean
//   convergence curves from its convergence.csv (sweep-<arch>-<workload>, paper Fig. 18).
#include "common/chart_export.hpp"
#include "session/session.hpp"

#include <QString>
#include <QStringList>

namespace sparsemap::ui {

struct FigureOptions {
    QString outDir = ".";
    QList<ChartFormat> formats{ChartFormat::Png};
    FigureSize size;
};

// Each returns the files written; throws InputError naming the input (or the file that cannot be written).
QStringList renderRunFigures(const Session& session, const FigureOptions& options);
QStringList renderSweepFigures(const QString& sweepDir, const FigureOptions& options);

// A file-name stem for a run name: lower case letters, digits and '-'.
QString figureSlug(const QString& name);

} // namespace sparsemap::ui
