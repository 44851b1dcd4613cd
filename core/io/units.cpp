#include "util/text.hpp"
#include "io/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

namespace sparsemap::detail {

namespace {

struct Unit {
    std::string_view name;
    double bits; // bits per unit; 0 = one word
};

constexpr double kByte = 8.0;
constexpr double kKi = 1024.0;

// Binary multiples throughout: a "64 KB" buffer has 65536 bytes, as every SRAM datasheet means it.
constexpr std::array<Unit, 13> kCapacityUnits{{
    {"B", kByte},
    {"KB", kByte* kKi},
    {"MB", kByte* kKi* kKi},
    {"GB", kByte* kKi* kKi* kKi},
    {"TB", kByte* kKi* kKi* kKi* kKi},
    {"KiB", kByte* kKi},
    {"MiB", kByte* kKi* kKi},
    {"GiB", kByte* kKi* kKi* kKi},
    {"TiB", kByte* kKi* kKi* kKi* kKi},
    {"bit", 1.0},
    {"bits", 1.0},
    {"word", 0.0},
    {"words", 0.0},
}};

std::string_view trim(std::string_view s)
{
    return trimBlanks(s);
}

// Splits "128 KB" / "128KB" into a number and the unit text after it.
bool splitNumber(std::string_view text, double& number, std::string_view& unit)
{
    text = trim(text);
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (begin != end && *begin == '+')
        ++begin;
    const auto [stop, ec] = std::from_chars(begin, end, number);
    if (ec != std::errc() || stop == begin || !std::isfinite(number))
        return false;
    unit = trim(std::string_view(stop, static_cast<std::size_t>(end - stop)));
    return true;
}

const Unit* findUnit(std::string_view name)
{
    for (const auto& u : kCapacityUnits)
        if (u.name == name)
            return &u;
    return nullptr;
}

} // namespace

Parsed<std::int64_t> parseCapacityBits(std::string_view text, int wordBits)
{
    if (trim(text) == "unbounded")
        return {0, {}};
    double number = 0;
    std::string_view unitName;
    if (!splitNumber(text, number, unitName))
        return {std::nullopt, "`" + std::string(text) + "` is not a capacity; use " +
                                  std::string(kCapacityForms) + ", or `unbounded`"};
    if (unitName.empty())
        return {std::nullopt,
                "capacity `" + std::string(text) + "` needs a unit; use " + std::string(kCapacityForms)};
    const Unit* unit = findUnit(unitName);
    if (!unit)
        return {std::nullopt, "unknown capacity unit `" + std::string(unitName) +
                                  "`; allowed: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB, bits, words"};
    if (!(number > 0))
        return {std::nullopt, "capacity `" + std::string(text) +
                                  "` must be positive (only the outermost level may be `unbounded`)"};
    const double bitsPerUnit = unit->bits > 0 ? unit->bits : static_cast<double>(wordBits);
    const double bits = number * bitsPerUnit;
    if (bits >= 9.0e18)
        return {std::nullopt, "capacity `" + std::string(text) + "` is too large (at most about 1 EB)"};
    if (bits != std::floor(bits))
        return {std::nullopt, "capacity `" + std::string(text) + "` is not a whole number of bits"};
    return {static_cast<std::int64_t>(bits), {}};
}

Parsed<double> parseBandwidthWordsPerCycle(std::string_view text, int wordBits, double clockGHz)
{
    double number = 0;
    std::string_view unitName;
    const std::string bad =
        "`" + std::string(text) + "` is not a bandwidth; use " + std::string(kBandwidthForms);
    if (!splitNumber(text, number, unitName))
        return {std::nullopt, bad};
    if (unitName.empty() || unitName == "words/cycle")
        return {number, {}};
    if (unitName.size() < 3 || unitName.substr(unitName.size() - 2) != "/s")
        return {std::nullopt, bad};
    const Unit* unit = findUnit(unitName.substr(0, unitName.size() - 2));
    if (!unit || unit->bits == 0.0 || unit->bits == 1.0)
        return {std::nullopt, "unknown rate unit `" + std::string(unitName) +
                                  "`; allowed: B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s"};
    if (wordBits <= 0 || !(clockGHz > 0))
        return {std::nullopt,
                "a rate needs a positive word_bits and clock_ghz to convert to words per cycle"};
    // Data rates are decimal by convention (16 GB/s = 16e9 bytes/s, as memory datasheets and the
    // SparseMap paper write them); only the explicit binary units KiB/s ... TiB/s are powers of two.
    const std::string_view prefix = unitName.substr(0, unitName.size() - 2);
    double bitsPerSecond = number * unit->bits;
    if (prefix == "KB" || prefix == "MB" || prefix == "GB" || prefix == "TB") {
        const double decimal = prefix == "KB" ? 1e3 : prefix == "MB" ? 1e6 : prefix == "GB" ? 1e9 : 1e12;
        bitsPerSecond = number * 8.0 * decimal;
    }
    return {bitsPerSecond / static_cast<double>(wordBits) / (clockGHz * 1e9), {}};
}

std::string formatCapacity(std::int64_t bits)
{
    if (bits == 0)
        return "unbounded";
    if (bits % 8 != 0)
        return std::to_string(bits) + " bits";
    std::int64_t bytes = bits / 8;
    static constexpr std::array<std::string_view, 5> kNames{"B", "KB", "MB", "GB", "TB"};
    std::size_t unit = 0;
    while (unit + 1 < kNames.size() && bytes % 1024 == 0) {
        bytes /= 1024;
        ++unit;
    }
    return std::to_string(bytes) + " " + std::string(kNames[unit]);
}

std::string formatNumber(double value)
{
    std::array<char, 64> buffer{};
    const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    if (ec != std::errc())
        return std::to_string(value);
    return std::string(buffer.data(), end);
}

} // namespace sparsemap::detail
