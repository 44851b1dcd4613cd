#pragma once
// Dimension padding (paper IV-B). The prime-factor tiling can only split a dimension along its prime
// factors, so a dimension whose size is a large prime could only be mapped whole. The paper replaces
// such a size by the next composite; we also offer padding to the next 7-smooth number, which gives
// the tiler many more splits at the cost of a few percent of padded (zero) work.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace sparsemap {

enum class PaddingMode {
    None,       // sizes used as written
    LargePrime, // the paper's rule: a prime size above kLargePrimeThreshold becomes the next composite
    Smooth,     // every size becomes the smallest number >= it whose prime factors are all <= 7
};

// Primes up to this stay as they are under LargePrime: a factor of 2, 3, 5 or 7 is a normal tile size.
inline constexpr std::int64_t kLargePrimeThreshold = 7;

bool isPrime(std::int64_t n);
// Prime factors in ascending order with multiplicity; empty for n <= 1.
std::vector<std::int64_t> primeFactors(std::int64_t n);
std::int64_t paddedSize(std::int64_t size, PaddingMode mode);

std::string_view paddingModeName(PaddingMode mode);
std::optional<PaddingMode> parsePaddingMode(std::string_view name);

} // namespace sparsemap
