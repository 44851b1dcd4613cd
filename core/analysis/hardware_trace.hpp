#pragma once
// The hardware behaviour of one design step by step (the SparseMap paper's Fig. 14): the temporal
// loops of every mapping level, outer to inner, form a mixed-radix counter whose value is the time
// step; at a step every storage instance holds one tile of each tensor and every MAC the mapping uses
// processes one point of the iteration space, which is active, gated or skipped depending on the
// operand values there and the design's skipping/gating (S/G).
//
// Operand values: a tensor with an `actual` density uses the nonzero pattern of its file. Any other
// density model has no data, so the trace draws ONE deterministic pseudo-random sample of the model
// (a hash of the coordinate and a seed, nonzero with probability = the density; N of every M along the
// innermost rank for N:M; within the band for banded). Per-step counts therefore illustrate the
// statistical model, they are not the model's expected values.
//
// Classification of a used MAC (two-operand workloads; the model's §4.6 semantics, per point):
//  1. a skip (gate) at a storage level whose target is an operand removes (gates) the computes below a
//     child tile when the condition tensor's tile there is empty: the child tile is the condition
//     tensor's tile at the next storage level down for that instance and step, or the operand value
//     itself when the site is the innermost storage level;
//  2. otherwise each operand is nonzero, a present zero (stored uncompressed at its innermost keeping
//     level) or absent (compressed away there); nonzero x nonzero is active; a present zero is gated
//     (skipped) when the compute site gates (skips) on that operand, else active; exactly one absent
//     operand is skipped with compute skipping, else gated with compute gating, else active (a
//     bubble); both absent is `Empty`: the compute does not exist (the model counts it nowhere).
// Workloads with other than two inputs: every used MAC is active.
//
// Model counts (useModelCounts): the sample above illustrates where zeros are, but its totals are one
// draw, not the model's expected values (which also include effects the sample does not draw, e.g.
// storage gating by the probability of an empty tile). A view that shows numbers beside the picture
// therefore hands the model's whole-run actual / gated / skipped counts to the trace: every used
// MAC-step (there are stepCount() x usedInstances(-1) of them) gets an ordinal n = step x used + i, a
// fixed permutation p(n) = n K mod D (K coprime to D, near D / golden ratio, which spreads each state
// evenly over the steps and MACs), and the state Active for p < actual, Gated for the next `gated`,
// Skipped for the next `skipped`, and Empty for the rest (computes the model never issues, and
// padding). Summed over all steps, the picture's counts are then exactly the model's.
#include "arch/architecture.hpp"
#include "design/design.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <span>
#include <vector>

namespace sparsemap::analysis {

// One loop of the nest with bound > 1.
struct TraceLoop {
    int mappingLevel = 0;
    int storageLevel = 0;
    int dim = 0;
    std::int64_t bound = 1;
    bool spatial = false;
    bool alongY = false;
    std::int64_t stride = 1; // coordinate step of `dim` per iteration (its bounds in inner levels)
};

struct CoordRange {
    std::int64_t begin = 0;
    std::int64_t end = 0; // exclusive
    bool operator==(const CoordRange&) const = default;
};

// How a fan-out sends a tensor's tiles to its children.
enum class SpatialCast {
    None,      // the fan-out has no spatial loop: a single child
    Broadcast, // no spatial loop indexes the tensor: every used child gets the same tile
    Multicast, // some loops index it: each tile goes to a group of children
    Unicast,   // every spatial loop indexes it: every child gets its own tile
};
std::string_view spatialCastName(SpatialCast cast);

// The fan-out below storage level `parentLevel` to `childLevel` (the compute when -1).
struct Fanout {
    int parentLevel = 0;
    int childLevel = 0;                 // storage level index, or -1 for the MACs
    std::int64_t childrenPerParent = 1; // the architecture's fan-out
    std::int64_t gridWidth = 1;        // children per parent along X (drawing grid), height = ceil(n / width)
    std::int64_t usedX = 1, usedY = 1; // the mapping's spatial extent along X and Y
    std::int64_t used = 1;             // children the mapping uses per parent (usedX * usedY)
    std::vector<SpatialCast> cast;     // per tensor
    std::vector<std::int64_t> share;   // per tensor: children that receive the same tile
};

enum class MacState : std::uint8_t { Idle, Active, Gated, Skipped, Empty };

struct MacCounts {
    std::int64_t active = 0, gated = 0, skipped = 0, empty = 0, idle = 0;
    std::int64_t used() const { return active + gated + skipped + empty; }
    bool operator==(const MacCounts&) const = default;
};

// Tally of `states` (e.g. one step's MACs, or one PE's).
MacCounts countMacStates(std::span<const MacState> states);

class OperandValues; // the nonzero pattern sampled or read for one tensor

class HardwareTrace {
public:
    // Throws InputError when the design does not fit the workload/architecture (level counts, bounds
    // that multiply to less than a dim's size (more is padding, which holds zeros), a spatial product above
    // the fan-out) or an `actual` density file cannot be read. `seed` draws the pseudo-random operand values.
    HardwareTrace(const Workload& workload, const Architecture& arch, const Design& design,
                  std::uint64_t seed = 1);
    ~HardwareTrace();
    HardwareTrace(HardwareTrace&&) noexcept;
    HardwareTrace& operator=(HardwareTrace&&) noexcept;

    const Workload& workload() const { return m_workload; }
    const Architecture& architecture() const { return m_arch; }
    const Design& design() const { return m_design; }

    // ---- time steps
    const std::vector<TraceLoop>& temporalLoops() const { return m_temporal; } // outer to inner
    const std::vector<TraceLoop>& spatialLoops() const { return m_spatial; }   // outer to inner
    std::int64_t stepCount() const { return m_steps; }
    // Index of every temporal loop at `step` (clamped to [0, stepCount)).
    std::vector<std::int64_t> loopIndices(std::int64_t step) const;
    // The ranges of every rank of `tensor` held at `storageLevel` at `step` by the instance whose
    // global index is `instance` (0 .. instances-1); nullopt when the mapping does not use it.
    std::optional<std::vector<CoordRange>> tile(std::int64_t step, int storageLevel, std::int64_t instance,
                                                int tensor) const;
    // "P[0:4,8:16]" (a single coordinate prints as "P[3,8:16]").
    std::string tileText(int tensor, const std::vector<CoordRange>& ranges) const;

    // ---- spatial picture
    const std::vector<Fanout>& fanouts() const { return m_fanouts; } // one per storage level, outer first
    // Whether the mapping uses instance `instance` of `storageLevel` (or MAC `instance` with -1).
    bool instanceUsed(int storageLevel, std::int64_t instance) const;
    std::int64_t usedInstances(int storageLevel) const; // -1: the MACs
    // Position of an instance in the drawing grid of its level: children of one parent form a block of
    // the parent's fan-out grid, parents' blocks are laid out in the parent's grid.
    struct GridPos {
        std::int64_t column = 0, row = 0;
    };
    GridPos gridPosition(int storageLevel, std::int64_t instance) const;
    std::int64_t gridColumns(int storageLevel) const;
    std::int64_t gridRows(int storageLevel) const;

    // ---- MACs
    // From now on the MAC states draw the model's whole-run counts (see the top of this file); counts
    // above the MAC-steps are clamped. clearModelCounts() returns to the sampled classification.
    void useModelCounts(std::int64_t actual, std::int64_t gated, std::int64_t skipped);
    void clearModelCounts() { m_model.reset(); }
    bool usesModelCounts() const { return m_model.has_value(); }
    std::int64_t macSteps() const; // stepCount() x the used MACs
    // The sum of countStep over every step (walks them all: for tests and small designs).
    MacCounts countAllSteps() const;
    // The state of every MAC of the architecture (index = global MAC index) at `step`.
    void macStates(std::int64_t step, std::vector<MacState>& out) const;
    MacCounts countStep(std::int64_t step) const;
    // The workload point a used MAC processes at `step` (per dim); empty when the MAC is idle.
    std::vector<std::int64_t> macPoint(std::int64_t step, std::int64_t mac) const;
    // Whether `tensor` is nonzero at a point of the iteration space (dims).
    bool nonzeroAt(int tensor, const std::vector<std::int64_t>& point) const;

private:
    struct UsedInstance {
        std::int64_t global = 0;
        std::vector<std::int64_t> offset; // per dim: coordinate offset from the spatial loops above
        std::int64_t parent = -1;         // index into the used list of the level above (-1 at level 0)
    };
    void buildLoops();
    void buildFanouts();
    void buildInstances();
    std::vector<std::int64_t> temporalOffsets(std::int64_t step, int aboveStorageLevel) const;
    bool tileEmpty(int tensor, const std::vector<std::int64_t>& dimBegin,
                   const std::vector<std::int64_t>& dimSize) const;
    const UsedInstance* findUsed(int levelSlot, std::int64_t global) const;

    Workload m_workload;
    Architecture m_arch;
    Design m_design;
    std::vector<TraceLoop> m_temporal;
    std::vector<TraceLoop> m_spatial;
    std::int64_t m_steps = 1;
    std::vector<Fanout> m_fanouts;
    // m_used[s] for storage levels 0..N-1, m_used[N] for the MACs.
    std::vector<std::vector<UsedInstance>> m_used;
    std::vector<std::vector<std::int64_t>> m_usedLookup;  // [slot][global] -> index in m_used or -1
    std::vector<std::vector<std::int64_t>> m_dimTiles;    // [storage level][dim] tile size
    std::vector<std::unique_ptr<OperandValues>> m_values; // per tensor (inputs only)
    struct ModelCounts {
        std::int64_t actual = 0, gated = 0, skipped = 0; // thresholds: cumulative
        std::int64_t total = 1, multiplier = 1;          // D and K of the permutation
    };
    std::optional<ModelCounts> m_model;
};

} // namespace sparsemap::analysis
