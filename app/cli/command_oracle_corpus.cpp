// sparsemap oracle-corpus draw --out DIR [--per-pair N] [--search-budget B] [--seed S] [--first-id N]
//                              [--workloads a,b] [--archs x,y]
// sparsemap oracle-corpus collect DIR --figures FILE
// sparsemap oracle-corpus compare FIGURES
// The generator of the oracle corpus (docs/oracle.md): draw designs and export each as a Sparseloop
// case, read back what Sparseloop printed for them, compare our model with those figures.
#include "cli_common.hpp"
#include "commands.hpp"

#include "analysis/oracle_corpus.hpp"
#include "util/file_io.hpp"
#include "io/architecture_io.hpp"
#include "io/sparseloop/sparseloop_export.hpp"

#include <QCoreApplication>
#include <QDir>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace sparsemap::cli {

namespace {

const std::vector<std::string> kWorkloads = {
    "mm1",         "mm3",   "mm6",   "mm12",   "spmm-32x64x48",
    "toy",         "conv1", "conv4", "conv13", "general-strided-conv",
    "batched-spmm"};
const std::vector<std::string> kArchitectures = {"edge", "mobile", "cloud", "toy"};

// A comma-separated list, or `fallback` when the option is not given.
std::vector<std::string> listOption(const QCommandLineParser& parser, const QCommandLineOption& option,
                                    const std::vector<std::string>& fallback)
{
    if (!parser.isSet(option))
        return fallback;
    std::vector<std::string> names;
    for (const auto& part : parser.value(option).split(',', Qt::SkipEmptyParts))
        names.push_back(str(part.trimmed()));
    if (names.empty())
        throw UsageError("--" + str(option.names().front()) + " needs at least one name");
    return names;
}

// The last line of the oracle's output that names an error, else its last line.
std::string rejectionOf(const std::string& log)
{
    std::string last, error;
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty())
            continue;
        last = line;
        std::string lower = line;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        if (lower.find("error") != std::string::npos || lower.find("assert") != std::string::npos ||
            lower.find("fail") != std::string::npos || lower.find("exceed") != std::string::npos ||
            lower.find("not support") != std::string::npos)
            error = line;
    }
    return error.empty() ? (last.empty() ? "no output" : last) : error;
}

int draw(const QStringList& args)
{
    QCommandLineParser parser;
    const QCommandLineOption out("out", "Folder for manifest.tsv and one exported case per design.", "dir");
    const QCommandLineOption perPair(
        "per-pair", "Random valid designs per workload x architecture (default 12).", "N", "12");
    const QCommandLineOption budget(
        "search-budget",
        "Evaluations of the search whose best design joins each pair (default 2000; 0 = none).", "B", "2000");
    const QCommandLineOption seed("seed", "Random seed (default 1).", "S", "1");
    const QCommandLineOption firstId(
        "first-id",
        "Number the designs from N (r<N>, s<N+1>, ...; default 0), so that a second corpus can "
        "join the first.",
        "N", "0");
    const QCommandLineOption workloads(
        "workloads",
        "Sample workloads, comma-separated, by their name under samples/workloads/ without .yaml (e.g. "
        "mttkrp,mindmappings/mttkrp0-sparse; default: the SpMM and SpConv list of docs/oracle.md).",
        "names");
    const QCommandLineOption archs("archs",
                                   "Architectures, comma-separated: presets and toy (default "
                                   "edge,mobile,cloud,toy).",
                                   "names");
    for (const auto* o : {&out, &perPair, &budget, &seed, &firstId, &workloads, &archs})
        parser.addOption(*o);
    if (!parseCommandLine(parser, args,
                          "Draw the oracle corpus and export every design as a Sparseloop case.", {}, 0))
        return kOk;
    if (!parser.isSet(out))
        throw UsageError("say where to write: --out <dir>");
    OracleCorpusSettings settings;
    settings.samplesDir = SPARSEMAP_SAMPLES_DIR;
    settings.workloads = listOption(parser, workloads, kWorkloads);
    settings.architectures = listOption(parser, archs, kArchitectures);
    for (const auto& w : settings.workloads)
        if (!std::filesystem::is_regular_file(settings.samplesDir + "/workloads/" + w + ".yaml"))
            throw UsageError("--workloads: no sample workload '" + w + "' (" + settings.samplesDir +
                             "/workloads/" + w + ".yaml)");
    const auto presets = presetNames();
    for (const auto& a : settings.architectures)
        if (a != "toy" && std::find(presets.begin(), presets.end(), a) == presets.end())
            throw UsageError("--archs: '" + a + "' is neither a preset nor toy");
    bool ok1 = false, ok2 = false, ok3 = false, ok4 = false;
    settings.randomPerPair = parser.value(perPair).toInt(&ok1);
    settings.searchBudget = parser.value(budget).toLongLong(&ok2);
    settings.seed = parser.value(seed).toULongLong(&ok3);
    settings.firstId = parser.value(firstId).toInt(&ok4);
    if (!ok1 || !ok2 || !ok3 || !ok4 || settings.randomPerPair < 0 || settings.searchBudget < 0 ||
        settings.firstId < 0 || settings.firstId > 9000)
        throw UsageError("--per-pair, --search-budget and --seed take non-negative integers; --first-id one "
                         "from 0 to 9000");
    const auto entries =
        drawOracleCorpus(settings, [](const std::string& line) { std::cerr << line << '\n'; });
    const std::string dir = str(parser.value(out));
    std::filesystem::create_directories(dir);
    int exported = 0;
    for (const auto& e : entries) {
        const OracleDesign d = buildOracleDesign(settings.samplesDir, e);
        exportSparseloopCase(d.layout->workload(), d.arch, d.design, dir + "/" + e.id);
        ++exported;
    }
    writeTextFileAtomically(dir + "/manifest.tsv", oracleManifestText(entries));
    std::cout << "exported " << exported << " designs to " << dir << " (manifest.tsv)\n";
    return kOk;
}

int collect(const QStringList& args)
{
    QCommandLineParser parser;
    const QCommandLineOption figuresOption("figures", "The figures file to write.", "file");
    parser.addOption(figuresOption);
    if (!parseCommandLine(
            parser, args,
            "Read what the oracle printed for each design of a drawn corpus: <id>/timeloop-model."
            "stats.txt, or the rejection in <id>/oracle.log.",
            {{"dir", "The folder `draw` wrote, after the oracle ran in every case folder."}}, 1))
        return kOk;
    if (!parser.isSet(figuresOption))
        throw UsageError("say where to write: --figures <file>");
    const std::string dir = str(parser.positionalArguments()[0]);
    const auto entries = parseOracleManifest(readTextFile(dir + "/manifest.tsv"), dir + "/manifest.tsv");
    std::vector<OracleFigures> figures;
    int missing = 0;
    for (const auto& e : entries) {
        const std::string caseDir = dir + "/" + e.id;
        if (std::filesystem::exists(caseDir + "/timeloop-model.stats.txt")) {
            figures.push_back(
                oracleFiguresFromStats(e, parseSparseloopStats(caseDir + "/timeloop-model.stats.txt")));
        } else if (std::filesystem::exists(caseDir + "/oracle.log")) {
            OracleFigures f;
            f.entry = e;
            const std::string rc = std::filesystem::exists(caseDir + "/oracle.rc")
                                       ? readTextFile(caseDir + "/oracle.rc")
                                       : std::string();
            f.rejection = rc.rfind("124", 0) == 0 ? "oracle timeout: no result within the run's time limit"
                                                  : rejectionOf(readTextFile(caseDir + "/oracle.log"));
            figures.push_back(f);
        } else {
            ++missing;
        }
    }
    writeTextFileAtomically(str(parser.value(figuresOption)), oracleFiguresText(figures));
    std::cout << figures.size() << " designs collected, " << missing << " not run\n";
    return kOk;
}

int compare(const QStringList& args)
{
    QCommandLineParser parser;
    const QCommandLineOption verbose("verbose", "One line per design.");
    parser.addOption(verbose);
    if (!parseCommandLine(parser, args, "Compare our model with the oracle's figures.",
                          {{"figures", "A figures file (tests/data/oracle/figures.tsv)."}}, 1))
        return kOk;
    const std::string path = str(parser.positionalArguments()[0]);
    const auto figures = parseOracleFigures(readTextFile(path), path);
    const std::string scratch = QDir::tempPath().toStdString() + "/sparsemap-oracle-compare-" +
                                std::to_string(QCoreApplication::applicationPid());
    int accepted = 0, wrapped = 0, rejectedBoth = 0, rejectedOnlyOracle = 0, within05 = 0, within2 = 0,
        g05 = 0;
    double worstCycles = 0, worstEnergy = 0;
    std::string worstId;
    for (const auto& f : figures) {
        const auto c = compareWithOracle(SPARSEMAP_SAMPLES_DIR, f, scratch);
        if (!f.accepted) {
            (c.sparseloopModeValid ? rejectedOnlyOracle : rejectedBoth)++;
            if (parser.isSet(verbose))
                std::cout << f.entry.id << "\trejected by the oracle: " << f.rejection
                          << "\tours: " << (c.sparseloopModeValid ? "valid" : c.sparseloopModeReason) << '\n';
            continue;
        }
        ++accepted;
        if (oracleCountsWrapped(f)) {
            ++wrapped;
            if (parser.isSet(verbose))
                std::cout << f.entry.id << '\t' << f.entry.workload << '\t' << f.entry.arch
                          << "\tthe oracle's counts wrapped around (no figures to compare)\tours: "
                          << (c.sparseloopModeValid ? "valid" : c.sparseloopModeReason) << '\n';
            continue;
        }
        const double e = std::max(std::fabs(c.cyclesErrorPct), std::fabs(c.energyErrorPct));
        const bool valid = c.sparseloopModeValid;
        within05 += valid && e <= 0.5;
        within2 += valid && e <= 2;
        g05 += c.oursValid &&
               std::max(std::fabs(c.genomeCyclesErrorPct), std::fabs(c.genomeEnergyErrorPct)) <= 0.5;
        if (valid && e > std::max(std::fabs(worstCycles), std::fabs(worstEnergy))) {
            worstCycles = c.cyclesErrorPct;
            worstEnergy = c.energyErrorPct;
            worstId = f.entry.id;
        }
        if (parser.isSet(verbose)) {
            char line[256];
            std::snprintf(line, sizeof line,
                          "%s\t%s\t%s\tcycles %+.3f %%\tenergy %+.3f %%\tgenome model %+.3f %% / %+.3f %%",
                          f.entry.id.c_str(), f.entry.workload.c_str(), f.entry.arch.c_str(),
                          c.cyclesErrorPct, c.energyErrorPct, c.genomeCyclesErrorPct, c.genomeEnergyErrorPct);
            std::cout << line << (valid ? "" : "\tours invalid: " + c.sparseloopModeReason) << '\n';
        }
    }
    std::filesystem::remove_all(scratch);
    char summary[512];
    std::snprintf(
        summary, sizeof summary,
        "%zu designs: %d accepted by the oracle (%d of them with counts that wrapped around: verdict only), "
        "%d rejected by both, %d rejected only by the oracle\n"
        "as Sparseloop reads the export: %d of %d within 0.5 %%, %d within 2 %%; worst %s (cycles %+.3f %%, "
        "energy %+.3f %%)\ngenome model: %d of %d within 0.5 %%\n",
        figures.size(), accepted, wrapped, rejectedBoth, rejectedOnlyOracle, within05, accepted - wrapped,
        within2, worstId.c_str(), worstCycles, worstEnergy, g05, accepted - wrapped);
    std::cout << summary;
    return kOk;
}

} // namespace

int runOracleCorpus(const QStringList& args)
{
    return runGuarded("oracle-corpus", [&] {
        const QString action = args.value(1);
        const QStringList rest = QStringList{args.value(0) + " " + action} + args.mid(2);
        if (action == "draw")
            return draw(rest);
        if (action == "collect")
            return collect(rest);
        if (action == "compare")
            return compare(rest);
        if (action == "--help" || action == "-h") {
            std::cout << "Usage: sparsemap oracle-corpus draw|collect|compare ... (see docs/oracle.md; "
                         "each takes --help)\n";
            return int(kOk);
        }
        throw UsageError("say draw, collect or compare (see docs/oracle.md)");
    });
}

} // namespace sparsemap::cli
