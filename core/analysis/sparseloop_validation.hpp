#pragma once
// Our model against Sparseloop on a corpus of Sparseloop cases: every folder below a root that holds a
// case (aggregated_input.yaml and ERT.yaml) and Sparseloop's figures for it. The figures come from the
// root's EXPECTED.tsv when there is one (case, cycles, energy in pJ at full precision, or `-` where
// Sparseloop rejects the design; e.g. ../shared/reference/sparseloop-exercises), otherwise from each
// folder's timeloop-model.stats.txt (../shared/reference/sparseloop). Used by `sparsemap validate` and
// the reference tests, so that both judge the same numbers the same way.
#include <string>
#include <vector>

namespace sparsemap::model {

// One line of EXPECTED.tsv.
struct SparseloopExpected {
    std::string caseName;  // the folder, relative to the corpus root
    bool rejected = false; // `-`: Sparseloop refuses the design
    double cycles = 0;     // Sparseloop's cycles
    double energyPj = 0;   // Sparseloop's energy in pJ
    std::string exercises; // what the case exercises (free text)
};

// Reads EXPECTED.tsv: a header line, then tab-separated case, cycles, energy pJ, text. InputError
// (file:line) for a malformed line or a repeated case.
std::vector<SparseloopExpected> parseSparseloopExpected(const std::string& path);

enum class SparseloopOutcome {
    Compared,    // both evaluated it: errors below are meaningful
    BothReject,  // Sparseloop and our model both reject it (our reason in `message`)
    WeReject,    // Sparseloop evaluates it, our model says invalid
    WeAccept,    // Sparseloop rejects it, our model evaluates it
    ImportError, // the import refused the input (diagnostics in `message`)
};

struct SparseloopValidationRow {
    std::string caseName;
    SparseloopOutcome outcome = SparseloopOutcome::Compared;
    std::string message;                    // import error or our model's reason for rejecting
    double cycles = 0, energyPj = 0;        // ours
    double refCycles = 0, refEnergyPj = 0;  // Sparseloop's (0 when it rejects)
    double cycleError = 0, energyError = 0; // relative, signed: (ours - ref) / ref
};

struct SparseloopValidation {
    std::string figuresFrom; // "EXPECTED.tsv" or "timeloop-model.stats.txt"
    std::vector<SparseloopValidationRow> rows;
    // Over the Compared rows: |relative error|.
    double medianCycleError = 0, maxCycleError = 0, medianEnergyError = 0, maxEnergyError = 0;
    double cycleSpearman = 0, energySpearman = 0;
    int compared = 0, bothReject = 0, disagreements = 0; // disagreements: WeReject + WeAccept + ImportError
};

// Evaluates every case below `root` (cases sorted by folder). InputError when the root is not a
// folder, holds no case, or EXPECTED.tsv names a folder that does not exist.
SparseloopValidation validateSparseloopCorpus(const std::string& root);

} // namespace sparsemap::model
