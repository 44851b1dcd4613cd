#pragma once
// Shared state of step two (sparse modelling): what the analysis reads (workload, architecture,
// design, dense traffic, density models, options) and the per-level, per-tensor working data it
// builds (bound format ranks, occupancies, densities, SAF probabilities).
#include "arch/architecture.hpp"
#include "design/design.hpp"
#include "model/dataflow/dense_traffic.hpp"
#include "model/evaluator.hpp"
#include "model/density/density_model.hpp"
#include "model/format/walk_rank.hpp"
#include "util/flat_key_index.hpp"
#include "workload/workload.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace sparsemap::model {

class DensityModel;
using DensityModels = std::vector<std::shared_ptr<const DensityModel>>;

struct SparseContext {
    const Workload& workload;
    const Architecture& arch;
    const Design& design;
    const DenseTraffic& dense;
    const DensityModels& density;
    const ModelOptions& options;
    // The formats to score: the design's own, or as Sparseloop reads them (Evaluator::evaluate).
    const std::vector<std::vector<TensorFormat>>& formats;
};

inline constexpr int kMaxRanks = kMaxWalkRanks;

// The numbers of a TensorSparseState, its rank arrays aside (TensorSparseState::reset assigns a fresh
// one, so the defaults stand here only).
struct TensorSparseNumbers {
    bool hasFormat = false;  // a representation format with metadata (Sparseloop's HasMetaData)
    bool compressed = false; // some rank is CP, RLE or B
    int rankCount = 0;
    double tile = 0;               // coordinates
    std::int64_t maxOccupancy = 0; // nonzeros at the occupancy confidence (capacity)
    double density = 1;            // expected density of a tile as sent (conditioned on non-empty)
    double nonEmptyShare = 1;      // share of tiles that are sent at all
    double vectorRatio = 1;        // Sparseloop's vector-access correction (vectorAccessRatio)
    // The expected density bit for bit as Sparseloop sums it (applyRepresentation): computed on demand,
    // NaN until then, negative when the density model cannot give it.
    double sparseloopDensity = std::numeric_limits<double>::quiet_NaN();
};

// Per storage level and tensor.
struct TensorSparseState : TensorSparseNumbers {
    std::array<WalkRank, kMaxRanks> ranks{}; // innermost first (rank 0 holds the data values)
    // Expected and maximum format units per rank.
    std::array<RankOccupancy, kMaxRanks> expectedUnits{};
    std::array<RankOccupancy, kMaxRanks> maxUnits{};
    std::span<const WalkRank> walkRanks() const
    {
        return {ranks.data(), static_cast<std::size_t>(rankCount)};
    }
    // Back to the default state, as assigning TensorSparseState{} would (the model does this for every
    // level and tensor of every evaluation). Only the first rankCount entries of the rank arrays are
    // ever written (the writers go by rankCount, and rankCount is set before them), so only those are
    // cleared.
    void reset()
    {
        const auto used = static_cast<std::size_t>(rankCount);
        std::fill_n(ranks.begin(), used, WalkRank{});
        std::fill_n(expectedUnits.begin(), used, RankOccupancy{});
        std::fill_n(maxUnits.begin(), used, RankOccupancy{});
        static_cast<TensorSparseNumbers&>(*this) = TensorSparseNumbers{};
    }
};

// What computeOccupancy derives for a tile, cached by everything it depends on: ES populations
// revisit the same tiles constantly, and the occupancy distribution is the model's costliest step.
struct OccupancyValue {
    std::int64_t maxOccupancy = 0;
    double density = 1;
    double nonEmptyShare = 1;
    double vectorRatio = 1;
    double sparseloopDensity = std::numeric_limits<double>::quiet_NaN(); // as TensorSparseState's
    std::uint32_t unitsAt = 0;   // in the cache's pool: rankCount expected units, then rankCount max
    std::uint32_t rankCount = 0; // units
};

// The cache of one evaluator thread. The key is flat (computeOccupancy writes it: tensor, condition,
// confidence, the tile's shape, the walk's ranks); the keys are interned back to back in one pool
// (FlatKeyIndex), an entry's values sit at the key's index, and the units of its own ranks in a shared
// pool. Emptied when it holds more than `capacity` entries: a search revisits the tiles of the designs
// in use, so a bounded cache keeps nearly all of its hits.
class OccupancyCache {
public:
    explicit OccupancyCache(std::size_t capacity) : m_capacity(capacity) {}
    // The entry stored under `key` (valid until the next insert), or null.
    OccupancyValue* find(std::span<const std::int64_t> key);
    // Stores the occupancy of `st` (its numbers and the units of its rankCount ranks) under `key`.
    void insert(std::span<const std::int64_t> key, const TensorSparseState& st);
    // Copies a cached value into `st` (units beyond its ranks are zero).
    void load(const OccupancyValue& value, TensorSparseState& st) const;
    std::size_t size() const { return m_values.size(); }

private:
    std::size_t m_capacity;
    FlatKeyIndex<std::int64_t> m_keys;
    std::vector<OccupancyValue> m_values; // by the key's index
    std::vector<RankOccupancy> m_units;
};

// The occupancy cache's bound: an entry is about half a kilobyte (its key of a few dozen integers, its
// values, two rank occupancies per rank), so a thread's cache stays near 100 MB however long the run.
inline constexpr std::size_t kOccupancyCacheEntries = 200000;

struct SparseScratch {
    OccupancyCache occupancyCache{kOccupancyCacheEntries};
    std::vector<std::int64_t> key;         // the occupancy cache's key of the tile computeOccupancy works on
    std::vector<TensorSparseState> states; // [level * tensors + tensor]
    std::vector<std::pair<std::int64_t, double>> distribution;
    std::vector<OccupancyPoint> points;
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> dimTiles; // the tile's per-dim extents behind `shape`
    std::vector<NestLoop> allLoops;     // including bound-1 loops, innermost first
    // applyStorageSafs' per-tensor state and leaders, leaderFollowerProbability's loop indices.
    std::vector<double> upperP, safP;
    std::vector<int> safLevel, leaders, loopIndices;
};

// Density models for every tensor of a (padded) workload: inputs from their specs, the output
// from the derived density (1 - (1 - prod input densities)^(reduction volume)), uniform.
DensityModels makeTensorDensityModels(const Workload& workload);

// --- Adapters to the density models (model/sparse/density_queries.cpp) ---
double probabilityEmpty(const DensityModel& model, std::span<const std::int64_t> shape);
double probabilityEmptyOfVolume(const DensityModel& model, double volume);
double probabilityEmptyGiven(const DensityModel& model, double volume, double outerVolume, double outerNnz);
std::int64_t maxOccupancy(const DensityModel& model, std::span<const std::int64_t> shape, double confidence);
double scalarDensity(const DensityModel& model);
// Worst-case (confidence 1) occupancy of any tile of `volume` coordinates.
std::int64_t maxOccupancyOfVolume(const DensityModel& model, double volume);
// The occupancy distribution of a tile (a bounded number of weighted points).
void occupancyDistribution(const DensityModel& model, std::span<const std::int64_t> shape,
                           std::vector<std::pair<std::int64_t, double>>& out);

} // namespace sparsemap::model
