#include "sparse/rank_format.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace sparsemap {

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
