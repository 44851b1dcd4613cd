#pragma once
// Micro-architectural validity (docs/model-notes-dataflow.md §5.1, model-notes-sparse.md §5.1):
// the spatial fan-out the mapping needs fits the instances, and every level's tiles (data plus
// metadata at the occupancy confidence) fit its capacity.
#include "model/evaluation_result.hpp"
#include "model/sparse/sparse_context.hpp"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace sparsemap::model {

// The first fan-out violation (instances below a level, per-instance fan-out, Timeloop's X x Y meshes) as
// a sentence for the user, or "".
std::string fanoutProblem(const SparseContext& context, const EvaluationResult& result);
// The first capacity violation: a bounded level whose kept tiles (data and metadata at the occupancy
// confidence) overflow it ("capacity exceeded ..." or "metadata capacity exceeded ..."), or "". The model
// checks it after fanoutProblem.
std::string capacityProblem(const Architecture& arch, const EvaluationResult& result);

// Timeloop's pre-evaluation capacity check (BufferLevel::PreEvaluationCheck), from the tile shapes alone:
// whether the data of the tiles every bounded storage level keeps fits its capacity in words, metadata
// left out. A tensor kept without metadata (`formats[level][tensor]`, as the design gives them) needs
// its dense tile; one with metadata its density model's maximum occupancy of the tile at `confidence`.
// The full evaluation counts no less as those tiles' data words (the dense tile, or for a tile with
// metadata its maximum data occupancy: that occupancy or the whole tile) and capacityProblem
// compares them, with metadata, against the same capacity: false means the design is invalid
// ("capacity exceeded"); true says nothing about validity.
bool dataFitsCapacity(const Workload& workload, const Architecture& arch, const Mapping& mapping,
                      const std::vector<std::vector<TensorFormat>>& formats,
                      std::span<const std::shared_ptr<const DensityModel>> density, double confidence);

} // namespace sparsemap::model
