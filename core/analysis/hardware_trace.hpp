#pragma once
// The hardware behaviour of one design step by step (the SparseMap paper's Fig. 14): the temporal
// loops of every mapping level, outer to inner, form a mixed-radix counter whose value is the time
// step; at a step every storage instance holds one tile of each tensor and every MAC the mapping uses
// processes one point of the iteration space, which is active, gated or skipped depending on the
// operand values there and the design's skipping/gating (S/G).
//
// The trace composes three units, each with its own header saying what it computes:
//  * hardware_geometry.hpp: loops, steps, fan-outs, the instances the mapping uses, grid positions,
//    tiles (the mapping on the architecture; no tensor values);
//  * operand_sampling.hpp: whether an operand is nonzero at a point (its `actual` data, or one
//    deterministic sample of its density model);
//  * mac_states.hpp: the state of every MAC at a step, classified on the sample, or drawn from the
//    model's whole-run counts (useModelCounts).
#include "analysis/hardware_geometry.hpp"
#include "analysis/mac_states.hpp"
#include "analysis/operand_sampling.hpp"
#include "arch/architecture.hpp"
#include "design/design.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sparsemap::analysis {

class HardwareTrace {
public:
    // Throws InputError when the design does not fit the workload/architecture (level counts, bounds
    // that multiply to less than a dim's size (more is padding, which holds zeros), a spatial product above
    // the fan-out) or an `actual` density file cannot be read. `seed` draws the pseudo-random operand values.
    HardwareTrace(const Workload& workload, const Architecture& arch, const Design& design,
                  std::uint64_t seed = 1);

    const Workload& workload() const { return m_geometry.workload(); }
    const Architecture& architecture() const { return m_geometry.architecture(); }
    const Design& design() const { return m_design; }
    const HardwareGeometry& geometry() const { return m_geometry; }

    // ---- time steps
    const std::vector<TraceLoop>& temporalLoops() const
    {
        return m_geometry.temporalLoops();
    }                                                                                        // outer to inner
    const std::vector<TraceLoop>& spatialLoops() const { return m_geometry.spatialLoops(); } // outer to inner
    std::int64_t stepCount() const { return m_geometry.stepCount(); }
    // Index of every temporal loop at `step` (clamped to [0, stepCount)).
    std::vector<std::int64_t> loopIndices(std::int64_t step) const { return m_geometry.loopIndices(step); }
    // The ranges of every rank of `tensor` held at `storageLevel` at `step` by the instance whose
    // global index is `instance` (0 .. instances-1); nullopt when the mapping does not use it.
    std::optional<std::vector<CoordRange>> tile(std::int64_t step, int storageLevel, std::int64_t instance,
                                                int tensor) const
    {
        return m_geometry.tile(step, storageLevel, instance, tensor);
    }
    // "P[0:4,8:16]" (a single coordinate prints as "P[3,8:16]").
    std::string tileText(int tensor, const std::vector<CoordRange>& ranges) const
    {
        return m_geometry.tileText(tensor, ranges);
    }

    // ---- spatial picture
    const std::vector<Fanout>& fanouts() const
    {
        return m_geometry.fanouts();
    } // one per storage level, outer first
    // Whether the mapping uses instance `instance` of `storageLevel` (or MAC `instance` with -1).
    bool instanceUsed(int storageLevel, std::int64_t instance) const
    {
        return m_geometry.instanceUsed(storageLevel, instance);
    }
    std::int64_t usedInstances(int storageLevel) const
    {
        return m_geometry.usedInstances(storageLevel);
    } // -1: MACs
    // Position of an instance in the drawing grid of its level: children of one parent form a block of
    // the parent's fan-out grid, parents' blocks are laid out in the parent's grid.
    using GridPos = HardwareGeometry::GridPos;
    GridPos gridPosition(int storageLevel, std::int64_t instance) const
    {
        return m_geometry.gridPosition(storageLevel, instance);
    }
    std::int64_t gridColumns(int storageLevel) const { return m_geometry.gridColumns(storageLevel); }
    std::int64_t gridRows(int storageLevel) const { return m_geometry.gridRows(storageLevel); }

    // ---- MACs
    // From now on the MAC states draw the model's whole-run counts (mac_states.hpp); counts above the
    // MAC-steps are clamped. clearModelCounts() returns to the sampled classification.
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
    std::vector<std::int64_t> macPoint(std::int64_t step, std::int64_t mac) const
    {
        return m_geometry.macPoint(step, mac);
    }
    // Whether `tensor` is nonzero at a point of the iteration space (dims).
    bool nonzeroAt(int tensor, const std::vector<std::int64_t>& point) const
    {
        return m_operands.nonzeroAt(tensor, point);
    }

private:
    Design m_design;
    HardwareGeometry m_geometry;
    OperandSampling m_operands;
    std::optional<ModelCountStates> m_model;
};

} // namespace sparsemap::analysis
