#include "cgra/sparse_block.hpp"

#include "util/error.hpp"
#include "workload/workload.hpp"

#include <random>
#include <sstream>

namespace sparsemap::cgra {

int SparseBlock::nnz() const
{
    int n = 0;
    for (auto v : mask)
        n += v != 0;
    return n;
}

double SparseBlock::sparsity() const
{
    return mask.empty() ? 0.0 : 1.0 - double(nnz()) / double(mask.size());
}

int SparseBlock::fanout(int channel) const
{
    int n = 0;
    for (int k = 0; k < kernels; ++k)
        n += weight(k, channel);
    return n;
}

int SparseBlock::kernelSize(int kernel) const
{
    int n = 0;
    for (int c = 0; c < channels; ++c)
        n += weight(kernel, c);
    return n;
}

void validateBlock(const SparseBlock& block)
{
    const std::string side = "an integer in 1.." + std::to_string(kMaxBlockSide);
    if (block.channels < 1 || block.channels > kMaxBlockSide)
        throw InputError("block '" + block.name + "': channels C is " + std::to_string(block.channels) +
                         "; must be " + side);
    if (block.kernels < 1 || block.kernels > kMaxBlockSide)
        throw InputError("block '" + block.name + "': kernels K is " + std::to_string(block.kernels) +
                         "; must be " + side);
    if (block.mask.size() != std::size_t(block.channels) * std::size_t(block.kernels))
        throw InputError("block '" + block.name + "': mask has " + std::to_string(block.mask.size()) +
                         " entries; C x K = " + std::to_string(block.channels * block.kernels));
    for (auto v : block.mask)
        if (v > 1)
            throw InputError("block '" + block.name + "': mask entries must be 0 or 1");
    if (block.nnz() == 0)
        throw InputError("block '" + block.name +
                         "': every weight is zero; a block needs at least one nonzero weight");
}

namespace {

// A uniform double in [0, 1) from the top 53 bits: unlike std::bernoulli_distribution this is the
// same on every standard library, so a seed names one block everywhere.
double unitDouble(std::mt19937_64& rng)
{
    return double(rng() >> 11) * 0x1.0p-53;
}

} // namespace

SparseBlock randomBlock(int channels, int kernels, double zeroProbability, std::uint64_t seed)
{
    if (!(zeroProbability >= 0.0 && zeroProbability < 1.0))
        throw InputError("zero probability is " + std::to_string(zeroProbability) + "; must be in [0, 1)");
    SparseBlock block;
    std::ostringstream name;
    name << "C" << channels << "K" << kernels << "-p" << zeroProbability << "-s" << seed;
    block.name = name.str();
    block.channels = channels;
    block.kernels = kernels;
    if (channels < 1 || kernels < 1 || channels > kMaxBlockSide || kernels > kMaxBlockSide) {
        validateBlock(block); // throws with the field and the allowed range
    }
    std::mt19937_64 rng(seed);
    // A block with no nonzero weight is not a block; redraw (with p < 1 this ends quickly).
    do {
        block.mask.assign(std::size_t(channels) * kernels, 0);
        for (auto& v : block.mask)
            v = unitDouble(rng) >= zeroProbability ? 1 : 0;
    } while (block.nnz() == 0);
    return block;
}

SparseBlock denseBlock(int channels, int kernels)
{
    SparseBlock block;
    block.name = "dense C" + std::to_string(channels) + "K" + std::to_string(kernels);
    block.channels = channels;
    block.kernels = kernels;
    block.mask.assign(std::size_t(channels) * std::size_t(std::max(kernels, 0)), 1);
    validateBlock(block);
    return block;
}

SparseBlock blockFromWorkload(const Workload& workload, int channels, int kernels, std::uint64_t seed)
{
    if (workload.kind != WorkloadKind::SpConv || !workload.conv)
        throw InputError("workload '" + workload.name +
                         "' is not a SpConv; a CGRA block is cut from the "
                         "weights of a convolution");
    if (channels > workload.conv->c || kernels > workload.conv->k)
        throw InputError("block C" + std::to_string(channels) + "K" + std::to_string(kernels) +
                         " is larger than workload '" + workload.name + "' (C " +
                         std::to_string(workload.conv->c) + ", K " + std::to_string(workload.conv->k) + ")");
    const int w = workload.tensorIndex("W");
    if (w < 0)
        throw InputError("workload '" + workload.name + "' has no weight tensor W");
    const auto& spec = workload.tensors[std::size_t(w)].density;
    if (spec.model != DensityModelKind::Uniform)
        throw InputError("workload '" + workload.name + "': weights W have the " +
                         std::string(densityModelName(spec.model)) +
                         " density model; a CGRA block is drawn at random from a uniform density only "
                         "(give W a number, or cut the block from a .mask file with --block)");
    const double density = spec.density;
    SparseBlock block = randomBlock(channels, kernels, 1.0 - density, seed);
    std::ostringstream name;
    name << workload.name << " C" << channels << "K" << kernels << " (dW " << density << ", seed " << seed
         << ")";
    block.name = name.str();
    return block;
}

} // namespace sparsemap::cgra
