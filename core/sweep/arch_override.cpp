#include "sweep/arch_override.hpp"

#include "io/units.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>

namespace sparsemap {

namespace {

std::string trimmed(std::string_view text)
{
    return std::string(trimBlanks(text));
}

// Lower case without spaces, '_' and '-': "PE buffer", "pe_buffer" and "PE-Buffer" are one name.
std::string normalized(std::string_view name)
{
    std::string out;
    for (char c : name)
        if (c != ' ' && c != '_' && c != '-')
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

[[noreturn]] void fail(const ArchOverride& o, const std::string& what)
{
    throw InputError("--vary " + o.path + "=" + o.value + ": " + what);
}

std::optional<std::int64_t> positiveInteger(std::string_view text)
{
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < 1)
        return std::nullopt;
    return v;
}

struct Count {
    std::int64_t instances = 0;
    std::int64_t meshX = 0; // 0 when given as a plain number
};

// "N" or "AxB" (A columns, B rows).
Count parseCount(const ArchOverride& o)
{
    const std::string v = trimmed(o.value);
    const auto x = v.find_first_of("xX");
    if (x == std::string::npos) {
        if (const auto n = positiveInteger(v))
            return {*n, 0};
    } else {
        const auto a = positiveInteger(std::string_view(v).substr(0, x));
        const auto b = positiveInteger(std::string_view(v).substr(x + 1));
        std::int64_t product = 0;
        if (a && b && !__builtin_mul_overflow(*a, *b, &product))
            return {product, *a};
    }
    fail(o, "a count must be a positive integer N or AxB (A columns by B rows), e.g. 256 or 16x16");
}

std::int64_t checkedProduct(const ArchOverride& o, std::int64_t a, std::int64_t b)
{
    std::int64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product) || product > (std::int64_t{1} << 40))
        fail(o, "the instance counts this gives exceed 2^40");
    return product;
}

// Sets the instances of storage level `level` and rescales everything below it (see the header).
void setLevelCount(Architecture& arch, int level, const Count& count, const ArchOverride& o)
{
    const int n = arch.levelCount();
    std::vector<std::int64_t> fanouts; // children per instance, level .. last
    std::vector<std::int64_t> columnsPerParentColumn;
    for (int i = level; i < n; ++i) {
        fanouts.push_back(arch.fanout(i));
        const std::int64_t parentMesh = arch.levels[i].meshX;
        const std::int64_t childMesh = i + 1 < n ? arch.levels[i + 1].meshX : arch.compute.meshX;
        columnsPerParentColumn.push_back(
            parentMesh > 0 && childMesh > 0 && childMesh % parentMesh == 0 ? childMesh / parentMesh : 0);
    }
    arch.levels[level].instances = count.instances;
    arch.levels[level].meshX = count.meshX;
    std::int64_t instances = count.instances, meshX = count.meshX;
    for (int i = level; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i - level);
        instances = checkedProduct(o, instances, fanouts[k]);
        meshX = meshX > 0 && columnsPerParentColumn[k] > 0 ? meshX * columnsPerParentColumn[k] : 0;
        if (i + 1 < n) {
            arch.levels[i + 1].instances = instances;
            arch.levels[i + 1].meshX = meshX;
        } else {
            arch.compute.instances = instances;
            arch.compute.meshX = meshX;
        }
    }
}

double parseBandwidth(const ArchOverride& o, const StorageLevel& level, double clockGHz)
{
    const auto parsed = detail::parseBandwidthWordsPerCycle(trimmed(o.value), level.wordBits, clockGHz);
    if (!parsed.value || !(*parsed.value >= 0) || !std::isfinite(*parsed.value))
        fail(o, parsed.error.empty()
                    ? "a bandwidth must be non-negative: " + std::string(detail::kBandwidthForms)
                    : parsed.error);
    return *parsed.value;
}

void applyOne(Architecture& arch, const ArchOverride& o)
{
    const std::string path = trimmed(o.path);
    if (normalized(path) == "clockghz" || normalized(path) == "clock") {
        double ghz = 0;
        const std::string v = trimmed(o.value);
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), ghz);
        if (ec != std::errc() || end != v.data() + v.size() || !(ghz > 0) || !std::isfinite(ghz))
            fail(o, "clock_ghz must be a positive number of GHz, e.g. 1.5");
        arch.clockGHz = ghz;
        return;
    }
    const auto dot = path.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == path.size())
        fail(o, "a path is <unit>.<attribute> or clock_ghz: " + std::string(kArchOverrideForms));
    const std::string unit = normalized(path.substr(0, dot));
    const std::string attribute = normalized(path.substr(dot + 1));

    // Names are compared as normalized() makes them: two units that meet so make the path ambiguous.
    int level = -1;
    std::string matches;
    for (int i = 0; i < arch.levelCount(); ++i)
        if (normalized(arch.levels[static_cast<std::size_t>(i)].name) == unit) {
            matches +=
                (matches.empty() ? "`" : " and `") + arch.levels[static_cast<std::size_t>(i)].name + "`";
            if (level >= 0)
                fail(o, "`" + path.substr(0, dot) + "` is ambiguous in architecture " + arch.name +
                            ": it names " + matches +
                            " (unit names are compared ignoring case, spaces, `_` and `-`); rename one");
            level = i;
        }
    if (level >= 0 && unit == normalized(arch.compute.name))
        fail(o, "`" + path.substr(0, dot) + "` is ambiguous in architecture " + arch.name +
                    ": it names the level " + matches + " and the compute unit `" + arch.compute.name +
                    "` (unit names are compared ignoring case, spaces, `_` and `-`); rename one");
    if (level < 0 && unit == "pe")
        level = arch.levelCount() - 1;
    const bool compute =
        level < 0 && (unit == "compute" || unit == "mac" || unit == normalized(arch.compute.name));
    if (level < 0 && !compute) {
        std::string names;
        for (const auto& l : arch.levels)
            names += "`" + l.name + "`, ";
        fail(o, "no unit `" + path.substr(0, dot) + "` in architecture " + arch.name + "; units are " +
                    names + "`pe` (the innermost level) and `compute`");
    }
    if (compute) {
        if (attribute == "instances" || attribute == "count") {
            const Count c = parseCount(o);
            arch.compute.instances = c.instances;
            arch.compute.meshX = c.meshX;
        } else if (attribute == "meshx") {
            arch.compute.meshX = parseCount(o).instances;
        } else {
            fail(o, "the compute's attributes are instances, count and mesh_x");
        }
        return;
    }
    StorageLevel& l = arch.levels[static_cast<std::size_t>(level)];
    if (attribute == "capacity" || attribute == "metadatacapacity") {
        const auto parsed = detail::parseCapacityBits(trimmed(o.value), l.wordBits);
        if (!parsed.value)
            fail(o, parsed.error.empty() ? "a capacity is " + std::string(detail::kCapacityForms)
                                         : parsed.error);
        (attribute == "capacity" ? l.capacityBits : l.metadataCapacityBits) = *parsed.value;
    } else if (attribute == "readbandwidth") {
        l.readBandwidth = parseBandwidth(o, l, arch.clockGHz);
    } else if (attribute == "writebandwidth") {
        l.writeBandwidth = parseBandwidth(o, l, arch.clockGHz);
    } else if (attribute == "bandwidth") {
        l.readBandwidth = l.writeBandwidth = parseBandwidth(o, l, arch.clockGHz);
    } else if (attribute == "instances" || attribute == "count") {
        setLevelCount(arch, level, parseCount(o), o);
    } else if (attribute == "meshx") {
        l.meshX = parseCount(o).instances;
    } else {
        fail(o, "unknown attribute `" + path.substr(dot + 1) +
                    "`; a storage level has capacity, metadata_capacity, "
                    "read_bandwidth, write_bandwidth, bandwidth, instances, count and mesh_x");
    }
}

} // namespace

ArchAxis parseArchAxis(std::string_view text)
{
    const auto eq = text.find('=');
    ArchAxis axis;
    if (eq != std::string_view::npos)
        axis.path = trimmed(text.substr(0, eq));
    if (eq == std::string_view::npos || axis.path.empty())
        throw InputError("--vary " + std::string(text) + ": expected path=value1,value2,... with a path " +
                         std::string(kArchOverrideForms));
    std::string_view rest = text.substr(eq + 1);
    while (true) {
        const auto comma = rest.find(',');
        const std::string v = trimmed(rest.substr(0, comma));
        if (v.empty())
            throw InputError("--vary " + std::string(text) + ": an empty value (values are comma-separated)");
        for (const auto& seen : axis.values)
            if (seen == v)
                throw InputError("--vary " + std::string(text) + ": the value " + v + " is listed twice");
        axis.values.push_back(v);
        if (comma == std::string_view::npos)
            break;
        rest.remove_prefix(comma + 1);
    }
    return axis;
}

Architecture applyArchOverrides(Architecture arch, std::span<const ArchOverride> overrides)
{
    for (const auto& o : overrides)
        applyOne(arch, o);
    if (!overrides.empty()) {
        const auto problems = architectureProblems(arch);
        if (!problems.empty())
            throw InputError("architecture " + arch.name + " with " + archOverrideLabel(overrides) + ": " +
                             problems.front());
    }
    return arch;
}

std::string archOverrideLabel(std::span<const ArchOverride> overrides)
{
    std::string label;
    for (const auto& o : overrides)
        label += (label.empty() ? "" : ",") + o.path + "=" + o.value;
    return label;
}

} // namespace sparsemap
