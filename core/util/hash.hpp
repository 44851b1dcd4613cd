#pragma once
// splitmix64's finalizer: a cheap, well-spread 64-bit hash. Used where a value must be a deterministic
// function of a seed and a key (the hardware trace's operand samples, the ES's Feistel permutations).
#include <cstdint>

namespace sparsemap {

constexpr std::uint64_t splitmix64(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace sparsemap
