#pragma once
// Gating and skipping (docs/model-notes-sparse.md §4): leader/follower tiles from the mapping's
// reuse (paper Fig. 10), the share of accesses each SAF eliminates, its local effect (actual ->
// gated/skipped), its propagation to lower levels and to compute, spatial skipping (fewer
// instances) and position skipping (a tensor's own zeros compacted into spatial lanes).
#include "model/evaluation_result.hpp"
#include "model/sparse/sparse_context.hpp"

#include <string>

namespace sparsemap::model {

// What the storage SAFs leave for the compute step.
struct ComputeSafEffects {
    double availableComputes = 0;               // algorithmic computes that still exist
    std::vector<bool> operandSkipped;           // per tensor: a storage SAF on it reaches compute
    std::vector<double> operandSkipProbability; // per tensor, rounded to 6 decimals
    // Per tensor: an input some storage gate/skip targets, whatever its probability (Sparseloop's
    // storage_gs_saf_, which picks the k-operand compute rule; operandSkipped needs a nonzero one).
    std::vector<bool> operandTargeted;
    std::vector<bool> positionSkipped; // per tensor
    double instanceShare = 1;          // average MACs used / MACs the mapping spans
    int spatialSkipLevel = -1;         // storage level whose fan-out spatial skipping compacts
    double expansionScale = 1;         // required fan-out below it / the mapping's fan-out
};

// Whether action `a` is a Skip that can only jump over the zeros of leaders whose metadata says where
// they are (ModelOptions::skipNeedsLeaderMetadata; Sparseloop itself checks no metadata for a temporal
// skip: it skips with the leader tile's emptiness as a gate would, so a case read from its files keeps
// every leader).
bool skipNeedsLeaderMetadata(const ModelOptions& options, const SgAction& a);

// Whether leader `cnd` has metadata where a Skip at storage level `s` reads it: the nearest level at or
// above `s` that keeps it, or the nearest one below, keeps it with a format. `kept(l, t)` and
// `withFormat(l, t)` (level l, keeping t, holds it with metadata) describe the design: the one rule of the
// sparse analysis (safStructureProblem) and of the search's pre-check (Evaluator::skipsHaveLeaderMetadata).
template <class Kept, class WithFormat>
bool leaderHasMetadata(int levelCount, int s, int cnd, Kept&& kept, WithFormat&& withFormat)
{
    for (int l = s; l >= 0; --l)
        if (kept(l, cnd)) {
            if (withFormat(l, cnd))
                return true;
            break;
        }
    for (int l = s + 1; l < levelCount; ++l)
        if (kept(l, cnd))
            return withFormat(l, cnd);
    return false;
}

// Why the design's S/G actions cannot be built, or "": an action on an unknown tensor or on one no level
// at or above its site keeps, or a Skip none of whose leaders has metadata where it reads them (with
// ModelOptions::skipNeedsLeaderMetadata). Needs the formats bound (hasFormat) and nothing the costs
// compute: the sparse analysis asks it before any occupancy.
std::string safStructureProblem(const SparseContext& context, SparseScratch& scratch);

// Applies every storage-level action of the design, which safStructureProblem has passed.
void applyStorageSafs(const SparseContext& context, SparseScratch& scratch, EvaluationResult& result,
                      ComputeSafEffects& effects);

} // namespace sparsemap::model
