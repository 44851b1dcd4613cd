// sparsemap search --workload F --arch preset|F [--method NAME] [--budget N] [--seed N]
//                  [--objective edp|energy|delay] [--threads N] [--out DIR]
#include "cli_common.hpp"
#include "commands.hpp"
#include "search_options.hpp"

#include "design/loop_nest_text.hpp"
#include "genome/genome_codec.hpp"
#include "genome/genome_text.hpp"
#include "io/design_io.hpp"
#include "io/search_io.hpp"
#include "model/genome_evaluator.hpp"
#include "model/result_text.hpp"
#include "search/method_registry.hpp"

#include <QDir>

#include <cstdio>
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

} // namespace

int runSearch(const QStringList& args)
{
    return runGuarded("search", [&] {
        QCommandLineParser parser;
        const QCommandLineOption workloadOpt("workload", "Workload YAML file.", "file");
        const QCommandLineOption archOpt(
            "arch", "Architecture: a preset (edge, mobile, cloud) or a YAML file.", "preset|file");
        const QCommandLineOption methodOpt(
            "method",
            QString::fromStdString("Search method: " + search::methodNames() + " (default sparsemap)."),
            "name", "sparsemap");
        const QCommandLineOption budgetOpt(
            "budget", "Model evaluations, everything included (default 20000).", "N", "20000");
        const QCommandLineOption seedOpt("seed", "Random seed (default 1).", "N", "1");
        const QCommandLineOption objectiveOpt("objective", "edp (default), energy or delay.", "name", "edp");
        const QCommandLineOption threadsOpt(
            "threads", "Worker threads, 0 = all cores (results do not depend on it).", "N", "0");
        const QCommandLineOption outOpt("out", "Folder for best.design.yaml, points.csv and convergence.csv.",
                                        "dir");
        for (const auto& o :
             {workloadOpt, archOpt, methodOpt, budgetOpt, seedOpt, objectiveOpt, threadsOpt, outOpt})
            parser.addOption(o);
        parser.addOption(paddingOption());
        if (!parseCommandLine(
                parser, args,
                "Search the joint mapping / sparse-strategy space of a workload on an architecture and "
                "print the best design.",
                {}, 0))
            return int(kOk);
        if (!parser.isSet(workloadOpt) || !parser.isSet(archOpt))
            throw UsageError("--workload and --arch are required (see --help)");
        search::SearchSettings settings;
        settings.objective = parseObjective(parser.value(objectiveOpt));
        settings.budget = parseBudget(parser.value(budgetOpt));
        settings.seed = parseSeed(parser.value(seedOpt));
        settings.threads = parseThreads(parser.value(threadsOpt));
        const GenomeLayout layout(loadWorkloadArgument(parser.value(workloadOpt)),
                                  loadArchitecture(parser.value(archOpt)), genomeOptions(parser));
        auto optimizer = search::makeOptimizer(str(parser.value(methodOpt)), layout);
        const bool terminal = isatty(fileno(stderr));
        const auto result = search::runSearch(*optimizer, layout, settings, {}, nullptr,
                                              [&](const search::GenerationStats& g) {
                                                  if (terminal)
                                                      drawProgress(g, settings.budget);
                                              });
        if (terminal)
            std::fprintf(stderr, "\n");
        std::int64_t valid = 0;
        for (const auto& p : result.points)
            valid += p.valid;
        std::printf("method %s, %zu evaluations (%.1f%% valid) in %.2f s, objective %s\n",
                    result.method.c_str(), result.points.size(),
                    result.points.empty()
                        ? 0.0
                        : 100.0 * static_cast<double>(valid) / static_cast<double>(result.points.size()),
                    result.seconds, objectiveName(settings.objective).c_str());
        const auto* best = result.best();
        if (!best) {
            std::printf("no valid design found\n");
        } else {
            model::GenomeEvaluator evaluator(layout);
            const auto& r = evaluator.evaluate(best->genome);
            std::cout << "\nbest genome: " << genomeToText(best->genome) << "\n\n"
                      << renderLoopNest(layout.workload(), layout.architecture(), evaluator.lastDesign())
                      << '\n'
                      << model::renderSummary(r);
        }
        if (parser.isSet(outOpt)) {
            const QString dir = parser.value(outOpt);
            if (!QDir().mkpath(dir))
                throw InputError("cannot create the output folder " + str(dir));
            savePointsCsv(result, str(dir + "/points.csv"));
            saveConvergenceCsv(result, str(dir + "/convergence.csv"));
            if (best) {
                const DesignMetrics metrics{best->valid, best->reason, best->cycles, best->energyPj,
                                            best->edp};
                saveDesignFile(layout, best->genome, decodeGenome(layout, best->genome),
                               str(dir + "/best.design.yaml"), &metrics);
            }
            std::printf("\nwrote %s/{points.csv, convergence.csv%s}\n", str(dir).c_str(),
                        best ? ", best.design.yaml" : "");
        }
        return best ? int(kOk) : int(kFailed);
    });
}

} // namespace sparsemap::cli
