#include "analysis/sparseloop_validation.hpp"

#include "analysis/rank_correlation.hpp"
#include "util/file_io.hpp"
#include "io/sparseloop/sparseloop_import.hpp"
#include "io/sparseloop/sparseloop_stats.hpp"
#include "model/evaluator.hpp"
#include "io/sparseloop/sparseloop_options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <sstream>

namespace sparsemap::model {

namespace {

namespace fs = std::filesystem;

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<std::string> splitTabs(const std::string& line)
{
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
        fields.push_back(line.substr(start, tab - start));
    fields.push_back(line.substr(start));
    return fields;
}

bool parsePositive(const std::string& text, double& out)
{
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc{} && ptr == end && std::isfinite(out) && out > 0;
}

// Our evaluation of one imported case into `row` (ours only; the caller fills the reference).
void evaluateInto(const std::string& dir, SparseloopValidationRow& row)
{
    try {
        const SparseloopCase c = importSparseloopCase(dir);
        Evaluator evaluator(c.workload, c.architecture, sparseloopModelOptions(c));
        const auto& r = evaluator.evaluate(sparseloopDesign(c));
        if (!r.valid) {
            row.outcome = SparseloopOutcome::WeReject;
            row.message = r.reason;
            return;
        }
        row.cycles = r.cycles;
        row.energyPj = r.energyPj;
    } catch (const InputError& e) {
        row.outcome = SparseloopOutcome::ImportError;
        row.message = e.what();
    }
}

} // namespace

std::vector<SparseloopExpected> parseSparseloopExpected(const std::string& path)
{
    std::istringstream in(readTextFile(path));
    std::vector<SparseloopExpected> out;
    std::vector<Diagnostic> problems;
    const auto problem = [&](int line, const std::string& message) {
        problems.push_back(Diagnostic{path, line, 0, {}, message});
    };
    int lineNo = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (lineNo == 1 || line.empty())
            continue; // the header
        const auto f = splitTabs(line);
        if (f.size() < 3) {
            problem(lineNo, "expected tab-separated case, reference cycles, reference energy pJ[, text]");
            continue;
        }
        SparseloopExpected e;
        e.caseName = f[0];
        e.exercises = f.size() > 3 ? f[3] : std::string{};
        if (f[1] == "-" && f[2] == "-") {
            e.rejected = true;
        } else if (!parsePositive(f[1], e.cycles) || !parsePositive(f[2], e.energyPj)) {
            problem(lineNo, "cycles `" + f[1] + "` and energy `" + f[2] +
                                "` must both be positive numbers, or both `-` (Sparseloop rejects the case)");
            continue;
        }
        if (e.caseName.empty() || std::any_of(out.begin(), out.end(), [&](const SparseloopExpected& o) {
                return o.caseName == e.caseName;
            })) {
            problem(lineNo, "case `" + e.caseName + "` is empty or listed twice");
            continue;
        }
        out.push_back(std::move(e));
    }
    if (!problems.empty())
        throw InputError(problems);
    if (out.empty())
        throw InputError(path + ": no case listed");
    return out;
}

SparseloopValidation validateSparseloopCorpus(const std::string& root)
{
    std::error_code ec;
    if (!fs::is_directory(root, ec))
        throw InputError("reference folder " + root + " does not exist");
    SparseloopValidation v;
    const fs::path expectedPath = fs::path(root) / "EXPECTED.tsv";
    if (fs::exists(expectedPath, ec)) {
        v.figuresFrom = "EXPECTED.tsv";
        auto expected = parseSparseloopExpected(expectedPath.string());
        std::sort(expected.begin(), expected.end(),
                  [](const auto& a, const auto& b) { return a.caseName < b.caseName; });
        for (const auto& e : expected) {
            const fs::path dir = fs::path(root) / e.caseName;
            if (!fs::is_directory(dir, ec))
                throw InputError(expectedPath.string() + ": case `" + e.caseName + "` has no folder " +
                                 dir.string());
            SparseloopValidationRow row;
            row.caseName = e.caseName;
            evaluateInto(dir.string(), row);
            row.refCycles = e.cycles;
            row.refEnergyPj = e.energyPj;
            if (e.rejected && row.outcome == SparseloopOutcome::WeReject)
                row.outcome = SparseloopOutcome::BothReject;
            else if (e.rejected && row.outcome == SparseloopOutcome::Compared)
                row.outcome = SparseloopOutcome::WeAccept;
            v.rows.push_back(std::move(row));
        }
    } else {
        v.figuresFrom = "timeloop-model.stats.txt";
        std::vector<fs::path> dirs;
        for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_regular_file(ec) && it->path().filename() == "timeloop-model.stats.txt")
                dirs.push_back(it->path().parent_path());
        std::sort(dirs.begin(), dirs.end());
        if (dirs.empty())
            throw InputError("no EXPECTED.tsv in " + root + " and no timeloop-model.stats.txt below it");
        for (const auto& dir : dirs) {
            SparseloopValidationRow row;
            row.caseName = fs::relative(dir, root, ec).generic_string();
            evaluateInto(dir.string(), row);
            try {
                const SparseloopStats ref = parseSparseloopStats((dir / "timeloop-model.stats.txt").string());
                row.refCycles = ref.cycles;
                // The per-level sum is Sparseloop's energy to the printed pJ (the summary rounds to 10 kpJ).
                row.refEnergyPj = ref.levelEnergySumPj();
                if (!(row.refEnergyPj > 0) || !std::isfinite(row.refEnergyPj)) {
                    // A relative error against 0 or a non-finite reference would print inf% or nan%.
                    row.outcome = SparseloopOutcome::ImportError;
                    row.message = (dir / "timeloop-model.stats.txt").string() +
                                  ": the levels' energies sum to " + std::to_string(row.refEnergyPj) +
                                  " pJ; a reference needs a positive, finite energy";
                }
            } catch (const InputError& e) {
                row.outcome = SparseloopOutcome::ImportError;
                row.message = e.what();
            }
            v.rows.push_back(std::move(row));
        }
    }

    std::vector<double> ce, ee, ours, refs, oursE, refsE;
    for (auto& row : v.rows) {
        switch (row.outcome) {
        case SparseloopOutcome::Compared:
            row.cycleError = (row.cycles - row.refCycles) / row.refCycles;
            row.energyError = (row.energyPj - row.refEnergyPj) / row.refEnergyPj;
            ce.push_back(std::abs(row.cycleError));
            ee.push_back(std::abs(row.energyError));
            ours.push_back(row.cycles);
            refs.push_back(row.refCycles);
            oursE.push_back(row.energyPj);
            refsE.push_back(row.refEnergyPj);
            ++v.compared;
            break;
        case SparseloopOutcome::BothReject:
            ++v.bothReject;
            break;
        default:
            ++v.disagreements;
        }
    }
    const auto maxOf = [](const std::vector<double>& x) {
        return x.empty() ? 0.0 : *std::max_element(x.begin(), x.end());
    };
    v.medianCycleError = median(ce);
    v.maxCycleError = maxOf(ce);
    v.medianEnergyError = median(ee);
    v.maxEnergyError = maxOf(ee);
    v.cycleSpearman = ours.size() > 1 ? analysis::spearman(ours, refs) : 0;
    v.energySpearman = oursE.size() > 1 ? analysis::spearman(oursE, refsE) : 0;
    return v;
}

} // namespace sparsemap::model
