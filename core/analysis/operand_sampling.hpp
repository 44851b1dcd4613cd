#pragma once
// The operand values of the hardware trace (hardware_trace.hpp): whether an input tensor is nonzero at
// a point of the iteration space, and whether a tile of it is empty. A tensor with an `actual` density
// uses the nonzero pattern of its file, as io read it (DensitySpec::data). Any other density model has no
// data, so the trace draws ONE deterministic pseudo-random sample of the model (a hash of the coordinate and
// a seed, nonzero with probability = the density; N of every M along the innermost rank for N:M; within the
// band for banded). Coordinates outside the tensor (padding) hold zeros. Counts over such a sample illustrate
// the statistical model; they are not the model's expected values.
#include "workload/workload.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace sparsemap::analysis {

class OperandValues; // the nonzero pattern sampled or read for one tensor

class OperandSampling {
public:
    // Throws InputError when an `actual` density has no file, its tensor has more than 2 ranks, or its
    // file could not be read (the error io kept). `seed` draws the pseudo-random values.
    OperandSampling(const Workload& workload, std::uint64_t seed);
    ~OperandSampling();
    OperandSampling(OperandSampling&&) noexcept;
    OperandSampling& operator=(OperandSampling&&) noexcept;

    // Whether `tensor` is nonzero at a point of the iteration space (per dim); true for the output (or
    // an unknown tensor): it is not an operand.
    bool nonzeroAt(int tensor, const std::vector<std::int64_t>& point) const;
    // Whether every coordinate of `tensor` in the tile of the dims [dimBegin, dimBegin + dimSize) is
    // zero; false for a tensor that is not an operand.
    bool tileEmpty(int tensor, const std::vector<std::int64_t>& dimBegin,
                   const std::vector<std::int64_t>& dimSize) const;

private:
    std::vector<std::vector<RankProjection>> m_ranks;     // per tensor
    std::vector<std::unique_ptr<OperandValues>> m_values; // per tensor (inputs only)
};

} // namespace sparsemap::analysis
