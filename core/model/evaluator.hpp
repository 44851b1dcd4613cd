#pragma once
// The analytical model's facade: evaluates designs (mapping + sparse strategy) of one workload on
// one architecture in Sparseloop's three decoupled steps — dataflow (dense traffic), sparse
// modelling (formats, gating/skipping), micro-architecture (validity, energy, cycles).
//
// An Evaluator owns its scratch buffers and its last result, so evaluating a design allocates
// nothing in steady state; use one Evaluator per thread (they are cheap to copy).
#include "arch/architecture.hpp"
#include "design/design.hpp"
#include "model/dataflow/dense_traffic.hpp"
#include "model/evaluation_result.hpp"
#include "model/microarch/energy_costs.hpp"
#include "workload/workload.hpp"

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace sparsemap::model {

class DensityModel;
struct SparseScratch;

// Format sequences Sparseloop cannot evaluate (a compressed rank above an uncompressed one, see
// representableInSparseloop): the design is dead (invalid, with a reason naming tensor, level and ranks),
// it is evaluated as the nearest representable format (the genome path rewrites the decoded design),
// or it is evaluated as given (beyond Sparseloop; labelled wherever it shows).
enum class FormatSpace { SparseloopDead, SparseloopNearest, Unrestricted };
std::string_view formatSpaceName(FormatSpace space); // "dead", "nearest", "unrestricted"
std::optional<FormatSpace> parseFormatSpace(std::string_view name);

struct ModelOptions;
// What the options make the model do beyond Sparseloop ("" = nothing): shown with every result.
std::string beyondSparseloopText(const ModelOptions& options);

struct ModelOptions {
    // What to do with formats Sparseloop cannot represent (see FormatSpace).
    FormatSpace formatSpace = FormatSpace::SparseloopDead;
    // Capacity is checked at this quantile of each tile's occupancy; 1.0 = worst case (Sparseloop's
    // rule, the default). Below 1 is beyond Sparseloop and every result says so.
    double occupancyConfidence = 1.0;
    // Per-dim sizes the mapping tiles (the genome's padded sizes); empty = the workload's sizes.
    std::vector<std::int64_t> paddedSizes;
    // Rank-binding order for formats declared without loops (imported from Sparseloop):
    // true = rank 0 takes the innermost loop first (Sparseloop's inner-to-outer).
    bool bindRanksInnerToOuter = true;
    // A skip whose leaders all lack metadata cannot find the next nonzero: the SparseMap genome
    // declares such a design dead (true); Sparseloop checks no metadata and skips wherever the leader
    // tile is empty, as a gate would (false).
    bool skipNeedsLeaderMetadata = true;
    // Per storage level, the metadata storage width Sparseloop widens format word bits against (see
    // sparseloopFormatWordBits); empty = each level's metadataWordBits (what the export writes).
    std::vector<int> metadataStorageWidthBits;
};

class Evaluator {
public:
    // Throws InputError when an actual-data density file cannot be read.
    Evaluator(Workload workload, Architecture arch, ModelOptions options = {});
    Evaluator(const Evaluator& other);
    Evaluator& operator=(const Evaluator&) = delete;
    ~Evaluator();

    const Workload& workload() const { return m_workload; }
    const Architecture& architecture() const { return m_arch; }
    const ModelOptions& options() const { return m_options; }

    // Never throws for a structurally complete design: problems make the result invalid with a reason.
    const EvaluationResult& evaluate(const Design& design);
    // The pre-evaluation capacity check (model::dataFitsCapacity) of a design: false means evaluate()
    // reports it invalid. A mapper may rule such designs out without evaluating them.
    bool dataFitsCapacity(const Design& design);
    // A pre-evaluation check of a design's Skips: false when some Skip has no leader with metadata where
    // it reads them (leaderHasMetadata on the formats as evaluate() scores them), so that evaluate()
    // reports the design malformed (EvaluationResult::malformed), this or an earlier problem. Needs no
    // dataflow; true when it cannot tell (a mapping whose keep lists do not cover the levels and tensors).
    bool skipsHaveLeaderMetadata(const Design& design) const;

private:
    bool checkStructure(const Design& design);
    // Whether evaluate() scores the design's formats as Sparseloop binds them from our export (formats
    // bound to the genome's loops, in a Sparseloop format space) rather than as the genome binds them.
    bool scoredAsSparseloopBinds(const Design& design) const;
    void fillDenseResult();
    void finishCosts();
    // Names in m_result.sparseloopArtefact the tiles flagged sparseloopSeesNoOccupancy.
    void noteSparseloopArtefacts();
    void invalidate(std::string reason);

    Workload m_workload; // with padded dims
    Architecture m_arch;
    ModelOptions m_options;
    ModelOptions m_declaredOptions; // for formats scored as Sparseloop binds them (outer to inner)
    std::vector<std::shared_ptr<const DensityModel>> m_density; // per tensor
    std::vector<LevelEnergyCosts> m_levelCosts;
    ComputeEnergyCosts m_computeCosts;
    DenseTraffic m_dense;
    DataflowScratch m_scratch;
    Design m_laidOut; // mapping and sites of a design whose spatial loops Timeloop's split reorders
    std::vector<std::vector<TensorFormat>> m_sparseloopFormats; // a genome's formats as Sparseloop reads them
    std::unique_ptr<SparseScratch> m_sparse;
    std::string m_beyondSparseloop; // beyondSparseloopText(m_options)
    EvaluationResult m_result;
};

} // namespace sparsemap::model
