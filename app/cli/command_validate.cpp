// sparsemap validate <reference-root>: evaluate every Sparseloop case below a folder with our model and
// compare cycles and energy with Sparseloop's own (the root's EXPECTED.tsv, or each case's
// timeloop-model.stats.txt); model::validateSparseloopCorpus does the work.
#include "cli_common.hpp"
#include "commands.hpp"

#include "analysis/sparseloop_validation.hpp"

#include <cstdio>

namespace sparsemap::cli {

int runValidate(const QStringList& args)
{
    return runGuarded("validate", [&] {
        QCommandLineParser parser;
        if (!parseCommandLine(
                parser, args,
                "Evaluate every Sparseloop case below a folder and compare cycles and energy with "
                "Sparseloop's: the folder's EXPECTED.tsv (case, cycles, energy pJ, or - where Sparseloop "
                "rejects the design) when it has one, else each case's timeloop-model.stats.txt. Prints "
                "one line per case and a summary; exits 0 whether or not the model meets its accuracy "
                "targets.",
                {{"reference-root", "Folder to search, e.g. ../shared/reference/sparseloop or "
                                    "../shared/reference/sparseloop-exercises."}},
                1))
            return int(kOk);
        const auto v = model::validateSparseloopCorpus(str(parser.positionalArguments()[0]));
        std::printf("%-72s %12s %12s %8s %14s %14s %8s\n", "case", "cycles", "sparseloop", "error",
                    "energy pJ", "sparseloop", "error");
        for (const auto& row : v.rows) {
            const char* name = row.caseName.c_str();
            switch (row.outcome) {
            case model::SparseloopOutcome::Compared:
                std::printf("%-72s %12.0f %12.0f %+8.3f%% %14.6g %14.6g %+8.3f%%\n", name, row.cycles,
                            row.refCycles, 100 * row.cycleError, row.energyPj, row.refEnergyPj,
                            100 * row.energyError);
                break;
            case model::SparseloopOutcome::BothReject:
                std::printf("%-72s rejected, as by Sparseloop: %s\n", name, row.message.c_str());
                break;
            case model::SparseloopOutcome::WeReject:
                std::printf("%-72s invalid (Sparseloop: %.0f cycles): %s\n", name, row.refCycles,
                            row.message.c_str());
                break;
            case model::SparseloopOutcome::WeAccept:
                std::printf("%-72s %12.0f %12s %8s %14.6g %14s   Sparseloop rejects it, we do not\n", name,
                            row.cycles, "-", "", row.energyPj, "-");
                break;
            case model::SparseloopOutcome::ImportError:
                std::printf("%-72s error: %s\n", name, row.message.c_str());
                break;
            }
        }
        std::printf("\n%d cases (figures from %s), %d evaluated, %d rejected by both, %d failed or "
                    "disagreeing on validity\n",
                    static_cast<int>(v.rows.size()), v.figuresFrom.c_str(), v.compared, v.bothReject,
                    v.disagreements);
        std::printf("summary: cycles median |error| %.3f%% max %.3f%% Spearman %.4f; energy median |error| "
                    "%.3f%% max %.3f%% Spearman %.4f\n",
                    100 * v.medianCycleError, 100 * v.maxCycleError, v.cycleSpearman,
                    100 * v.medianEnergyError, 100 * v.maxEnergyError, v.energySpearman);
        return int(kOk);
    });
}

} // namespace sparsemap::cli
