// sparsemap validate <reference-root>: evaluate every Sparseloop reference case with our model and
// compare cycles and energy with Sparseloop's own (timeloop-model.stats.txt).
#include "cli_common.hpp"
#include "commands.hpp"

#include "analysis/rank_correlation.hpp"
#include "io/sparseloop/sparseloop_import.hpp"
#include "io/sparseloop/sparseloop_stats.hpp"
#include "model/evaluator.hpp"
#include "model/sparseloop_options.hpp"

#include <QDir>
#include <QDirIterator>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace sparsemap::cli {

namespace {

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace

int runValidate(const QStringList& args)
{
    return runGuarded("validate", [&] {
        QCommandLineParser parser;
        if (!parseCommandLine(
                parser, args,
                "Evaluate every Sparseloop reference case below a folder (each folder holding "
                "aggregated_input.yaml, map.yaml, ERT.yaml and timeloop-model.stats.txt) and compare "
                "cycles and energy with Sparseloop's. Prints one line per case and a summary; exits 0 "
                "whether or not the model meets its accuracy targets.",
                {{"reference-root", "Folder to search, e.g. ../shared/reference/sparseloop."}}, 1))
            return int(kOk);
        const QString root = parser.positionalArguments()[0];
        if (!QDir(root).exists())
            throw InputError("reference folder " + str(root) + " does not exist");
        QStringList cases;
        QDirIterator it(root, {"timeloop-model.stats.txt"}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            cases << QFileInfo(it.next()).absolutePath();
        cases.sort();
        if (cases.isEmpty())
            throw InputError("no timeloop-model.stats.txt below " + str(root));

        std::vector<double> cycleErrors, energyErrors, ourCycles, refCycles, ourEnergy, refEnergy;
        int failed = 0;
        std::printf("%-72s %12s %12s %8s %14s %14s %8s\n", "case", "cycles", "sparseloop", "error",
                    "energy pJ", "sparseloop", "error");
        for (const QString& dir : cases) {
            const std::string name = str(QDir(root).relativeFilePath(dir));
            try {
                const SparseloopCase c = importSparseloopCase(str(dir));
                const SparseloopStats ref = parseSparseloopStats(str(dir) + "/timeloop-model.stats.txt");
                model::Evaluator evaluator(c.workload, c.architecture, model::sparseloopModelOptions(c));
                const auto& r = evaluator.evaluate(model::sparseloopDesign(c));
                if (!r.valid) {
                    std::printf("%-72s invalid: %s\n", name.c_str(), r.reason.c_str());
                    ++failed;
                    continue;
                }
                const double ce = (r.cycles - ref.cycles) / ref.cycles;
                // The per-level sum is Sparseloop's energy to the printed pJ (the summary rounds to 10 kpJ).
                const double refPj = ref.levelEnergySumPj();
                const double ee = (r.energyPj - refPj) / refPj;
                std::printf("%-72s %12.0f %12.0f %+8.3f%% %14.6g %14.6g %+8.3f%%\n", name.c_str(), r.cycles,
                            ref.cycles, 100 * ce, r.energyPj, refPj, 100 * ee);
                cycleErrors.push_back(std::abs(ce));
                energyErrors.push_back(std::abs(ee));
                ourCycles.push_back(r.cycles);
                refCycles.push_back(ref.cycles);
                ourEnergy.push_back(r.energyPj);
                refEnergy.push_back(refPj);
            } catch (const InputError& e) {
                std::printf("%-72s error: %s\n", name.c_str(), e.what());
                ++failed;
            }
        }
        const auto maxOf = [](const std::vector<double>& v) {
            return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
        };
        std::printf("\n%d cases, %zu evaluated, %d failed or invalid\n", static_cast<int>(cases.size()),
                    cycleErrors.size(), failed);
        std::printf("summary: cycles median |error| %.3f%% max %.3f%% Spearman %.4f; energy median |error| "
                    "%.3f%% max %.3f%% Spearman %.4f\n",
                    100 * median(cycleErrors), 100 * maxOf(cycleErrors),
                    analysis::spearman(ourCycles, refCycles), 100 * median(energyErrors),
                    100 * maxOf(energyErrors), analysis::spearman(ourEnergy, refEnergy));
        return int(kOk);
    });
}

} // namespace sparsemap::cli
