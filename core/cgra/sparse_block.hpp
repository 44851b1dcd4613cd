#pragma once
// One sparse CNN block of the CGRA SparseMap paper: C input channels, K kernels and a 0/1 weight mask
// (mask(k, c) = 1 when kernel k has a nonzero weight for channel c). Zero-weight multiplications are
// removed, so the block computes out[k] = sum over c with mask(k, c) of w[k][c] * in[c].
#include <cstdint>
#include <string>
#include <vector>

namespace sparsemap {
struct Workload;
}

namespace sparsemap::cgra {

// Largest block side accepted (the paper's blocks are at most 8 x 8; the binder's conflict graph grows
// with the number of operations times the PE count).
inline constexpr int kMaxBlockSide = 32;

struct SparseBlock {
    std::string name;
    int channels = 0;               // C
    int kernels = 0;                // K
    std::vector<std::uint8_t> mask; // kernels x channels, row-major (kernel k, channel c at k * C + c)

    bool weight(int kernel, int channel) const { return mask[std::size_t(kernel) * channels + channel] != 0; }
    int nnz() const;
    double sparsity() const;          // share of zero weights
    int fanout(int channel) const;    // multiplications that read this channel
    int kernelSize(int kernel) const; // multiplications that kernel accumulates
    bool operator==(const SparseBlock&) const = default;
};

// Checks the shape, the 0/1 values and that at least one weight is nonzero; throws InputError.
void validateBlock(const SparseBlock& block);

// Every weight is zero with probability `zeroProbability`, independently, from a 64-bit Mersenne
// Twister seeded with `seed` (the same seed gives the same block on every platform).
SparseBlock randomBlock(int channels, int kernels, double zeroProbability, std::uint64_t seed);
// All weights nonzero: the dense block the speed-up is measured against.
SparseBlock denseBlock(int channels, int kernels);
// A C x K block cut from a SpConv workload: weights zero with probability 1 - (weight density).
// Throws InputError when the workload is not a SpConv or the block is larger than the layer.
SparseBlock blockFromWorkload(const Workload& workload, int channels, int kernels, std::uint64_t seed);

} // namespace sparsemap::cgra
