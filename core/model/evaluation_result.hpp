#pragma once
// What the model says about one design: valid or not (and why), cycles, energy, EDP, utilization,
// and the per-level, per-tensor breakdown of accesses (data and metadata, actual / gated / skipped)
// and energy. Counts are per instance of the level unless a name says total.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sparsemap::model {

struct ActionSplit {
    double actual = 0;
    double gated = 0;
    double skipped = 0;
    double total() const { return actual + gated + skipped; }
};

struct TensorLevelResult {
    bool kept = false;
    bool streamed = false;
    bool compressed = false; // has a format with metadata at this level
    double tile = 0;         // coordinates of the tile (dense)
    double partition = 0;
    double expectedDensity = 1; // of the tile, as used to scale accesses
    // Block-wide data accesses charged per ceil(words / block), times this correction: a compressed
    // tile's nonzeros rarely fill whole blocks (Sparseloop's vector-access ratio; 1 = none).
    double vectorRatio = 1;
    double maxDataWords = 0; // capacity the tile needs at the occupancy confidence
    double maxMetadataBits = 0;
    ActionSplit reads, fills, updates;                         // data words, per instance
    ActionSplit metadataReads, metadataFills, metadataUpdates; // metadata bits, per instance
    double algorithmicReads = 0, algorithmicFills = 0, algorithmicUpdates = 0;
    double instances = 0; // instances that hold this tensor (average, after spatial skipping)
    double energyPj = 0;  // total over instances
    // Sparseloop's minimum occupancy of this near-dense tile wraps around 2^64 and comes out above
    // its maximum: Sparseloop sees no occupancy, so the tile holds nothing and is never accessed.
    // Reproduced (our numbers are Sparseloop's), and flagged: hardware would not behave so.
    bool sparseloopSeesNoOccupancy = false;
};

struct LevelResult {
    std::string name;
    double instances = 0;    // used (average)
    double maxInstances = 0; // used at most (X expansion x Y expansion)
    double cycles = 0;
    double throttling = 1;                                // bandwidth slowdown factor (1 = not throttled)
    double readWordsPerCycle = 0, writeWordsPerCycle = 0; // per instance, demand before throttling
    double dataWordsUsed = 0;    // capacity used per instance at the confidence, data words
    double metadataBitsUsed = 0; // metadata bits per instance
    double energyPj = 0;
    std::vector<TensorLevelResult> tensors;
};

struct ComputeResult {
    double algorithmic = 0;
    double actual = 0;
    double gated = 0;
    double skipped = 0;
    double instances = 0; // MACs used on average
    double maxInstances = 0;
    double cycles = 0;
    double energyPj = 0;
};

struct EvaluationResult {
    bool valid = false;
    std::string reason; // why the design is invalid; empty when valid
    // Invalid before any cost: the design's mapping, formats or S/G actions cannot be built (the
    // structure check, formats bound to tiles, safStructureProblem), as opposed to a design the model
    // scores and finds over a buffer's capacity or the fan-out. A search may rule such designs out as it
    // rules out genomes by the pre-evaluation capacity check (SearchContext::evaluateFitting).
    bool malformed = false;
    // Invalid for capacity alone: the design is built and fits the fan-out, but some level's tiles (data
    // and metadata at the occupancy confidence) overflow it (capacityProblem). Found after the sparse
    // analysis, before any cost. A search may rule such designs out as it rules out malformed ones.
    bool overflows = false;
    double cycles = 0;
    double energyPj = 0;
    double edp = 0;                  // cycles x pJ
    double utilization = 0;          // actual computes / (cycles x MACs)
    std::vector<LevelResult> levels; // index = storage level (0 = outermost)
    ComputeResult compute;
    // Beyond Sparseloop, when set: what the model did that Sparseloop would not (capacity at an
    // occupancy quantile below 1, formats Sparseloop cannot represent evaluated as given or as the
    // nearest representable one). Empty = Sparseloop's rules. Every display of a result shows it.
    std::string beyondSparseloop;
    // Where Sparseloop's own arithmetic, reproduced, makes the design look better than hardware would
    // (TensorLevelResult::sparseloopSeesNoOccupancy): which tensors at which levels. Empty = none.
    // Every display of a result shows it.
    std::string sparseloopArtefact;
};

enum class Objective { Edp, Energy, Delay };
// The objective's value (lower is better); +infinity for an invalid design.
double objectiveValue(const EvaluationResult& result, Objective objective);
// "edp", "energy", "delay": the names files and the command line use.
std::string objectiveName(Objective objective);
std::optional<Objective> parseObjective(std::string_view name);

} // namespace sparsemap::model
