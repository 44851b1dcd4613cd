#pragma once
// Quantities with units in architecture files: capacities ("128 KB", "1 GiB", "4096 words",
// "8192 bits", "unbounded") and bandwidths ("16 GB/s", "500 MB/s", or a plain number of words per
// cycle). KB, MB, GB are binary (x1024), the same as KiB, MiB, GiB, because buffer sizes are.
// Also the number formatting used when saving, so that a saved double reads back bit-identical.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sparsemap::detail {

// A parsed value, or the reason it could not be parsed (saying what is allowed).
template <typename T> struct Parsed {
    std::optional<T> value;
    std::string error;
};

// Bits per instance; "unbounded" gives 0. Rejects zero, negative, fractional-bit and overflowing values.
Parsed<std::int64_t> parseCapacityBits(std::string_view text, int wordBits);
// Words per cycle per instance: a plain number, "N words/cycle", or a rate ("16 GB/s", "500 MB/s",
// "1 TB/s", "800 B/s") converted with the level's word width and the clock. May be negative: the
// caller decides what range is allowed.
Parsed<double> parseBandwidthWordsPerCycle(std::string_view text, int wordBits, double clockGHz);

// The shortest exact form of a capacity: "unbounded", "64 KB", "512 B" or "12 bits".
std::string formatCapacity(std::int64_t bits);
// The shortest decimal text that reads back as the same double (e.g. "0.118", "1e-05", "12").
std::string formatNumber(double value);

// What a capacity / a bandwidth may look like, for messages.
inline constexpr std::string_view kCapacityForms =
    "a size such as `64 KB`, `2 MiB`, `512 B`, `4096 words` or `8192 bits` (KB, MB, GB = x1024)";
inline constexpr std::string_view kBandwidthForms =
    "words per cycle as a number (0 = unlimited), or a rate such as `16 GB/s` or `500 MB/s` (x1024)";

} // namespace sparsemap::detail
