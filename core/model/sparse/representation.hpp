#pragma once
// Representation formats (docs/model-notes-sparse.md §3): binding a tensor's declared format ranks
// to the loops of its tile, the fibertree occupancy walk (metadata and payload units per rank), the
// maximum and expected occupancies, and how a format scales the level's data accesses (§3.6).
#include "model/evaluation_result.hpp"
#include "model/sparse/sparse_context.hpp"

#include <string>

namespace sparsemap::model {

// Binds the format of `tensor` at storage level `level` (inner levels must be bound first, for
// pre-tiling). Returns why the format cannot represent the tile, or "".
std::string bindFormatRanks(const SparseContext& context, int level, int tensor, SparseScratch& scratch);

// Maximum occupancy (capacity) and expected density / format units (access scaling).
void computeOccupancy(const SparseContext& context, int level, int tensor, bool parentHasFormat,
                      SparseScratch& scratch);

// Actual data accesses and per-rank format accesses of a level with a format (§3.6). Call right after
// computeOccupancy for the same level and tensor (it reads the tile shape and cache key left in
// `scratch`).
void applyRepresentation(const SparseContext& context, int level, int tensor, bool parentHasFormat,
                         SparseScratch& scratch, TensorLevelResult& result);

// The probability that the tile of `tensor` at `level` holds a nonzero. Where the parent level's
// metadata lets empty tiles go untransferred, only that share of the instances holds a tile
// (Sparseloop's average utilized instances), whatever the level's own format.
double nonEmptyTileProbability(const SparseContext& context, int level, int tensor, SparseScratch& scratch);

} // namespace sparsemap::model
