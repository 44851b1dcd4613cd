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
// B, RLE and CP: ranks that store only (the metadata of) their non-empty coordinates.
constexpr bool isCompressedRankFormat(RankFormat format)
{
    return format == RankFormat::B || format == RankFormat::RLE || format == RankFormat::CP;
}
// The word bits Sparseloop uses for a format's metadata or payload of `bits` in a buffer whose metadata
// storage is `storageWidth` bits wide: widened to the smallest width in [bits, 2 bits) that divides
// the storage width (to avoid fragmentation), else kept; 0 bits and a 0 width stay as they are.
int sparseloopFormatWordBits(int bits, int storageWidth);
// The widths our genome's formats use (Sparseloop has no defaults for them): a bitmask bit per
// coordinate; coordinates and run lengths wide enough for the fiber; offsets wide enough for the tile;
// U none. Capped at the metadata storage width (> 0), as Sparseloop refuses wider format words.
struct FormatWordBits {
    int metadata = 0;
    int payload = 0;
};
FormatWordBits genomeFormatWordBits(RankFormat format, double fiberShape, double tile, int storageWidth);
// Accepts the short names (U, B, RLE, CP, UOP) in any case, and Sparseloop's long ones
// (uncompressed, bitmask, run-length-encoding, coordinate-payload, uncompressed-offset-pairs).
std::optional<RankFormat> parseRankFormat(std::string_view name);

} // namespace sparsemap
