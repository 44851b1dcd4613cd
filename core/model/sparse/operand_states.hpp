#pragma once
// The state of a compute's operands and what a MAC with k operands does with them, shared by the
// model (compute_states.cpp: probabilities of each mix) and the hardware picture (analysis/
// mac_states.cpp: one mix per MAC on sampled values). A compute is effectual only when every operand
// is nonzero; a present zero (stored uncompressed) can be gated, an absent operand (compressed away)
// skipped; when every operand is absent the compute does not exist (Sparseloop's compute-gs-analyzer:
// ENZ / EZ / NE states, "all ENZ" random, "some EZ, no NE" gated or random, "some NE" skipped, gated
// or random, "all NE" nonexistent). Compute skipping never drops a mix without an absent operand: both
// operands arrive, so the MAC runs (verified on the oracle: edge-cskip-zeros, docs/oracle.md).
#include "sparse/sparse_strategy.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace sparsemap::model {

enum class OperandState : std::uint8_t { Nonzero, PresentZero, Absent };

enum class OperandMix : std::uint8_t {
    AllNonzero, // effectual
    SomeZero,   // a present zero and no absent operand: gated under compute gating, else computed
    SomeAbsent, // at least one absent, not all: skipped under compute skipping, else gated, else a bubble
    AllAbsent,  // nothing arrives: no compute
};

inline OperandMix operandMix(std::span<const OperandState> states)
{
    bool absent = false, zero = false, nonzero = false;
    for (const auto s : states) {
        absent = absent || s == OperandState::Absent;
        zero = zero || s == OperandState::PresentZero;
        nonzero = nonzero || s == OperandState::Nonzero;
    }
    if (absent)
        return zero || nonzero ? OperandMix::SomeAbsent : OperandMix::AllAbsent;
    return zero ? OperandMix::SomeZero : OperandMix::AllNonzero;
}

// The compute site's gating / skipping: whether it has a gate (a skip; spatial skipping counts as a
// skip) action, and per input (in `inputs` order) whether an action conditions on it (an action with
// no condition tensor conditions on every input).
struct ComputeSiteActions {
    bool gate = false, skip = false;
    std::vector<char> checked;
};
ComputeSiteActions computeSiteActions(const SparseStrategy& sparse, std::span<const int> inputs);

// What the compute unit does with one mix of operand states (`states` in `inputs` order).
enum class ComputeFate : std::uint8_t { Actual, Gated, Skipped, None };
ComputeFate computeFate(std::span<const OperandState> states, const ComputeSiteActions& site);

} // namespace sparsemap::model
