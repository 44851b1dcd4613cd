#pragma once
// Step three of the model for one storage level: energy from action counts (vector accesses x energy
// per action) and cycles from traffic over bandwidth (docs/model-notes-dataflow.md §4-5,
// docs/model-notes-sparse.md §5.2-5.4).
#include "arch/architecture.hpp"
#include "model/evaluation_result.hpp"
#include "model/microarch/energy_costs.hpp"

namespace sparsemap::model {

// Sets energyPj of every tensor (per-instance energy x its instances) and of the level.
void computeLevelEnergy(const StorageLevel& spec, const LevelEnergyCosts& costs, LevelResult& level);
// Sets the level's demand, throttling and cycles: the compute cycles stretched by the worst
// bandwidth shortfall (reads and writes have separate budgets; skipped accesses take none).
void computeLevelCycles(const StorageLevel& spec, double computeCycles, LevelResult& level);
void computeComputeEnergy(const ComputeEnergyCosts& costs, ComputeResult& compute);

} // namespace sparsemap::model
