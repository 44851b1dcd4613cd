// sparsemap sweep --workloads LIST --arch LIST --methods LIST --seeds LIST --budget N --out DIR
// A resumable grid of searches with a summary in the style of the SparseMap paper: per preset the
// geometric-mean objective ratio of every method against SparseMap (Table IV), the valid share per
// method (Fig. 17b), and mean convergence curves per cell (Fig. 18).
#include "cli_common.hpp"
#include "commands.hpp"
#include "search_options.hpp"

#include "io/file_io.hpp"
#include "io/search_io.hpp"
#include "search/method_registry.hpp"

#include <QDir>
#include <QFileInfo>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

namespace sparsemap::cli {

namespace {

struct CellResult {
    double best = std::numeric_limits<double>::infinity();
    double validShare = 0;
    double seconds = 0;
    std::vector<double> curve; // best so far at each checkpoint
};

constexpr int kCheckpoints = 20;

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

std::string cellText(const CellResult& c)
{
    std::ostringstream out;
    out.precision(10);
    out << c.best << ' ' << c.validShare << ' ' << c.seconds;
    for (double v : c.curve)
        out << ' ' << v;
    return out.str() + "\n";
}

bool readCell(const std::string& path, CellResult& c)
{
    std::ifstream in(path);
    if (!in)
        return false;
    std::string best;
    in >> best >> c.validShare >> c.seconds;
    c.best = best == "inf" ? std::numeric_limits<double>::infinity() : std::stod(best);
    std::string v;
    while (in >> v)
        c.curve.push_back(v == "inf" ? std::numeric_limits<double>::infinity() : std::stod(v));
    return static_cast<int>(c.curve.size()) == kCheckpoints;
}

CellResult summarize(const search::SearchResult& r, std::int64_t budget)
{
    CellResult c;
    std::int64_t valid = 0;
    double best = std::numeric_limits<double>::infinity();
    std::size_t next = 0;
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        valid += r.points[i].valid;
        best = std::min(best, r.points[i].objective);
        while (next < kCheckpoints && static_cast<std::int64_t>(i + 1) >=
                                          (budget * static_cast<std::int64_t>(next + 1)) / kCheckpoints) {
            c.curve.push_back(best);
            ++next;
        }
    }
    while (c.curve.size() < kCheckpoints)
        c.curve.push_back(best);
    c.best = best;
    c.validShare = r.points.empty() ? 0 : static_cast<double>(valid) / static_cast<double>(r.points.size());
    c.seconds = r.seconds;
    return c;
}

double geomean(const std::vector<double>& v)
{
    if (v.empty())
        return std::nan("");
    double s = 0;
    for (double x : v)
        s += std::log(x);
    return std::exp(s / static_cast<double>(v.size()));
}

} // namespace

int runSweep(const QStringList& args)
{
    return runGuarded("sweep", [&] {
        QCommandLineParser parser;
        const QCommandLineOption workloadsOpt(
            "workloads",
            "Workload files (comma-separated), a folder, or 'paper' for the paper's 28 (default).", "list",
            "paper");
        const QCommandLineOption archOpt(
            "arch", "Presets or architecture files, comma-separated (default all three).", "list",
            "edge,mobile,cloud");
        const QCommandLineOption methodsOpt("methods",
                                            QString::fromStdString("Methods, comma-separated (default "
                                                                   "sparsemap,mapper,sage); known: " +
                                                                   search::methodNames() + "."),
                                            "list", "sparsemap,mapper,sage");
        const QCommandLineOption seedsOpt("seeds", "Seeds, comma-separated (default 1).", "list", "1");
        const QCommandLineOption budgetOpt("budget", "Model evaluations per run (default 20000).", "N",
                                           "20000");
        const QCommandLineOption objectiveOpt("objective", "edp (default), energy or delay.", "name", "edp");
        const QCommandLineOption threadsOpt("threads", "Worker threads per run, 0 = all cores.", "N", "0");
        const QCommandLineOption outOpt(
            "out", "Output folder (required); finished cells there are not rerun.", "dir");
        for (const auto& o :
             {workloadsOpt, archOpt, methodsOpt, seedsOpt, budgetOpt, objectiveOpt, threadsOpt, outOpt})
            parser.addOption(o);
        if (!parseCommandLine(parser, args, "Run a grid of searches and summarize it (resumable).", {}, 0))
            return int(kOk);
        if (!parser.isSet(outOpt))
            throw UsageError("--out is required (see --help)");
        search::SearchSettings settings;
        settings.objective = parseObjective(parser.value(objectiveOpt));
        settings.budget = parseBudget(parser.value(budgetOpt));
        settings.threads = parseThreads(parser.value(threadsOpt));
        const QStringList workloads = workloadFiles(parser.value(workloadsOpt));
        const QStringList archs = splitList(parser.value(archOpt));
        const QStringList methods = splitList(parser.value(methodsOpt));
        std::vector<std::uint64_t> seeds;
        for (const auto& s : splitList(parser.value(seedsOpt)))
            seeds.push_back(parseSeed(s));
        if (workloads.isEmpty() || archs.isEmpty() || methods.isEmpty() || seeds.empty())
            throw UsageError("--workloads, --arch, --methods and --seeds need at least one entry each");
        const QString out = parser.value(outOpt);
        if (!QDir().mkpath(out + "/cells"))
            throw InputError("cannot create the output folder " + str(out));

        // [arch][workload][method] -> results over seeds
        std::map<std::string, std::map<std::string, std::map<std::string, std::vector<CellResult>>>> grid;
        for (const auto& archName : archs) {
            const Architecture arch = loadArchitecture(archName);
            for (const auto& file : workloads) {
                const Workload workload = loadWorkloadArgument(file);
                const GenomeLayout layout(workload, arch);
                for (const auto& method : methods) {
                    auto optimizer = search::makeOptimizer(str(method), layout); // validates the name early
                    for (auto seed : seeds) {
                        const std::string cellPath = str(out) + "/cells/" + arch.name + "__" + workload.name +
                                                     "__" + str(method) + "__seed" + std::to_string(seed) +
                                                     ".txt";
                        CellResult cell;
                        if (!readCell(cellPath, cell)) {
                            cell = CellResult{};
                            settings.seed = seed;
                            const auto result = search::runSearch(*optimizer, layout, settings);
                            cell = summarize(result, settings.budget);
                            writeTextFileAtomically(cellPath, cellText(cell));
                            std::printf("%-8s %-10s %-22s seed %-3llu best %-12.5g valid %5.1f%%  %.2f s\n",
                                        arch.name.c_str(), workload.name.c_str(), str(method).c_str(),
                                        static_cast<unsigned long long>(seed), cell.best,
                                        100 * cell.validShare, cell.seconds);
                            std::fflush(stdout);
                        }
                        grid[arch.name][workload.name][str(method)].push_back(cell);
                    }
                }
            }
        }

        // Summary.
        std::ostringstream md;
        const std::string reference = str(methods.first());
        md << "# Sweep summary\n\nobjective " << objectiveName(settings.objective) << ", budget "
           << settings.budget << " evaluations, " << seeds.size()
           << " seed(s); per cell the geometric mean over seeds of the best "
           << "objective; ratios are method / " << reference << " (> 1: " << reference << " is better).\n\n";
        std::map<std::string, std::vector<double>> validShares;
        for (const auto& [archName, perWorkload] : grid) {
            md << "## " << archName << "\n\n| workload |";
            for (const auto& m : methods)
                md << ' ' << str(m) << " |";
            md << " seconds (" << reference << ") |\n|---|";
            for (int i = 0; i <= methods.size(); ++i)
                md << "---|";
            md << '\n';
            std::map<std::string, std::vector<double>> ratios;
            std::map<std::string, int> wins, cells;
            for (const auto& [workloadName, perMethod] : perWorkload) {
                md << "| " << workloadName << " |";
                auto cellBest = [&](const std::string& m) {
                    std::vector<double> v;
                    for (const auto& c : perMethod.at(m))
                        if (std::isfinite(c.best))
                            v.push_back(c.best);
                    return v.size() == perMethod.at(m).size() ? geomean(v)
                                                              : std::numeric_limits<double>::infinity();
                };
                const double ref = cellBest(reference);
                for (const auto& m : methods) {
                    const double b = cellBest(str(m));
                    char buf[64];
                    std::snprintf(buf, sizeof buf, " %.4g |", b);
                    md << buf;
                    for (const auto& c : perMethod.at(str(m)))
                        validShares[str(m)].push_back(c.validShare);
                    if (str(m) == reference)
                        continue;
                    ++cells[str(m)];
                    if (ref <= b)
                        ++wins[str(m)];
                    if (std::isfinite(ref) && std::isfinite(b))
                        ratios[str(m)].push_back(b / ref);
                }
                double seconds = 0;
                for (const auto& c : perMethod.at(reference))
                    seconds += c.seconds;
                char buf[32];
                std::snprintf(buf, sizeof buf, " %.2f |\n",
                              seconds / static_cast<double>(perMethod.at(reference).size()));
                md << buf;
            }
            md << '\n';
            for (const auto& m : methods) {
                if (str(m) == reference)
                    continue;
                char buf[240];
                if (ratios[str(m)].empty())
                    std::snprintf(
                        buf, sizeof buf,
                        "- %s: no cell where both found a valid design; %s at least as good in %d of %d "
                        "cells\n",
                        str(m).c_str(), reference.c_str(), wins[str(m)], cells[str(m)]);
                else
                    std::snprintf(buf, sizeof buf,
                                  "- %s: geometric-mean ratio %.3gx; %s at least as good in %d of %d cells\n",
                                  str(m).c_str(), geomean(ratios[str(m)]), reference.c_str(), wins[str(m)],
                                  cells[str(m)]);
                md << buf;
            }
            md << '\n';
        }
        md << "## Valid share of evaluated points (Fig. 17b)\n\n";
        for (const auto& m : methods) {
            double sum = 0;
            for (double v : validShares[str(m)])
                sum += v;
            char buf[120];
            std::snprintf(buf, sizeof buf, "- %s: %.1f%%\n", str(m).c_str(),
                          validShares[str(m)].empty()
                              ? 0.0
                              : 100 * sum / static_cast<double>(validShares[str(m)].size()));
            md << buf;
        }
        // Mean convergence per cell (geometric mean over seeds of best-so-far at 20 checkpoints).
        std::ostringstream csv;
        csv << "arch,workload,method,evaluations,best_geomean\n";
        for (const auto& [archName, perWorkload] : grid)
            for (const auto& [workloadName, perMethod] : perWorkload)
                for (const auto& [method, seedsOfCell] : perMethod)
                    for (int k = 0; k < kCheckpoints; ++k) {
                        std::vector<double> v;
                        for (const auto& c : seedsOfCell)
                            if (std::isfinite(c.curve[k]))
                                v.push_back(c.curve[k]);
                        csv << archName << ',' << workloadName << ',' << method << ','
                            << (settings.budget * (k + 1)) / kCheckpoints << ','
                            << (v.size() == seedsOfCell.size() ? geomean(v)
                                                               : std::numeric_limits<double>::infinity())
                            << '\n';
                    }
        writeTextFileAtomically(str(out) + "/summary.md", md.str());
        writeTextFileAtomically(str(out) + "/convergence.csv", csv.str());
        std::printf("\n%s\nwrote %s/summary.md and %s/convergence.csv\n", md.str().c_str(), str(out).c_str(),
                    str(out).c_str());
        return int(kOk);
    });
}

} // namespace sparsemap::cli
