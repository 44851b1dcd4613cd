#include "sparse/rank_format.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <string>

namespace sparsemap {

namespace {

// ceil(log2(n)) bits for n > 1, 1 otherwise. A whole n up to 2^40 (every fiber and tile) by the bit width
// of n - 1, the same integer without a libm call (the model asks on every rank of every evaluation);
// std::log2 for the rest.
int log2Bits(double n)
{
    if (n <= 1)
        return 1;
    if (n <= 0x1p40 && n == std::floor(n))
        return std::bit_width(static_cast<std::uint64_t>(n) - 1);
    return static_cast<int>(std::ceil(std::log2(n)));
}

} // namespace

std::string_view rankFormatName(RankFormat format)
{
    switch (format) {
    case RankFormat::U:
        return "U";
    case RankFormat::B:
        return "B";
    case RankFormat::RLE:
        return "RLE";
    case RankFormat::CP:
        return "CP";
    case RankFormat::UOP:
        return "UOP";
    }
    return "U";
}

FormatWordBits genomeFormatWordBits(RankFormat format, double fiberShape, double tile, int storageWidth)
{
    FormatWordBits bits;
    switch (format) {
    case RankFormat::U:
        break;
    case RankFormat::B:
        bits.metadata = 1;
        break;
    case RankFormat::CP:
    case RankFormat::RLE:
        bits.metadata = log2Bits(fiberShape);
        break;
    case RankFormat::UOP:
        bits.payload = log2Bits(tile + 1);
        break;
    }
    if (storageWidth > 0) {
        bits.metadata = std::min(bits.metadata, storageWidth);
        bits.payload = std::min(bits.payload, storageWidth);
    }
    return bits;
}

int sparseloopFormatWordBits(int bits, int storageWidth)
{
    if (bits <= 0 || storageWidth <= 0 || storageWidth % bits == 0)
        return bits;
    int adjusted = bits;
    while (adjusted < 2 * bits && storageWidth % adjusted != 0)
        ++adjusted;
    return adjusted;
}

std::optional<RankFormat> parseRankFormat(std::string_view name)
{
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == "u" || lower == "uncompressed")
        return RankFormat::U;
    if (lower == "b" || lower == "bitmask")
        return RankFormat::B;
    if (lower == "rle" || lower == "run-length-encoding")
        return RankFormat::RLE;
    if (lower == "cp" || lower == "coordinate-payload")
        return RankFormat::CP;
    if (lower == "uop" || lower == "uncompressed-offset-pairs")
        return RankFormat::UOP;
    return std::nullopt;
}

} // namespace sparsemap
