#pragma once
// The state of every MAC at one time step of the hardware trace (hardware_trace.hpp): idle when the
// mapping does not use it, else active, gated, skipped or empty, in one of two ways.
//
// Sampled classification of a used MAC (k operands; the model's §4.6 semantics, per point, on the
// operand values of operand_sampling.hpp):
//  1. a skip (gate) at a storage level whose target is an operand removes (gates) the computes below a
//     child tile when a condition tensor's tile there is empty (with several condition tensors, when
//     any of them is: the access needs all of them, as in the model): the child tile is the condition
//     tensor's tile at the next storage level down for that instance and step, or the operand value
//     itself when the site is the innermost storage level;
//  2. otherwise each operand is nonzero, a present zero (no metadata at its innermost keeping level)
//     or absent (metadata there: compressed away), and the model's rule decides (model::computeFate,
//     model/sparse/operand_states.hpp): all nonzero is active; present zeros and no absent operand are
//     gated when the compute site gates on one of those operands, else active (compute skipping does
//     not drop them: both operands arrive); some absent operands (not all) are skipped with compute
//     skipping, else gated with compute gating, else active (a bubble); all absent is `Empty`: the
//     compute does not exist (the model counts it nowhere).
//  Without storage S/G on an operand, the fractions of the states over many MACs are then the model's
//  (within sampling noise; two inputs: the model's probabilities are per operand, independent). A
//  storage S/G of rule 1 instead removes the computes from the model's counts (neither gated nor
//  skipped there: model-notes-sparse.md §4.6), where the picture shows them skipped or gated.
//
// Model counts (ModelCountStates): the sample above illustrates where zeros are, but its totals are one
// draw, not the model's expected values (which also include effects the sample does not draw, e.g.
// storage gating by the probability of an empty tile). A view that shows numbers beside the picture
// therefore hands the model's whole-run actual / gated / skipped counts to the trace: every used
// MAC-step (there are stepCount() x the used MACs of them) gets an ordinal n = step x used + i, a fixed
// permutation p(n) = n K mod D (K coprime to D, near D / golden ratio, which spreads each state evenly
// over the steps and MACs), and the state Active for p < actual, Gated for the next `gated`, Skipped for
// the next `skipped`, and Empty for the rest (computes the model never issues, and padding). Summed
// over all steps, the picture's counts are then exactly the model's.
#include "analysis/hardware_geometry.hpp"
#include "analysis/operand_sampling.hpp"
#include "design/design.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace sparsemap::analysis {

enum class MacState : std::uint8_t { Idle, Active, Gated, Skipped, Empty };

struct MacCounts {
    std::int64_t active = 0, gated = 0, skipped = 0, empty = 0, idle = 0;
    std::int64_t used() const { return active + gated + skipped + empty; }
    bool operator==(const MacCounts&) const = default;
};

// Tally of `states` (e.g. one step's MACs, or one PE's).
MacCounts countMacStates(std::span<const MacState> states);

// The state of every MAC of the architecture (index = global MAC index) at `step`, classified on the
// sampled operand values and the design's formats and S/G.
void sampledMacStates(const HardwareGeometry& geometry, const OperandSampling& operands, const Design& design,
                      std::int64_t step, std::vector<MacState>& out);

// The model's whole-run counts spread over the MAC-steps (see the top of this file).
class ModelCountStates {
public:
    // `macSteps`: the step count x the used MACs. Counts above the MAC-steps are clamped.
    ModelCountStates(std::int64_t macSteps, std::int64_t actual, std::int64_t gated, std::int64_t skipped);
    // The state of every MAC of the architecture at `step` (clamped to the geometry's steps).
    void states(const HardwareGeometry& geometry, std::int64_t step, std::vector<MacState>& out) const;

private:
    std::int64_t m_actual = 0, m_gated = 0, m_skipped = 0; // thresholds: cumulative
    std::int64_t m_total = 1, m_multiplier = 1;            // D and K of the permutation
};

} // namespace sparsemap::analysis
