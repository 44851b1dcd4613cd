#pragma once
// The oracle corpus: designs drawn to be checked against Sparseloop (issue 12, docs/oracle.md).
// Each entry says how to rebuild its design exactly (sample workload, architecture, the input densities
// it was drawn with, genome); `drawOracleCorpus` draws random valid genomes and searched best designs
// over workloads x architectures; `buildOracleDesign` rebuilds one; the figures Sparseloop printed for
// it are kept beside (OracleFigures) and `compareWithOracle` sets our model against them.
#include "arch/architecture.hpp"
#include "design/design.hpp"
#include "genome/genome_layout.hpp"
#include "io/sparseloop/sparseloop_stats.hpp"
#include "model/evaluation_result.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sparsemap {

struct OracleCorpusEntry {
    std::string id;                // unique, e.g. "r0042"
    std::string kind;              // "random" or "searched"
    std::string workload;          // sample name: <samples>/workloads/<name>.yaml
    std::string arch;              // preset name, or "toy" for <samples>/arch/toy.yaml
    std::vector<double> densities; // of the workload's input tensors, in tensor order
    Genome genome;
};

struct OracleCorpusSettings {
    std::string samplesDir;                 // the repository's samples/
    std::vector<std::string> workloads;     // sample names
    std::vector<std::string> architectures; // presets and "toy"
    int randomPerPair = 12;                 // random valid genomes per workload x architecture
    std::int64_t searchBudget = 2000;       // per searched design (one per pair); 0 = none
    std::uint64_t seed = 1;
    int firstId = 0; // ids are r<NNNN> / s<NNNN> numbered from here (a second corpus joins the first)
};

// Draws the corpus (deterministic for a seed). Random entries draw each input density log-uniformly
// in [0.01, 1] (1 exactly one time in eight) and keep genomes the model finds valid under default
// options. `progress` gets a line per pair.
std::vector<OracleCorpusEntry> drawOracleCorpus(const OracleCorpusSettings& settings,
                                                const std::function<void(const std::string&)>& progress = {});

// One entry rebuilt: the workload with its densities, the architecture, the layout, the decoded design
// (on the layout's padded workload) and the model's result with default options.
struct OracleDesign {
    Workload workload;
    Architecture arch;
    std::unique_ptr<GenomeLayout> layout;
    Design design;
    model::EvaluationResult result;
};
OracleDesign buildOracleDesign(const std::string& samplesDir, const OracleCorpusEntry& entry);

// manifest.tsv: id, kind, workload, arch, densities ("0.1;1"), genome ("1,0,3,..."); # comments.
std::string oracleManifestText(const std::vector<OracleCorpusEntry>& entries);
std::vector<OracleCorpusEntry> parseOracleManifest(const std::string& text, const std::string& fileName);

// What Sparseloop said about one exported design: accepted with its figures, or rejected with its
// message. Per level (outer to inner) and tensor: actual / gated / skipped reads, fills and updates
// summed, and metadata (format) accesses summed over ranks.
struct OracleLevelFigures {
    std::string level, tensor;
    double actual = 0, gated = 0, skipped = 0, metadata = 0;
};
struct OracleFigures {
    OracleCorpusEntry entry;
    bool accepted = false;
    std::string rejection; // Sparseloop's message when rejected
    double cycles = 0, energyPj = 0;
    double computeActual = 0, computeGated = 0, computeSkipped = 0;
    std::vector<OracleLevelFigures> levels;
};
OracleFigures oracleFiguresFromStats(const OracleCorpusEntry& entry, const SparseloopStats& stats);
// Whether the oracle judged the design: accepted it, or rejected it with a reason. A run out of
// time or an assertion failing inside Sparseloop is no verdict.
bool oracleGaveVerdict(const OracleFigures& figures);
// Whether one of the oracle's counts wrapped around: Sparseloop keeps access counts in unsigned
// 64-bit integers, and where its own arithmetic goes below zero (e.g. gated reads = expected -
// actual with actual the larger) it prints ~1.8e19 and an energy to match. Such a record still
// holds the oracle's verdict (it accepted the design) but no figures to compare with.
bool oracleCountsWrapped(const OracleFigures& figures);
// figures.tsv: the manifest columns, then status (ok | rejected), cycles, energy pJ, compute
// actual/gated/skipped, and the per-level figures "level/tensor:actual:gated:skipped:metadata|..."
// (status rejected: the message instead of the figures).
std::string oracleFiguresText(const std::vector<OracleFigures>& figures);
std::vector<OracleFigures> parseOracleFigures(const std::string& text, const std::string& fileName);

// Our model against one oracle record: the exported case imported back and evaluated as Sparseloop
// reads it ("sparseloop": the figures the oracle must match) and the genome model ("genome").
struct OracleComparison {
    std::string id;
    bool oursValid = false; // the genome model's verdict
    std::string oursReason;
    bool sparseloopModeValid = false;
    std::string sparseloopModeReason;
    double cyclesErrorPct = 0, energyErrorPct = 0;             // sparseloop-mode vs oracle (signed)
    double genomeCyclesErrorPct = 0, genomeEnergyErrorPct = 0; // genome model vs oracle (signed)
};
// `scratchDir` receives the exported case (overwritten).
OracleComparison compareWithOracle(const std::string& samplesDir, const OracleFigures& figures,
                                   const std::string& scratchDir);

} // namespace sparsemap
