// A line-by-line reader of timeloop-model.stats.txt. The file is a printout, not a format: the parser
// keys on the printed labels, keeps every "key : number" line it meets, and ignores what it does not
// know (networks, operational intensity), so that both the dense and the sparse layout read.
#include "io/sparseloop/sparseloop_stats.hpp"

#include "util/file_io.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace sparsemap {

namespace {

std::string trim(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos)
        return {};
    const auto last = s.find_last_not_of(" \t\r");
    return std::string(s.substr(first, last - first + 1));
}

// The leading number of a printed value ("0.42 pJ", "1024 (16*64)"); nullopt for text ("-", "b b").
std::optional<double> leadingNumber(const std::string& value)
{
    if (value.empty())
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (end == value.c_str() || (*end != '\0' && *end != ' '))
        return std::nullopt;
    return v;
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

// "Rank 1 (metadata, payload): (131072,  131072)" -> list[1] = {131072, 131072}.
void readRankLine(const std::string& line, SparseloopRankList& list)
{
    const int rank = std::atoi(line.c_str() + 5);
    const auto open = line.rfind('(');
    if (rank < 0 || rank > 1000 || open == std::string::npos)
        return;
    SparseloopRankCounts counts;
    char* end = nullptr;
    counts.metadata = std::strtod(line.c_str() + open + 1, &end);
    if (*end == ',')
        counts.payload = std::strtod(end + 1, nullptr);
    if (list.size() <= static_cast<std::size_t>(rank))
        list.resize(rank + 1);
    list[rank] = counts;
}

SparseloopAccessCounts* accessCounts(SparseloopTensorStats& t, std::string_view what)
{
    if (what == "reads")
        return &t.reads;
    if (what == "fills")
        return &t.fills;
    return what == "updates" ? &t.updates : nullptr;
}

// "Actual scalar format reads (per-instance)" -> the rank list it names, nullptr if it is not one.
SparseloopRankList* formatList(SparseloopTensorStats& t, const std::string& key)
{
    if (key == "Max utilized Repr format storage capacity")
        return &t.formatCapacity;
    std::istringstream words(key);
    std::string kind, scalar, format, what;
    words >> kind >> scalar >> format >> what;
    if (scalar != "scalar" || format != "format")
        return nullptr;
    SparseloopFormatCounts* counts = what == "reads"     ? &t.formatReads
                                     : what == "fills"   ? &t.formatFills
                                     : what == "updates" ? &t.formatUpdates
                                                         : nullptr;
    if (!counts)
        return nullptr;
    return kind == "Actual"    ? &counts->actual
           : kind == "Gated"   ? &counts->gated
           : kind == "Skipped" ? &counts->skipped
                               : nullptr;
}

void setTensorValue(SparseloopTensorStats& t, const std::string& key, double v)
{
    std::istringstream words(key);
    std::string kind, scalar, what;
    words >> kind >> scalar >> what;
    if (key == "Partition size")
        t.partitionSize = v;
    else if (key == "Data tile shape")
        t.tileShape = v;
    else if (key == "Max utilized data storage capacity")
        t.utilizedCapacity = v;
    else if (key == "Utilized capacity")
        t.tileShape = t.utilizedCapacity = v;
    else if (key == "Utilized instances (max)")
        t.utilizedInstances = v;
    else if (key == "Utilized instances (average)")
        t.utilizedInstancesAverage = v;
    else if (key == "Temporal reductions (per-instance)")
        t.temporalReductions = v;
    else if (key == "Address generations (per-cluster)")
        t.addressGenerations = v;
    else if (key == "Energy (per-instance)")
        t.energyPerInstancePj = v;
    else if (key == "Energy (total)")
        t.energyPj = v;
    else if (kind == "Scalar" && accessCounts(t, scalar)) // dense: "Scalar reads (per-instance)"
        accessCounts(t, scalar)->algorithmic = accessCounts(t, scalar)->actual = v;
    else if (scalar == "scalar" && accessCounts(t, what)) {
        auto& c = *accessCounts(t, what);
        (kind == "Algorithmic" ? c.algorithmic
         : kind == "Actual"    ? c.actual
         : kind == "Gated"     ? c.gated
                               : c.skipped) = v;
    }
}

void setComputeValue(SparseloopComputeStats& c, const std::string& key, double v)
{
    if (key == "Utilized instances (max)" || key == "Utilized instances")
        c.utilizedInstances = v;
    else if (key == "Utilized instances (average)")
        c.utilizedInstancesAverage = v;
    else if (key == "Cycles")
        c.cycles = v;
    else if (key == "Computes (total)")
        c.computes.algorithmic = c.computes.actual = v;
    else if (key == "Algorithmic Computes (total)")
        c.computes.algorithmic = v;
    else if (key == "Actual Computes (total)")
        c.computes.actual = v;
    else if (key == "Gated Computes (total)")
        c.computes.gated = v;
    else if (key == "Skipped Computes (total)")
        c.computes.skipped = v;
    else if (key == "Energy (total)")
        c.energyPj = v;
}

double energyScale(const std::string& value)
{
    const std::string unit = value.substr(value.find_last_of(' ') + 1);
    return unit == "pJ" ? 1e-6 : unit == "nJ" ? 1e-3 : unit == "mJ" ? 1e3 : unit == "J" ? 1e6 : 1.0;
}

// "Cycles: 131072", "Energy: 247.59 uJ", "GFLOPs (@1GHz): 2047.00", "Utilization: 1.00".
// A design that moves data takes at least one cycle, and energies are finite and >= 0: anything else
// is not a Sparseloop output, and comparing against it would print nan% errors.
void readSummaryLine(const std::string& line, const std::string& raw, const std::string& fileName,
                     int lineNumber, SparseloopStats& out, bool& haveCycles, bool& haveEnergy)
{
    const auto colon = line.find(':');
    if (colon == std::string::npos)
        return;
    const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    const auto number = leadingNumber(value);
    const double v = number.value_or(0.0);
    const bool cycles = key == "Cycles", energy = key == "Energy";
    if ((cycles || energy) && (!number || !std::isfinite(v) || v < (cycles ? 1 : 0))) {
        const auto column = static_cast<int>(raw.find(value.empty() ? key : value)) + 1;
        throw InputError(std::vector<Diagnostic>{Diagnostic{
            fileName, lineNumber, column, "Summary Stats." + key,
            "`" + value + "` is not allowed; " +
                (cycles ? "cycles must be a finite number >= 1" : "energy must be a finite number >= 0")}});
    }
    if (!number)
        return;
    if (key == "Cycles") {
        out.cycles = v;
        haveCycles = true;
    } else if (key == "Energy") {
        out.energyUj = v * energyScale(value);
        haveEnergy = true;
    } else if (key == "GFLOPs (@1GHz)") {
        out.gflops = v;
    } else if (key == "Utilization") {
        out.utilization = v;
    }
}

} // namespace

std::optional<double> SparseloopTensorStats::value(std::string_view key) const
{
    for (const auto& [k, v] : values)
        if (k == key)
            return v;
    return std::nullopt;
}

const SparseloopTensorStats* SparseloopLevelStats::tensor(std::string_view tensorName) const
{
    for (const auto& t : tensors)
        if (t.name == tensorName)
            return &t;
    return nullptr;
}

double SparseloopLevelStats::energyPj() const
{
    double sum = 0;
    for (const auto& t : tensors)
        sum += t.energyPj;
    return sum;
}

const SparseloopLevelStats* SparseloopStats::level(std::string_view levelName) const
{
    for (const auto& l : levels)
        if (l.name == levelName)
            return &l;
    return nullptr;
}

double SparseloopStats::levelEnergySumPj() const
{
    double sum = compute.energyPj;
    for (const auto& l : levels)
        sum += l.energyPj();
    return sum;
}

SparseloopStats parseSparseloopStatsText(const std::string& text, const std::string& fileName)
{
    enum class Section { None, Specs, Mapping, Stats };
    SparseloopStats out;
    Section section = Section::None;
    int levelNumber = -1;
    bool networks = false, summary = false, haveCycles = false, haveEnergy = false;
    SparseloopTensorStats* tensor = nullptr;
    SparseloopRankList* ranks = nullptr; // the list the following "Rank r" lines belong to
    std::istringstream in(text);
    int lineNumber = 0;
    for (std::string raw; std::getline(in, raw);) {
        ++lineNumber;
        const std::string line = trim(raw);
        const std::size_t indent = raw.find_first_not_of(' ');
        if (line.empty() || startsWith(line, "---"))
            continue;
        if (startsWith(line, "Level ") && line.find(':') == std::string::npos) {
            levelNumber = std::atoi(line.c_str() + 6);
            section = Section::None;
            tensor = nullptr;
            continue;
        }
        if (line == "Networks" || line == "Summary Stats") {
            networks = line == "Networks";
            summary = !networks;
            continue;
        }
        if (networks)
            continue;
        if (summary) {
            readSummaryLine(line, raw, fileName, lineNumber, out, haveCycles, haveEnergy);
            continue;
        }
        if (startsWith(line, "=== ") && line.size() > 8 && line.substr(line.size() - 4) == " ===") {
            const std::string name = line.substr(4, line.size() - 8);
            if (levelNumber == 0)
                out.compute.name = name;
            else
                out.levels.push_back(SparseloopLevelStats{name, levelNumber, 0, 1, {}, {}});
            continue;
        }
        if (line == "SPECS" || line == "MAPPING" || line == "STATS") {
            section = line == "SPECS"     ? Section::Specs
                      : line == "MAPPING" ? Section::Mapping
                                          : Section::Stats;
            tensor = nullptr;
            ranks = nullptr;
            continue;
        }
        if (levelNumber < 0 || section == Section::Mapping || section == Section::None)
            continue;
        const bool compute = levelNumber == 0;
        if (!compute && out.levels.empty())
            continue;
        SparseloopLevelStats* level = compute ? nullptr : &out.levels.back();
        const auto colon = line.find(':');
        if (section == Section::Specs) {
            if (level && colon != std::string::npos)
                level->specs.emplace_back(trim(line.substr(0, colon)), trim(line.substr(colon + 1)));
            continue;
        }
        if (startsWith(line, "Rank ")) {
            if (ranks)
                readRankLine(line, *ranks);
            continue;
        }
        if (level && indent == 4 && colon == line.size() - 1) { // a tensor header: "A:" or "A (Streamed):"
            std::string name = line.substr(0, colon);
            const bool streamed = name.size() > 11 && name.substr(name.size() - 11) == " (Streamed)";
            level->tensors.push_back(SparseloopTensorStats{});
            tensor = &level->tensors.back();
            tensor->name = streamed ? name.substr(0, name.size() - 11) : name;
            tensor->streamed = streamed;
            continue;
        }
        const std::string key = trim(line.substr(0, colon));
        ranks = nullptr;
        if (colon == std::string::npos) { // a header whose "Rank r" lines follow
            if (tensor)
                ranks = formatList(*tensor, key);
            continue;
        }
        const std::string value = trim(line.substr(colon + 1));
        const auto v = leadingNumber(value);
        if (compute) {
            if (v)
                setComputeValue(out.compute, key, *v);
        } else if (!tensor) {
            if (key == "Cycles" && v)
                level->cycles = *v;
            else if (key == "Bandwidth throttling" && v)
                level->bandwidthThrottling = *v;
        } else if (key == "Tile density distribution") {
            tensor->densityDistribution = value;
        } else if (key == "Representation format") {
            tensor->representationFormat = value;
        } else if (v) {
            tensor->values.emplace_back(key, *v);
            setTensorValue(*tensor, key, *v);
        }
    }
    if (!haveCycles || !haveEnergy)
        throw InputError(
            std::vector<Diagnostic>{Diagnostic{fileName,
                                               0,
                                               0,
                                               {},
                                               "no `Summary Stats` with `Cycles:` and `Energy:`; is this a "
                                               "complete timeloop-model.stats.txt?"}});
    out.energyPj = out.energyUj * 1e6;
    if (out.compute.utilizedInstancesAverage == 0)
        out.compute.utilizedInstancesAverage = out.compute.utilizedInstances;
    for (auto& level : out.levels)
        for (auto& t : level.tensors)
            if (!t.value("Utilized instances (average)"))
                t.utilizedInstancesAverage = t.utilizedInstances;
    std::vector<SparseloopLevelStats> outerFirst(out.levels.rbegin(), out.levels.rend());
    out.levels = std::move(outerFirst);
    return out;
}

SparseloopStats parseSparseloopStats(const std::string& path)
{
    return parseSparseloopStatsText(readTextFile(path), path);
}

} // namespace sparsemap
