#include "plot/run_figures.hpp"

#include "analysis/design_space_pca.hpp"
#include "common/objective_label.hpp"
#include "compare/compare_view.hpp"
#include "design_view/breakdown_chart.hpp"
#include "exploration/convergence_plot_view.hpp"
#include "exploration/design_space_plot_view.hpp"
#include "exploration/pareto_plot_view.hpp"
#include "genome/genome_layout.hpp"
#include "util/file_io.hpp"
#include "io/search_io.hpp"
#include "model/genome_evaluator.hpp"
#include "util/error.hpp"

#include <optional>

#include <QChartView>
#include <QDir>

#include <map>

namespace sparsemap::ui {

namespace {

// The workbench's views are laid out for a window; a figure is drawn at its own size, but the
// widgets still need a size to lay themselves out.
constexpr QSize kWidgetSize(1200, 800);

void saveFigure(QWidget* chart, const QString& stem, const FigureOptions& options, QStringList& written)
{
    for (const ChartFormat format : options.formats) {
        const QString path = QDir(options.outDir).filePath(stem + "." + chartFormatSuffix(format));
        const QString error = saveChart(chart, path, options.size);
        if (!error.isEmpty())
            throw InputError(error.toStdString());
        written << path;
    }
}

void makeOutDir(const QString& dir)
{
    if (!QDir().mkpath(dir))
        throw InputError("cannot create the output folder " + dir.toStdString());
}

} // namespace

QString figureSlug(const QString& name)
{
    QString slug;
    for (const QChar c : name.toLower())
        slug += c.isLetterOrNumber() && c.unicode() < 128 ? c : QChar('-');
    while (slug.contains("--"))
        slug.replace("--", "-");
    while (slug.startsWith('-'))
        slug.remove(0, 1);
    while (slug.endsWith('-'))
        slug.chop(1);
    return slug.isEmpty() ? QString("run") : slug;
}

QStringList renderRunFigures(const Session& session, const FigureOptions& options)
{
    if (session.runs.empty())
        throw InputError("no runs to plot: the inputs hold no search runs");
    makeOutDir(options.outDir);
    QStringList written;

    // Every run together: the Compare view's two charts (every run plotted when none is selected).
    CompareView compare;
    compare.resize(kWidgetSize);
    compare.setSession(session);
    saveFigure(compare.convergencePlot(), "convergence", options, written);
    saveFigure(compare.validSharePlot(), "valid-share", options, written);

    // Per generation, best and population average (the Exploration view's chart).
    ConvergencePlotView generations;
    generations.resize(kWidgetSize);
    bool sameObjective = true;
    for (const auto& run : session.runs) {
        sameObjective = sameObjective && run.settings.objective == session.runs[0].settings.objective;
        generations.beginRun(
            QString::fromStdString(run.name),
            QColor(QString::fromStdString(runColor(session, std::size_t(&run - session.runs.data())))));
        for (const auto& stats : run.result.convergence)
            generations.addGeneration(stats);
    }
    generations.setObjectiveLabel(sameObjective ? objectiveAxisLabel(session.runs[0].settings.objective)
                                                : QString("objective (each run's own)"));
    generations.refresh();
    saveFigure(&generations, "convergence-generations", options, written);

    std::map<QString, int> stems; // two runs of one slug get -2, -3, ...
    for (const auto& run : session.runs) {
        QString stem = figureSlug(QString::fromStdString(run.name));
        if (const int n = ++stems[stem]; n > 1)
            stem += QString("-%1").arg(n);
        const auto& points = run.result.points;

        ParetoPlotView pareto;
        pareto.resize(kWidgetSize);
        pareto.setPoints(points, run.result.bestIndex);
        saveFigure(&pareto, "pareto-" + stem, options, written);

        const GenomeLayout layout(run.workload, run.architecture, run.genomeOptions);
        const auto projection = analysis::projectDesignSpace(layout, points);
        DesignSpacePlotView map;
        map.resize(kWidgetSize);
        map.setPoints(points, projection.x, projection.y, run.result.bestIndex);
        saveFigure(&map, "pca-" + stem, options, written);

        const auto best = run.result.best();
        if (best && !best->genome.empty()) {
            // A run read back from a session keeps its points only: its best is evaluated again.
            std::optional<model::GenomeEvaluator> evaluator;
            if (!run.result.bestDesign)
                evaluator.emplace(layout, run.modelOptions);
            const auto& result = run.result.bestDesign ? run.result.bestDesign->evaluation
                                                       : evaluator->evaluate(best->genome.toGenome());
            design::BreakdownChart breakdown;
            breakdown.resize(kWidgetSize);
            breakdown.setResult(layout.workload(), layout.architecture(), result);
            saveFigure(breakdown.chartView(), "breakdown-" + stem, options, written);
        }
    }
    return written;
}

QStringList renderSweepFigures(const QString& sweepDir, const FigureOptions& options)
{
    // convergence.csv: architecture,workload,method,evaluations,best_geomean (sweep/sweep_summary.hpp).
    const std::string path = QDir(sweepDir).filePath("convergence.csv").toStdString();
    const std::string text = readTextFile(path);
    std::map<std::pair<std::string, std::string>, Session> cells; // (arch, workload) -> one run per method
    std::size_t lineNumber = 0, start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        if (++lineNumber == 1) {
            if (line != "architecture,workload,method,evaluations,best_geomean")
                throw InputError(path + ":1: the header must be "
                                        "architecture,workload,method,evaluations,best_geomean");
            continue;
        }
        if (line.empty())
            continue;
        const auto fields = splitCsvLine(line);
        QStringList f;
        for (const auto& field : fields.value_or(std::vector<std::string>{}))
            f << QString::fromStdString(field);
        bool okEvaluations = false, okBest = false;
        const qlonglong evaluations = f.size() == 5 ? f[3].toLongLong(&okEvaluations) : 0;
        const double best = f.size() == 5 ? (f[4] == "inf" ? qInf() : f[4].toDouble(&okBest)) : 0;
        okBest = okBest || (f.size() == 5 && f[4] == "inf");
        if (f.size() != 5 || !okEvaluations || evaluations < 0 || !okBest || best < 0)
            throw InputError(
                path + ":" + std::to_string(lineNumber) +
                ": a row is architecture,workload,method,evaluations (an integer >= 0),best_geomean (a "
                "number >= 0 or inf), not `" +
                line + "`");
        Session& cell = cells[{f[0].toStdString(), f[1].toStdString()}];
        RunRecord* run = nullptr;
        for (auto& r : cell.runs)
            if (r.method == f[2].toStdString())
                run = &r;
        if (!run) {
            cell.runs.emplace_back();
            run = &cell.runs.back();
            run->method = run->name = f[2].toStdString();
        }
        search::GenerationStats stats;
        stats.generation = static_cast<int>(run->result.convergence.size());
        stats.evaluations = evaluations;
        stats.best = best;
        run->result.convergence.push_back(stats);
    }
    if (cells.empty())
        throw InputError(path + ": no convergence rows; is this a finished `sparsemap sweep --out` folder?");
    makeOutDir(options.outDir);
    QStringList written;
    for (const auto& [key, session] : cells) {
        CompareView compare;
        compare.resize(kWidgetSize);
        compare.setSession(session);
        saveFigure(compare.convergencePlot(),
                   "sweep-" + figureSlug(QString::fromStdString(key.first)) + "-" +
                       figureSlug(QString::fromStdString(key.second)),
                   options, written);
    }
    return written;
}

} // namespace sparsemap::ui
