// sparsemap search --workload F --arch preset|F [--method NAME] [--budget N] [--seed N]
//                  [--objective edp|energy|delay|pareto] [--max-energy-uj X] [--threads N] [--out DIR]
#include "cli_common.hpp"
#include "commands.hpp"
#include "search_options.hpp"

#include "analysis/pareto_front.hpp"
#include "design/loop_nest_text.hpp"
#include "genome/genome_codec.hpp"
#include "genome/genome_text.hpp"
#include "io/design_io.hpp"
#include "util/file_io.hpp"
#include "io/search_io.hpp"
#include "io/session_io.hpp"
#include "model/result_text.hpp"
#include "search/method_registry.hpp"
#include "util/text.hpp"

#include <QDir>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <iostream>
#include <unistd.h>

namespace sparsemap::cli {

namespace {

// A one-line progress bar on stderr, redrawn in place; only on a terminal.
void drawProgress(const search::GenerationStats& g, std::int64_t budget)
{
    const int width = 30;
    const int filled =
        static_cast<int>(width * static_cast<double>(g.evaluations) / static_cast<double>(budget));
    std::fprintf(stderr, "\r[%s%s] %lld/%lld evals  best %.4g  valid %.0f%%  ",
                 std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(),
                 static_cast<long long>(g.evaluations), static_cast<long long>(budget), g.best,
                 100 * g.validShare);
    std::fflush(stderr);
}

// The design files of an earlier front in dir/front (`<rank>.design.yaml`, rank in 3 or more digits)
// that `written` (this run's, relative to dir) does not hold.
std::vector<std::string> staleFrontDesigns(const std::string& dir, const std::vector<std::string>& written)
{
    namespace fs = std::filesystem;
    std::vector<std::string> stale;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir + "/front", ec)) {
        const std::string name = entry.path().filename().string();
        const auto dot = name.find('.');
        const bool design = dot >= 3 && name.substr(dot) == ".design.yaml" &&
                            std::all_of(name.begin(), name.begin() + static_cast<std::ptrdiff_t>(dot),
                                        [](char c) { return c >= '0' && c <= '9'; });
        if (design && std::find(written.begin(), written.end(), "front/" + name) == written.end())
            stale.push_back(entry.path().string());
    }
    return stale;
}

// Removes the files (those missing are fine), and dir/front when that is left empty and unused.
void removeStaleFiles(const std::string& dir, const std::vector<std::string>& files, bool frontUsed)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& f : files)
        if (fs::is_regular_file(fs::symlink_status(f, ec)) && !fs::remove(f, ec) && ec)
            throw InputError("cannot remove " + f +
                             " (a file of an earlier run in the --out folder): " + ec.message());
    if (!frontUsed && fs::is_directory(dir + "/front", ec) && fs::is_empty(dir + "/front", ec))
        fs::remove(dir + "/front", ec);
}

} // namespace

int runSearch(const QStringList& args)
{
    return runGuarded("search", [&] {
        QCommandLineParser parser;
        const QCommandLineOption workloadOpt("workload", "Workload YAML file.", "file");
        const QCommandLineOption archOpt(
            "arch", "Architecture: a preset (edge, mobile, cloud) or a YAML file.", "preset|file");
        const QCommandLineOption methodOpt("method",
                                           QString::fromStdString("Search method (default sparsemap); " +
                                                                  search::methodNamesByGroup() + "."),
                                           "name", "sparsemap");
        const QCommandLineOption budgetOpt(
            "budget", "Model evaluations, everything included (default 20000).", "N", "20000");
        const QCommandLineOption seedOpt("seed", "Random seed (default 1).", "N", "1");
        const QCommandLineOption objectiveOpt(
            "objective",
            "edp (default), energy, delay, or pareto: search on EDP and return the energy-delay front of "
            "every valid design evaluated (front.csv, front/*.design.yaml).",
            "name", "edp");
        const QCommandLineOption maxEnergyOpt(
            "max-energy-uj",
            "With --objective pareto: also print the fastest design of the front using at most "
            "this many microjoules.",
            "X");
        const QCommandLineOption threadsOpt(
            "threads", "Worker threads, 0 = all cores (results do not depend on it).", "N", "0");
        const QCommandLineOption outOpt("out", "Folder for best.design.yaml, points.csv and convergence.csv.",
                                        "dir");
        for (const auto& o : {workloadOpt, archOpt, methodOpt, budgetOpt, seedOpt, objectiveOpt, maxEnergyOpt,
                              threadsOpt, outOpt})
            parser.addOption(o);
        parser.addOption(paddingOption());
        for (const auto& option : modelOptionOptions())
            parser.addOption(option);
        if (!parseCommandLine(
                parser, args,
                "Search the joint mapping / sparse-strategy space of a workload on an architecture and "
                "print the best design.",
                {}, 0))
            return int(kOk);
        if (!parser.isSet(workloadOpt) || !parser.isSet(archOpt))
            throw UsageError("--workload and --arch are required (see --help)");
        search::SearchSettings settings;
        // Pareto: the method minimizes EDP (energy x cycles, whose minimum is always on the front) and
        // the front is the archive of the non-dominated valid designs among everything it evaluated.
        const bool pareto = parser.value(objectiveOpt) == "pareto";
        settings.objective = pareto ? search::Objective::Edp : parseObjective(parser.value(objectiveOpt));
        std::optional<double> maxEnergyUj;
        if (parser.isSet(maxEnergyOpt)) {
            bool ok = false;
            maxEnergyUj = parser.value(maxEnergyOpt).toDouble(&ok);
            if (!ok || !(*maxEnergyUj > 0) || !std::isfinite(*maxEnergyUj))
                throw UsageError("--max-energy-uj must be a positive number of microjoules, not '" +
                                 str(parser.value(maxEnergyOpt)) + "'");
            if (!pareto)
                throw UsageError("--max-energy-uj needs --objective pareto");
        }
        settings.budget = parseBudget(parser.value(budgetOpt));
        settings.seed = parseSeed(parser.value(seedOpt));
        settings.threads = parseThreads(parser.value(threadsOpt));
        RunRecord record; // what `--out` keeps as run.session.yaml, for `sparsemap plot` and the workbench
        record.workload = loadWorkloadArgument(parser.value(workloadOpt));
        record.architecture = loadArchitecture(parser.value(archOpt));
        record.genomeOptions = genomeOptions(parser);
        const GenomeLayout layout(record.workload, record.architecture, record.genomeOptions);
        auto optimizer = search::makeOptimizer(parseMethod(parser.value(methodOpt)));
        const model::ModelOptions options = modelOptions(parser);
        record.modelOptions = options; // the session re-scores the run's designs with them
        const bool terminal = isatty(fileno(stderr));
        const auto result = search::runSearch(*optimizer, layout, settings, options, nullptr,
                                              [&](const search::GenerationStats& g) {
                                                  if (terminal)
                                                      drawProgress(g, settings.budget);
                                              });
        if (terminal)
            std::fprintf(stderr, "\n");
        std::printf("method %s, %zu evaluations (%.1f%% valid) in %.2f s, objective %s\n",
                    result.method.c_str(), result.points.size(), 100.0 * result.validShare(), result.seconds,
                    pareto ? "pareto (search on edp)" : objectiveName(settings.objective).c_str());
        if (!result.points.empty()) {
            const auto repeats = result.points.repeatedObjectiveCount();
            std::printf("  repeats: %lld valid evaluations (%.1f%%) scored exactly as an earlier one\n",
                        static_cast<long long>(repeats),
                        100.0 * static_cast<double>(repeats) / static_cast<double>(result.points.size()));
        }
        for (const auto& line : optimizer->summary())
            std::printf("  %s\n", escapeControl(line).c_str());
        const auto best = result.best();
        // The search hands its best design and the model's result for it out: nothing is evaluated or
        // decoded again here.
        const search::BestDesign* bestDesign = result.bestDesign ? &*result.bestDesign : nullptr;
        if (best && !bestDesign)
            throw std::logic_error("the search returned a best point without its design");
        if (!best) {
            std::printf("no valid design found\n");
            std::fflush(stdout);
            std::fprintf(stderr, "sparsemap search: no valid design found in %zu evaluations\n",
                         result.points.size());
        } else {
            // Names from the files appear in the loop nest and the summary: escaped.
            std::cout << "\nbest genome: " << genomeToText(best->genome) << "\n\n"
                      << escapeControl(
                             renderLoopNest(layout.workload(), layout.architecture(), bestDesign->evaluated) +
                                 '\n' + model::renderSummary(bestDesign->evaluation),
                             LineBreaks::Keep);
        }
        std::vector<std::int64_t> front;
        if (pareto) {
            front = analysis::paretoFront(result.points);
            std::printf("\nenergy-delay front: %zu designs (fastest first)\n%6s %10s %14s %14s %12s\n",
                        front.size(), "rank", "point", "cycles", "energy (uJ)", "EDP");
            for (std::size_t r = 0; r < front.size(); ++r) {
                const auto& p = result.points[static_cast<std::size_t>(front[r])];
                std::printf("%6zu %10lld %14.6g %14.6g %12.4g\n", r, static_cast<long long>(front[r]),
                            p.cycles, p.energyPj * 1e-6, p.edp);
            }
            if (maxEnergyUj) {
                const std::int64_t i = analysis::fastestUnderEnergy(result.points, front, *maxEnergyUj * 1e6);
                if (i < 0)
                    std::printf("no design of the front uses at most %g uJ\n", *maxEnergyUj);
                else
                    std::printf("fastest design using at most %g uJ: point %lld, %.6g cycles, %.6g uJ\n",
                                *maxEnergyUj, static_cast<long long>(i),
                                result.points[static_cast<std::size_t>(i)].cycles,
                                result.points[static_cast<std::size_t>(i)].energyPj * 1e-6);
            }
        }
        if (parser.isSet(outOpt)) {
            const QString dir = parser.value(outOpt);
            if (!QDir().mkpath(dir))
                throw InputError("cannot create the output folder " + str(dir));
            // The run's files replace an earlier run's as a whole: what this run does not write of
            // them (a longer front's designs, a front after a plain run, a best design) goes.
            std::vector<std::string> stale;
            if (pareto) {
                if (!QDir().mkpath(dir + "/front"))
                    throw InputError("cannot create the output folder " + str(dir + "/front"));
                std::vector<std::string> files;
                for (std::size_t r = 0; r < front.size(); ++r) {
                    const auto p = result.points[static_cast<std::size_t>(front[r])];
                    if (p.genome.empty()) { // a method without a genome: no design file to write
                        files.emplace_back();
                        continue;
                    }
                    files.push_back("front/" + QString("%1").arg(r, 3, 10, QChar('0')).toStdString() +
                                    ".design.yaml");
                    const DesignMetrics metrics{p.valid, std::string(p.reason), p.cycles, p.energyPj, p.edp};
                    const Genome genome = p.genome;
                    saveDesignFile(layout, genome, decodeGenome(layout, genome),
                                   str(dir) + "/" + files.back(), &metrics, &options);
                }
                writeTextFileAtomically(str(dir + "/front.csv"), paretoFrontCsv(result, front, files));
                std::printf("\nwrote %s/front.csv and %zu design files in %s/front\n",
                            escapeControl(str(dir)).c_str(), front.size(), escapeControl(str(dir)).c_str());
                stale = staleFrontDesigns(str(dir), files);
            } else {
                stale = staleFrontDesigns(str(dir), {});
                stale.push_back(str(dir) + "/front.csv");
            }
            savePointsCsv(result, str(dir + "/points.csv"));
            saveConvergenceCsv(result, str(dir + "/convergence.csv"));
            if (best) {
                const DesignMetrics metrics{best->valid, std::string(best->reason), best->cycles,
                                            best->energyPj, best->edp};
                const Genome genome = best->genome;
                // The genome's own design (under --format-space nearest the evaluated one has its formats
                // made representable, which the genome does not say).
                saveDesignFile(layout, genome, bestDesign->decoded, str(dir + "/best.design.yaml"), &metrics,
                               &options);
            }
            record.method = result.method;
            record.name = result.method + " " + record.workload.name + "/" + record.architecture.name + " s" +
                          std::to_string(settings.seed);
            record.settings = settings;
            record.result = result;
            Session session;
            session.runs.push_back(std::move(record));
            saveSessionFile(session, str(dir + "/run.session.yaml"));
            if (!best)
                stale.push_back(str(dir) + "/best.design.yaml");
            removeStaleFiles(str(dir), stale, pareto);
            std::printf("\nwrote %s/{points.csv, convergence.csv, run.session.yaml%s}\n",
                        escapeControl(str(dir)).c_str(), best ? ", best.design.yaml" : "");
        }
        return best ? int(kOk) : int(kFailed);
    });
}

} // namespace sparsemap::cli
