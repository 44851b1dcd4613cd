#pragma once
// Per-rank compression formats (Sparseloop; SparseMap paper Fig. 5). The integer values are the
// SparseMap format genes: 0 U, 1 B, 2 RLE, 3 CP, 4 UOP.
#include <optional>
#include <string_view>

namespace sparsemap {

enum class RankFormat {
    U = 0,   // uncompressed: every coordinate stored, no metadata
    B = 1,   // bitmask: one bit per coordinate
    RLE = 2, // run-length: a run length per nonzero
    CP = 3,  // coordinate payload: a coordinate per nonzero
    UOP = 4, // uncompressed offset pair: fiber offsets, no payload of its own
};

inline constexpr int kRankFormatCount = 5;

std::string_view rankFormatName(RankFormat format);
// Accepts the short names (U, B, RLE, CP, UOP) in any case, and Sparseloop's long ones
// (uncompressed, bitmask, run-length-encoding, coordinate-payload, uncompressed-offset-pairs).
std::optional<RankFormat> parseRankFormat(std::string_view name);

} // namespace sparsemap
