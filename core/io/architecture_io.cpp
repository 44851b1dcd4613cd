#include "io/architecture_io.hpp"

#include "util/file_io.hpp"
#include "io/units.hpp"
#include "io/yaml_reader.hpp"
#include "util/limits.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap {

namespace {

using detail::YamlReader;

const std::vector<std::string> kTechnologies{"DRAM", "SRAM", "regfile"};

std::vector<std::string> names(std::span<const std::string_view> list)
{
    return std::vector<std::string>(list.begin(), list.end());
}

// `energy: {read: 0.5, ...}`: known action names only (a typo would silently cost 0 pJ), values >= 0.
EnergyTable readEnergy(const YamlReader& level, const std::vector<std::string>& actions)
{
    EnergyTable table;
    const auto energy = level.require("energy", "a map {action: pJ}, actions " + detail::joinNames(actions));
    if (!energy || !energy->expectMap("a map {action: pJ}, actions " + detail::joinNames(actions)))
        return table;
    for (const auto& [action, value] : energy->entries()) {
        if (std::find(actions.begin(), actions.end(), action) == actions.end()) {
            energy->keyNode(action)->error("unknown energy action `" + action +
                                           "`; allowed: " + detail::joinNames(actions));
            continue;
        }
        const auto pj = value.number();
        if (pj && *pj < 0)
            value.error("energy " + detail::formatNumber(*pj) + " pJ is negative; it must be >= 0 pJ");
        else if (pj && !energyAllowed(*pj))
            value.error("energy " + detail::formatNumber(*pj) + " pJ is too large; " +
                        std::string(kEnergyRule));
        else if (pj)
            table.set(action, *pj);
    }
    return table;
}

// `instances` of a level or the compute: positive, a multiple of the level above's (every instance
// above feeds the same number of instances below), and divisible by `mesh_x` when that is given.
void readInstances(const YamlReader& r, std::int64_t above, std::int64_t& instances, std::int64_t& meshX)
{
    if (const auto node = r.require("instances", "copies in the whole accelerator, a positive integer"))
        if (const auto v = node->integerAtLeast(1, "a positive integer (copies in the whole accelerator)")) {
            instances = *v;
            if (instances % above != 0)
                node->error("instances (" + std::to_string(instances) +
                            ") must be a multiple of the level above's (" + std::to_string(above) +
                            ") so that every instance above feeds the same number");
        }
    if (const auto node = r.get("mesh_x"))
        if (const auto v = node->integerAtLeast(1, "a positive integer (columns of the instance grid)")) {
            meshX = *v;
            if (instances % meshX != 0)
                node->error("mesh_x (" + std::to_string(meshX) + ") must divide instances (" +
                            std::to_string(instances) + ")");
        }
}

int readWordBits(const YamlReader& r, std::string_view key, int fallback)
{
    const auto node =
        key == "word_bits" ? r.require(key, "bits per data word, a positive integer") : r.get(key);
    if (!node)
        return fallback;
    const auto v = node->integerAtLeast(1, "a positive integer (bits per word)");
    if (v && *v > 4096)
        node->error("word width " + std::to_string(*v) + " is too large; at most 4096 bits");
    return v && *v <= 4096 ? static_cast<int>(*v) : fallback;
}

enum class CapacityKind { Outermost, OnChip, Metadata };

std::int64_t readCapacity(const YamlReader& node, int wordBits, CapacityKind kind)
{
    const auto text = node.text();
    if (!text)
        return 0;
    const auto parsed = detail::parseCapacityBits(*text, wordBits);
    if (!parsed.value)
        node.error(parsed.error);
    else if (*parsed.value == 0 && kind == CapacityKind::OnChip)
        node.error("only the outermost level may be `unbounded`; give " +
                   std::string(detail::kCapacityForms));
    else if (*parsed.value == 0 && kind == CapacityKind::Metadata)
        node.error("a separate metadata store needs a size; omit metadata_capacity to share `capacity`");
    return parsed.value.value_or(0);
}

double readBandwidth(const YamlReader& node, int wordBits, double clockGHz)
{
    const auto text = node.text();
    if (!text)
        return 0;
    const auto parsed = detail::parseBandwidthWordsPerCycle(*text, wordBits, clockGHz);
    if (!parsed.value) {
        node.error(parsed.error);
        return 0;
    }
    if (!std::isfinite(*parsed.value)) {
        node.error("bandwidth `" + *text + "` is too large; give " + std::string(detail::kBandwidthForms));
        return 0;
    }
    if (*parsed.value < 0) {
        node.error("bandwidth `" + *text +
                   "` is negative; it must be >= 0: " + std::string(detail::kBandwidthForms));
        return 0;
    }
    if (!bandwidthAllowed(*parsed.value)) {
        node.error("bandwidth `" + *text + "` is " + detail::formatNumber(*parsed.value) + " words/cycle; " +
                   std::string(kBandwidthRule));
        return 0;
    }
    return *parsed.value;
}

StorageLevel readLevel(const YamlReader& r, std::size_t index, std::int64_t above, double clockGHz)
{
    StorageLevel level;
    if (!r.expectMap(
            "a storage level {name, technology, instances, capacity, word_bits, read_bandwidth, energy}"))
        return level;
    r.checkKeys({"name", "technology", "instances", "mesh_x", "capacity", "metadata_capacity", "word_bits",
                 "metadata_word_bits", "block_size", "read_bandwidth", "write_bandwidth", "energy"});
    if (const auto name = r.require("name", "the level's name, e.g. GLB"))
        level.name = name->text().value_or("");
    if (const auto technology = r.get("technology"))
        level.technology = technology->choice("technology", kTechnologies).value_or(level.technology);
    readInstances(r, above, level.instances, level.meshX);
    level.wordBits = readWordBits(r, "word_bits", 8);
    level.metadataWordBits = readWordBits(r, "metadata_word_bits", level.wordBits);
    if (const auto capacity =
            r.require("capacity", std::string(detail::kCapacityForms) + ", or `unbounded` for the "
                                                                        "outermost level"))
        level.capacityBits = readCapacity(*capacity, level.wordBits,
                                          index == 0 ? CapacityKind::Outermost : CapacityKind::OnChip);
    if (const auto capacity = r.get("metadata_capacity"))
        level.metadataCapacityBits = readCapacity(*capacity, level.metadataWordBits, CapacityKind::Metadata);
    if (const auto block = r.get("block_size")) {
        const auto words = block->integerAtLeast(1, "a positive integer (words per physical access)");
        if (words && *words > 1'000'000)
            block->error("block size " + std::to_string(*words) + " is too large; at most 1000000 words");
        else if (words)
            level.blockSize = static_cast<int>(*words);
    }
    if (const auto bw = r.require("read_bandwidth", detail::kBandwidthForms))
        level.readBandwidth = readBandwidth(*bw, level.wordBits, clockGHz);
    level.writeBandwidth = level.readBandwidth;
    if (const auto bw = r.get("write_bandwidth"))
        level.writeBandwidth = readBandwidth(*bw, level.wordBits, clockGHz);
    level.energy = readEnergy(r, names(storageActionNames()));
    return level;
}

ComputeUnit readCompute(const YamlReader& r, std::int64_t above)
{
    ComputeUnit compute;
    if (!r.expectMap("the compute unit {name, instances, word_bits, energy}"))
        return compute;
    r.checkKeys({"name", "instances", "mesh_x", "word_bits", "energy"});
    if (const auto name = r.get("name"))
        compute.name = name->text().value_or(compute.name);
    readInstances(r, above, compute.instances, compute.meshX);
    compute.wordBits = readWordBits(r, "word_bits", 8);
    compute.energy = readEnergy(r, names(computeActionNames()));
    return compute;
}

Architecture readArchitecture(const YamlReader& a)
{
    Architecture arch;
    a.checkKeys({"name", "clock_ghz", "levels", "compute"});
    if (const auto name = a.require("name", "the architecture's name"))
        arch.name = name->text().value_or("");
    if (const auto clock = a.get("clock_ghz")) {
        const auto ghz = clock->number();
        if (ghz && !(*ghz > 0))
            clock->error("clock " + detail::formatNumber(*ghz) + " GHz must be positive");
        else if (ghz)
            arch.clockGHz = *ghz;
    }
    std::int64_t above = 1;
    const auto levels = a.require("levels", "a list of storage levels, outer (DRAM) to inner");
    if (levels && levels->expectSequence("a list of storage levels, outer (DRAM) to inner")) {
        for (const auto& item : levels->items()) {
            arch.levels.push_back(readLevel(item, arch.levels.size(), above, arch.clockGHz));
            above = arch.levels.back().instances;
        }
        if (arch.levels.size() < 2)
            levels->error("an architecture needs at least two storage levels (a backing store and a buffer)");
        if (arch.levels.size() > static_cast<std::size_t>(kMaxStorageLevels))
            levels->error("has " + std::to_string(arch.levels.size()) + " storage levels; at most " +
                          std::to_string(kMaxStorageLevels) + " are supported");
    }
    if (const auto compute = a.require("compute", "the compute unit {name, instances, word_bits, energy}"))
        arch.compute = readCompute(*compute, above);
    // The semantic checks shared with architectures built in code, once every field read well (after a
    // field error they would mostly repeat it without its position).
    if (a.sink().empty())
        for (const auto& problem : architectureProblems(arch))
            a.error(problem);
    return arch;
}

} // namespace

Architecture parseArchitectureYaml(const std::string& text, const std::string& fileName)
{
    detail::DiagnosticSink sink(fileName);
    std::optional<Architecture> arch;
    if (const auto root = detail::loadYaml(text, sink))
        if (const auto a = detail::readDocument(*root, "architecture",
                                                "a map with name, clock_ghz, levels, compute", sink))
            arch = readArchitecture(*a);
    sink.throwIfAny();
    if (!arch) // every path that gives no architecture reports why; this is a safety net
        throw InputError(fileName + ": no architecture could be read");
    return *arch;
}

Architecture loadArchitectureFile(const std::string& path)
{
    return parseArchitectureYaml(readTextFile(path), path);
}

void saveArchitectureFile(const Architecture& arch, const std::string& path)
{
    writeTextFileAtomically(path, architectureToYaml(arch));
}

} // namespace sparsemap
