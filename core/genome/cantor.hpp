#pragma once
// Cantor (Lehmer) code of a loop order, paper formula (1):
//   code = sum_{i=1..D} (a_i - 1) * (D - i)! + 1,
// a_i = 1-based rank of the i-th dim (outer to inner) among the dims not yet used, dims ranked by
// their workload order. Code 1 is the workload's own order; neighbouring codes differ in the inner
// loops first, so small gene steps are small changes of the mapping.
#include <cstdint>
#include <span>
#include <vector>

namespace sparsemap {

// Codes are int64: 20! < 2^63 < 21!. (A genome holds codes as int genes, so GenomeLayout allows
// kMaxPermutationGeneDims: 12! < 2^31 < 13!.)
inline constexpr int kMaxCantorDims = 20;
inline constexpr int kMaxPermutationGeneDims = 12;

// n! for 0 <= n <= kMaxCantorDims; throws std::out_of_range beyond (it would overflow).
std::int64_t factorial(int n);
// `order` must be a permutation of 0..D-1 (D <= kMaxCantorDims); throws InputError otherwise.
std::int64_t cantorEncode(std::span<const int> order);
// `code` in [1, D!]; throws GenomeError otherwise.
std::vector<int> cantorDecode(std::int64_t code, int dimCount);
// The same into `order` (reusing its storage).
void cantorDecodeInto(std::int64_t code, int dimCount, std::vector<int>& order);
// The same into `order`, which must hold exactly `dimCount` places (throws GenomeError otherwise).
void cantorDecodeInto(std::int64_t code, int dimCount, std::span<int> order);

} // namespace sparsemap
