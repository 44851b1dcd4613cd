// sparsemap sweep --workloads LIST --arch LIST [--vary PATH=V1,V2 ...] --methods LIST --seeds LIST
//                 --budget N --out DIR
// Wires the command line to core/sweep: the grid (architectures x workloads x methods x seeds, the
// architectures being every combination of the --vary overrides of each base), the resumable result
// folder, and the summaries in the style of the SparseMap paper (Table IV, Fig. 17a/b, Fig. 18). Under
// mpirun/srun the cells are distributed over the ranks (core/sweep/sweep_mpi.hpp).
#include "cli_common.hpp"
#include "commands.hpp"
#include "search_options.hpp"

#include "search/method_registry.hpp"
#include "sweep/sweep_mpi.hpp"
#include "util/text.hpp"

#include <QDir>
#include <QFileInfo>

#include <cmath>
#include <cstdio>

namespace sparsemap::cli {

namespace {

QStringList splitList(const QString& text)
{
    return text.split(',', Qt::SkipEmptyParts);
}

// "paper" = the paper's 28 workloads; a folder = every *.yaml in it; else a comma-separated list.
QStringList workloadFiles(const QString& spec)
{
    if (spec == "paper") {
        QStringList files;
        for (int i = 1; i <= 15; ++i)
            files << QString(SPARSEMAP_SAMPLES_DIR "/workloads/mm%1.yaml").arg(i);
        for (int i = 1; i <= 13; ++i)
            files << QString(SPARSEMAP_SAMPLES_DIR "/workloads/conv%1.yaml").arg(i);
        return files;
    }
    if (QFileInfo(spec).isDir()) {
        QStringList files;
        for (const auto& f : QDir(spec).entryList({"*.yaml"}, QDir::Files, QDir::Name))
            files << QDir(spec).filePath(f);
        return files;
    }
    return splitList(spec);
}

int sweepBody(const QStringList& args, const sweep::MpiSession& mpi)
{
    QCommandLineParser parser;
    const QCommandLineOption workloadsOpt(
        "workloads", "Workload files (comma-separated), a folder, or 'paper' for the paper's 28 (default).",
        "list", "paper");
    const QCommandLineOption archOpt("arch",
                                     "Presets or architecture files, comma-separated (default all three).",
                                     "list", "edge,mobile,cloud");
    const QCommandLineOption varyOpt(
        "vary",
        QString::fromStdString("An architecture axis PATH=V1,V2,...; repeat for more axes (every combination "
                               "is a variant of each --arch). PATH is " +
                               std::string(kArchOverrideForms) +
                               ", e.g. --vary glb.capacity=64KB,128KB --vary pe.count=8x8,16x16."),
        "path=values");
    const QCommandLineOption methodsOpt("methods",
                                        QString::fromStdString("Methods, comma-separated; the first is the "
                                                               "reference of the ratios (default "
                                                               "sparsemap,mapper,sage); " +
                                                               search::methodNamesByGroup() + "."),
                                        "list", "sparsemap,mapper,sage");
    const QCommandLineOption seedsOpt("seeds", "Seeds, comma-separated (default 1).", "list", "1");
    const QCommandLineOption budgetOpt("budget", "Model evaluations per run (default 20000).", "N", "20000");
    const QCommandLineOption objectiveOpt("objective", "edp (default), energy or delay.", "name", "edp");
    const QCommandLineOption threadsOpt("threads", "Worker threads per run (per MPI rank), 0 = all cores.",
                                        "N", "0");
    const QCommandLineOption outOpt(
        "out",
        "Output folder (required): a new or empty folder, or one of the same sweep "
        "(its finished cells are not rerun).",
        "dir");
    for (const auto& o : {workloadsOpt, archOpt, varyOpt, methodsOpt, seedsOpt, budgetOpt, objectiveOpt,
                          threadsOpt, outOpt, paddingOption()})
        parser.addOption(o);
    for (const auto& o : modelOptionOptions())
        parser.addOption(o);
    if (!parseCommandLine(
            parser, args,
            "Run a grid of searches and summarize it (resumable; under mpirun or srun the cells are "
            "spread over the ranks).",
            {}, 0))
        return int(kOk);
    if (!parser.isSet(outOpt))
        throw UsageError("--out is required (see --help)");
    sweep::SweepSettings settings;
    settings.objective = parseObjective(parser.value(objectiveOpt));
    settings.budget = parseBudget(parser.value(budgetOpt));
    settings.genome = genomeOptions(parser);
    const model::ModelOptions model = modelOptions(parser);
    settings.occupancyConfidence = model.occupancyConfidence;
    settings.formatSpace = model.formatSpace;
    const int threads = parseThreads(parser.value(threadsOpt));
    std::vector<std::uint64_t> seeds;
    for (const auto& s : splitList(parser.value(seedsOpt)))
        seeds.push_back(parseSeed(s));
    std::vector<std::string> methods;
    for (const auto& m : splitList(parser.value(methodsOpt)))
        methods.push_back(
            parseMethod(m.trimmed(), "--methods")); // an unknown one is a command-line error (exit 2)
    std::vector<ArchAxis> axes;
    for (const auto& v : parser.values(varyOpt))
        axes.push_back(parseArchAxis(str(v)));
    std::vector<Workload> workloads;
    for (const auto& file : workloadFiles(parser.value(workloadsOpt)))
        workloads.push_back(loadWorkloadArgument(file));
    std::vector<Architecture> archs;
    for (const auto& a : splitList(parser.value(archOpt)))
        archs.push_back(loadArchitecture(a.trimmed()));
    if (workloads.empty() || archs.empty() || methods.empty() || seeds.empty())
        throw UsageError("--workloads, --arch, --methods and --seeds need at least one entry each");
    const sweep::SweepGrid grid(std::move(workloads), archs, axes, std::move(methods), std::move(seeds),
                                settings);

    sweep::SweepRunOptions options;
    options.threads = threads;
    options.onCell = [&](const sweep::CellReport& report) {
        if (report.reused)
            return;
        const sweep::CellIdentity id = grid.identity(report.index);
        std::printf("%-8s %-10s %-22s seed %-3llu best %-12.5g valid %5.1f%%  %.2f s",
                    escapeControl(id.architecture).c_str(), escapeControl(id.workload).c_str(),
                    id.method.c_str(), static_cast<unsigned long long>(id.seed), report.result.best,
                    100 * report.result.validShare, report.result.seconds);
        if (mpi.size() > 1)
            std::printf("  (rank %d)", report.rank);
        std::printf("\n");
        std::fflush(stdout);
    };
    const auto outcome = sweep::runSweep(grid, str(parser.value(outOpt)), options, mpi);
    if (!outcome)
        return int(kOk); // a worker rank: rank 0 reports
    const std::string out = str(parser.value(outOpt));
    std::printf("\n%s\n", escapeControl(sweep::summaryMarkdown(outcome->summary), LineBreaks::Keep).c_str());
    std::printf("%zu cells: %zu run, %zu reused; %.2f s wall, %.2f s of searches", grid.cellCount(),
                outcome->ran, outcome->reused, outcome->wallSeconds, outcome->cellSeconds);
    if (mpi.size() > 1 && outcome->ran > 0)
        std::printf(" on %d worker ranks; dispatch wait %.3f ms per cell", outcome->workers,
                    1000 * outcome->dispatchWaitSeconds / static_cast<double>(outcome->ran));
    std::printf("\nwrote %s/summary.md, fig17a.csv, fig17b.csv, convergence.csv, timing.csv\n",
                escapeControl(out).c_str());
    return int(kOk);
}

} // namespace

int runSweep(const QStringList& args)
{
    sweep::MpiSession mpi;
    if (mpi.rank() > 0) {
        // Rank 0 reads the same command line and files and reports any problem once.
        try {
            return sweepBody(args, mpi);
        } catch (const UsageError&) {
            return int(kUsage);
        } catch (const std::exception&) {
            return int(kFailed);
        }
    }
    return runGuarded("sweep", [&] { return sweepBody(args, mpi); });
}

} // namespace sparsemap::cli
