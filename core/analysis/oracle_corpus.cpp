#include "analysis/oracle_corpus.hpp"

#include "genome/genome_codec.hpp"
#include "genome/genome_text.hpp"
#include "io/architecture_io.hpp"
#include "io/sparseloop/sparseloop_export.hpp"
#include "io/sparseloop/sparseloop_import.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "io/sparseloop/sparseloop_options.hpp"
#include "search/genome_checks.hpp"
#include "search/method_registry.hpp"
#include "search/optimizer.hpp"
#include "util/error.hpp"

#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

namespace sparsemap {

namespace {

std::string numberText(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::vector<std::string> split(const std::string& text, char sep)
{
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, sep))
        parts.push_back(part);
    if (!text.empty() && text.back() == sep)
        parts.emplace_back();
    return parts;
}

double parseNumber(const std::string& text, const std::string& where)
{
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size() || !std::isfinite(v))
        throw InputError(where + ": '" + text + "' is not a number");
    return v;
}

Workload sampleWorkload(const std::string& samplesDir, const std::string& name,
                        const std::vector<double>& densities)
{
    Workload w = loadWorkloadFile(samplesDir + "/workloads/" + name + ".yaml");
    std::size_t i = 0;
    for (auto& t : w.tensors) {
        if (t.isOutput)
            continue;
        if (i < densities.size()) {
            t.density.density = densities[i];
            // A drawn density replaces an n:m pattern (the pattern would override the density).
            t.density.structuredN = t.density.structuredM = 0;
        }
        ++i;
    }
    return w;
}

Architecture sampleArchitecture(const std::string& samplesDir, const std::string& name)
{
    return name == "toy" ? loadArchitectureFile(samplesDir + "/arch/toy.yaml") : loadPreset(name);
}

int inputCount(const Workload& w)
{
    int n = 0;
    for (const auto& t : w.tensors)
        n += t.isOutput ? 0 : 1;
    return n;
}

double signedErrorPct(double ours, double theirs)
{
    return theirs == 0 ? (ours == 0 ? 0 : 100) : 100 * (ours - theirs) / theirs;
}

} // namespace

std::vector<OracleCorpusEntry> drawOracleCorpus(const OracleCorpusSettings& settings,
                                                const std::function<void(const std::string&)>& progress)
{
    std::vector<OracleCorpusEntry> entries;
    std::mt19937_64 rng(settings.seed);
    std::uniform_real_distribution<double> unit(0, 1);
    int next = settings.firstId;
    for (const auto& workloadName : settings.workloads)
        for (const auto& archName : settings.architectures) {
            const Workload base = sampleWorkload(settings.samplesDir, workloadName, {});
            const Architecture arch = sampleArchitecture(settings.samplesDir, archName);
            int found = 0, tried = 0;
            while (found < settings.randomPerPair && tried < 40 * settings.randomPerPair) {
                ++tried;
                std::vector<double> densities;
                for (int i = 0; i < inputCount(base); ++i) {
                    const double d = unit(rng) < 0.125 ? 1.0 : std::pow(10.0, -2 * unit(rng));
                    densities.push_back(std::stod(
                        numberText(std::round(d * 1000) / 1000 < 0.01 ? 0.01 : std::round(d * 1000) / 1000)));
                }
                const GenomeLayout layout(sampleWorkload(settings.samplesDir, workloadName, densities), arch);
                model::GenomeEvaluator evaluator(layout);
                for (int attempt = 0; attempt < 200; ++attempt) {
                    Genome g = randomGenome(layout, rng); // in Sparseloop's space: its formats, meshes
                    orderFormatGenesForSparseloop(layout, g);
                    if (!search::spatialFanoutFits(layout, g) || !evaluator.evaluate(g).valid)
                        continue;
                    char id[16];
                    std::snprintf(id, sizeof id, "r%04d", next++);
                    entries.push_back({id, "random", workloadName, archName, densities, std::move(g)});
                    ++found;
                    break;
                }
            }
            if (settings.searchBudget > 0) {
                const GenomeLayout layout(base, arch);
                auto optimizer = search::makeOptimizer("sparsemap");
                search::SearchSettings s;
                s.budget = settings.searchBudget;
                s.seed = settings.seed + static_cast<std::uint64_t>(next);
                s.threads = 1;
                const auto run = search::runSearch(*optimizer, layout, s);
                if (const auto best = run.best()) {
                    char id[16];
                    std::snprintf(id, sizeof id, "s%04d", next++);
                    std::vector<double> densities;
                    for (const auto& t : base.tensors)
                        if (!t.isOutput)
                            densities.push_back(t.density.density);
                    entries.push_back({id, "searched", workloadName, archName, densities, best->genome});
                }
            }
            if (progress)
                progress(workloadName + " on " + archName + ": " + std::to_string(found) + " random designs");
        }
    return entries;
}

OracleDesign buildOracleDesign(const std::string& samplesDir, const OracleCorpusEntry& entry)
{
    OracleDesign d;
    d.workload = sampleWorkload(samplesDir, entry.workload, entry.densities);
    d.arch = sampleArchitecture(samplesDir, entry.arch);
    d.layout = std::make_unique<GenomeLayout>(d.workload, d.arch);
    model::GenomeEvaluator evaluator(*d.layout);
    d.result = evaluator.evaluate(entry.genome);
    d.design = evaluator.lastDesign();
    return d;
}

std::string oracleManifestText(const std::vector<OracleCorpusEntry>& entries)
{
    std::string out = "# id\tkind\tworkload\tarch\tdensities\tgenome\n";
    for (const auto& e : entries) {
        std::string densities;
        for (std::size_t i = 0; i < e.densities.size(); ++i)
            densities += (i ? ";" : "") + numberText(e.densities[i]);
        out += e.id + "\t" + e.kind + "\t" + e.workload + "\t" + e.arch + "\t" + densities + "\t" +
               genomeToText(e.genome) + "\n";
    }
    return out;
}

namespace {

OracleCorpusEntry parseEntry(const std::vector<std::string>& cols, const std::string& where)
{
    if (cols.size() < 6)
        throw InputError(where + ": expected id, kind, workload, arch, densities, genome (tab-separated)");
    OracleCorpusEntry e{cols[0], cols[1], cols[2], cols[3], {}, {}};
    if (!cols[4].empty())
        for (const auto& d : split(cols[4], ';'))
            e.densities.push_back(parseNumber(d, where + ": densities"));
    try {
        e.genome = parseGenomeText(cols[5]);
    } catch (const std::exception& ex) {
        throw InputError(where + ": genome: " + ex.what());
    }
    return e;
}

template <typename F> void forEachLine(const std::string& text, const std::string& fileName, F f)
{
    std::istringstream in(text);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (line.empty() || line[0] == '#')
            continue;
        f(split(line, '\t'), fileName + ":" + std::to_string(n));
    }
}

} // namespace

std::vector<OracleCorpusEntry> parseOracleManifest(const std::string& text, const std::string& fileName)
{
    std::vector<OracleCorpusEntry> entries;
    forEachLine(text, fileName, [&](const auto& cols, const std::string& where) {
        entries.push_back(parseEntry(cols, where));
    });
    return entries;
}

bool oracleGaveVerdict(const OracleFigures& figures)
{
    if (figures.accepted)
        return true;
    return figures.rejection.rfind("oracle timeout", 0) != 0 &&
           figures.rejection.find("Assertion") == std::string::npos;
}

bool oracleCountsWrapped(const OracleFigures& figures)
{
    constexpr double kWrapped = 9.2e18; // 2^63: no count of a real design comes near it
    if (!figures.accepted)
        return false;
    bool wrapped = figures.computeActual >= kWrapped || figures.computeGated >= kWrapped ||
                   figures.computeSkipped >= kWrapped;
    for (const auto& l : figures.levels)
        wrapped |=
            l.actual >= kWrapped || l.gated >= kWrapped || l.skipped >= kWrapped || l.metadata >= kWrapped;
    return wrapped;
}

OracleFigures oracleFiguresFromStats(const OracleCorpusEntry& entry, const SparseloopStats& stats)
{
    OracleFigures f;
    f.entry = entry;
    f.accepted = true;
    f.cycles = stats.cycles;
    f.energyPj = stats.levelEnergySumPj();
    f.computeActual = stats.compute.computes.actual;
    f.computeGated = stats.compute.computes.gated;
    f.computeSkipped = stats.compute.computes.skipped;
    const auto metadataSum = [](const SparseloopFormatCounts& c) {
        double sum = 0;
        for (const auto* list : {&c.actual, &c.gated, &c.skipped})
            for (const auto& r : *list)
                sum += r.metadata;
        return sum;
    };
    for (const auto& level : stats.levels)
        for (const auto& t : level.tensors) {
            OracleLevelFigures l;
            l.level = level.name;
            l.tensor = t.name;
            l.actual = t.reads.actual + t.fills.actual + t.updates.actual;
            l.gated = t.reads.gated + t.fills.gated + t.updates.gated;
            l.skipped = t.reads.skipped + t.fills.skipped + t.updates.skipped;
            l.metadata =
                metadataSum(t.formatReads) + metadataSum(t.formatFills) + metadataSum(t.formatUpdates);
            f.levels.push_back(l);
        }
    return f;
}

std::string oracleFiguresText(const std::vector<OracleFigures>& figures)
{
    std::string out = "# id\tkind\tworkload\tarch\tdensities\tgenome\tstatus\tcycles\tenergy_pJ\t"
                      "compute_actual\tcompute_gated\tcompute_skipped\tlevels (level/tensor:actual:gated:"
                      "skipped:metadata, per instance) or the rejection\n";
    for (const auto& f : figures) {
        std::string line = oracleManifestText({f.entry});
        line = line.substr(line.find('\n') + 1);
        line.pop_back();
        if (!f.accepted) {
            std::string message = f.rejection;
            for (auto& c : message)
                if (c == '\t' || c == '\n')
                    c = ' ';
            out += line + "\trejected\t\t\t\t\t\t" + message + "\n";
            continue;
        }
        std::string levels;
        for (const auto& l : f.levels)
            levels += (levels.empty() ? "" : "|") + l.level + "/" + l.tensor + ":" + numberText(l.actual) +
                      ":" + numberText(l.gated) + ":" + numberText(l.skipped) + ":" + numberText(l.metadata);
        out += line + "\tok\t" + numberText(f.cycles) + "\t" + numberText(f.energyPj) + "\t" +
               numberText(f.computeActual) + "\t" + numberText(f.computeGated) + "\t" +
               numberText(f.computeSkipped) + "\t" + levels + "\n";
    }
    return out;
}

std::vector<OracleFigures> parseOracleFigures(const std::string& text, const std::string& fileName)
{
    std::vector<OracleFigures> figures;
    forEachLine(text, fileName, [&](const auto& cols, const std::string& where) {
        if (cols.size() < 13)
            throw InputError(where + ": expected 13 tab-separated columns (see the header)");
        OracleFigures f;
        f.entry = parseEntry(cols, where);
        if (cols[6] == "rejected") {
            f.rejection = cols[12];
        } else if (cols[6] == "ok") {
            f.accepted = true;
            f.cycles = parseNumber(cols[7], where + ": cycles");
            f.energyPj = parseNumber(cols[8], where + ": energy");
            f.computeActual = parseNumber(cols[9], where + ": compute_actual");
            f.computeGated = parseNumber(cols[10], where + ": compute_gated");
            f.computeSkipped = parseNumber(cols[11], where + ": compute_skipped");
            for (const auto& item : split(cols[12], '|')) {
                const auto parts = split(item, ':');
                const auto slash = parts.empty() ? std::string::npos : parts[0].find('/');
                if (parts.size() != 5 || slash == std::string::npos)
                    throw InputError(where + ": level figures '" + item +
                                     "' are not level/tensor:actual:gated:skipped:metadata");
                f.levels.push_back({parts[0].substr(0, slash), parts[0].substr(slash + 1),
                                    parseNumber(parts[1], where), parseNumber(parts[2], where),
                                    parseNumber(parts[3], where), parseNumber(parts[4], where)});
            }
        } else {
            throw InputError(where + ": status must be ok or rejected, not '" + cols[6] + "'");
        }
        figures.push_back(std::move(f));
    });
    return figures;
}

OracleComparison compareWithOracle(const std::string& samplesDir, const OracleFigures& figures,
                                   const std::string& scratchDir)
{
    OracleComparison c;
    c.id = figures.entry.id;
    const OracleDesign d = buildOracleDesign(samplesDir, figures.entry);
    c.oursValid = d.result.valid;
    c.oursReason = d.result.reason;
    if (!d.result.valid)
        return c;
    exportSparseloopCase(d.layout->workload(), d.arch, d.design, scratchDir);
    const SparseloopCase sc = importSparseloopCase(scratchDir);
    model::Evaluator evaluator(sc.workload, sc.architecture, model::sparseloopModelOptions(sc));
    const auto& r = evaluator.evaluate(model::sparseloopDesign(sc));
    c.sparseloopModeValid = r.valid;
    c.sparseloopModeReason = r.reason;
    if (figures.accepted) {
        c.genomeCyclesErrorPct = signedErrorPct(d.result.cycles, figures.cycles);
        c.genomeEnergyErrorPct = signedErrorPct(d.result.energyPj, figures.energyPj);
        if (r.valid) {
            c.cyclesErrorPct = signedErrorPct(r.cycles, figures.cycles);
            c.energyErrorPct = signedErrorPct(r.energyPj, figures.energyPj);
        }
    }
    return c;
}

} // namespace sparsemap
