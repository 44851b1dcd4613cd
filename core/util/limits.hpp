#pragma once
// What the model can represent. Every reader enforces these limits (through architectureProblems and
// workloadProblems) so that the arithmetic of the model cannot overflow: fixed-size per-level and
// per-dimension arrays, 32-bit dimension masks, int64 products of sizes and finite double costs.
// docs/file-formats.md lists them for users.
#include <cstdint>
#include <optional>

namespace sparsemap {

// Storage levels of an architecture (per-level arrays in the dataflow analysis).
inline constexpr int kMaxStorageLevels = 32;
// Problem dimensions of a workload (dimension sets are 32-bit masks).
inline constexpr int kMaxDims = 32;
// Input operands of a workload (an Einsum's factors). The compute analysis weighs every mix of the
// operands' states (nonzero, present zero, absent: 3^k of them, as Sparseloop's does), so its work
// grows threefold with each input: 3^8 = 6,561 mixes an evaluation is the most kept interactive.
inline constexpr int kMaxInputs = 8;
// One dimension's size (and an explicit convolution padding): 2^40 keeps prime tests and
// factorizations (trial division up to the square root) fast.
inline constexpr std::int64_t kMaxDimSize = std::int64_t{1} << 40;
// The product of all dimension sizes (dense MACs) and the number of points of any tensor: 2^53, so
// that every count is also exact as a double and products of tile sizes fit an int64.
inline constexpr std::int64_t kMaxVolume = std::int64_t{1} << 53;
// An index coefficient (stride or dilation) of a projection.
inline constexpr std::int64_t kMaxCoefficient = std::int64_t{1} << 20;
// Bandwidth in words per cycle: 0 (unlimited) or in [kMinBandwidth, kMaxBandwidth]. The minimum keeps
// cycles (words / bandwidth) and EDP (cycles x energy) finite.
inline constexpr double kMinBandwidth = 1e-9;
inline constexpr double kMaxBandwidth = 1e12;
// Energy of one action in pJ (1 J; a real access costs well under 1e6 pJ).
inline constexpr double kMaxEnergyPj = 1e12;

// The most model evaluations one run may be given. A run keeps every evaluated point (the PCA map, the
// session's point log, the seen set): about 410 bytes an evaluation at its peak, so 10 million stay
// near 4 GB. Every front end (search, sweep, the Exploration view) and SearchContext take it from here.
inline constexpr std::int64_t kMaxBudget = 10'000'000;

// a * b and a + b, or nullopt when the result does not fit an int64.
inline std::optional<std::int64_t> checkedMul(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r))
        return std::nullopt;
    return r;
}

inline std::optional<std::int64_t> checkedAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
        return std::nullopt;
    return r;
}

// a * b, or INT64_MAX when that overflows (for comparisons against a limit).
inline std::int64_t saturatingMul(std::int64_t a, std::int64_t b)
{
    const auto r = checkedMul(a, b);
    return r ? *r : (((a < 0) != (b < 0)) ? INT64_MIN : INT64_MAX);
}

} // namespace sparsemap
