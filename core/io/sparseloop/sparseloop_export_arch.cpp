// The architecture as a v0.3 tree without compound components, and its ERT (the inverse of
// sparseloop_arch_reader.cpp and sparseloop_ert_reader.cpp).
#include "io/sparseloop/sparseloop_export.hpp"

#include "io/sparseloop/sparseloop_writers.hpp"
#include "io/units.hpp"

namespace sparsemap::detail {

void sparseloopExportError(const std::string& message)
{
    throw InputError("cannot write the Sparseloop case: " + message);
}

namespace {

// Timeloop derives component names from these characters (instance ranges, the dotted ERT path).
void checkName(const std::string& name, const std::string& what)
{
    if (name.find_first_of(".[]") != std::string::npos)
        sparseloopExportError(what + " `" + name +
                              "` contains `.`, `[` or `]`, which Timeloop reads as part of "
                              "the hierarchy; rename it");
}

std::string range(std::int64_t count)
{
    return count > 1 ? "[0.." + std::to_string(count - 1) + "]" : std::string{};
}

void emitNumber(YAML::Emitter& out, const char* key, double value)
{
    out << YAML::Key << key << YAML::Value << formatNumber(value);
}

void emitStorage(YAML::Emitter& out, const StorageLevel& level, const SparseloopLevelExtras& extras,
                 const std::string& localName)
{
    const bool dram = level.technology == "DRAM", regfile = level.technology == "regfile";
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << localName;
    out << YAML::Key << "class" << YAML::Value << (dram ? "DRAM" : regfile ? "regfile" : "SRAM");
    out << YAML::Key << "attributes" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "datawidth" << YAML::Value << level.wordBits;
    if (extras.clusterSize != 1)
        out << YAML::Key << "cluster-size" << YAML::Value << extras.clusterSize;
    // width / depth when the capacity is whole blocks (the reader derives the block size from them),
    // block_size / entries otherwise.
    const std::int64_t blockBits = std::int64_t{level.blockSize} * level.wordBits;
    if (level.capacityBits % blockBits == 0) {
        out << YAML::Key << "width" << YAML::Value << blockBits * extras.clusterSize;
        if (level.capacityBits > 0)
            out << YAML::Key << "depth" << YAML::Value << level.capacityBits / blockBits;
    } else if (level.capacityBits % level.wordBits == 0) {
        out << YAML::Key << "block_size" << YAML::Value << level.blockSize;
        out << YAML::Key << "entries" << YAML::Value << level.capacityBits / level.wordBits;
    } else {
        sparseloopExportError("the capacity of `" + level.name + "` is not a whole number of " +
                              std::to_string(level.wordBits) + "-bit words");
    }
    // The metadata width as it was read (0 = absent, then the reader falls back to the word width).
    const bool writeWidth = extras.metadataStorageWidthBits > 0 || level.metadataWordBits != level.wordBits ||
                            level.metadataCapacityBits > 0;
    if (writeWidth)
        out << YAML::Key << "metadata_storage_width" << YAML::Value << level.metadataWordBits;
    if (level.metadataCapacityBits > 0) {
        if (level.metadataCapacityBits % level.metadataWordBits != 0)
            sparseloopExportError("the metadata capacity of `" + level.name + "` is not a whole number of " +
                                  std::to_string(level.metadataWordBits) + "-bit metadata words");
        out << YAML::Key << "metadata_storage_depth" << YAML::Value
            << level.metadataCapacityBits / level.metadataWordBits;
    }
    if (extras.compressionSupported) {
        out << YAML::Key << "decompression_supported" << YAML::Value << true;
        out << YAML::Key << "compression_supported" << YAML::Value << true;
    }
    if (extras.defaultMetadataWordBits >= 0)
        out << YAML::Key << "metadata_datawidth" << YAML::Value << extras.defaultMetadataWordBits;
    if (level.readBandwidth > 0)
        emitNumber(out, "read_bandwidth", level.readBandwidth);
    if (level.writeBandwidth > 0)
        emitNumber(out, "write_bandwidth", level.writeBandwidth);
    if (extras.multipleBuffering != 1.0)
        emitNumber(out, "multiple-buffering", extras.multipleBuffering);
    if (level.meshX > 0)
        out << YAML::Key << "meshX" << YAML::Value << level.meshX;
    out << YAML::EndMap << YAML::EndMap;
}

void emitCompute(YAML::Emitter& out, const ComputeUnit& compute, const std::string& localName)
{
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << localName;
    out << YAML::Key << "class" << YAML::Value << "compute";
    out << YAML::Key << "attributes" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "datawidth" << YAML::Value << compute.wordBits;
    if (compute.meshX > 0)
        out << YAML::Key << "meshX" << YAML::Value << compute.meshX;
    out << YAML::EndMap << YAML::EndMap;
}

void emitNode(YAML::Emitter& out, const SparseloopCase& c, const SparseloopTree& tree, std::size_t index)
{
    const auto& arch = c.architecture;
    const auto& node = tree.nodes[index];
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << node.name;
    if (!node.components.empty()) {
        out << YAML::Key << "local" << YAML::Value << YAML::BeginSeq;
        for (int i : node.components) {
            if (i == arch.levelCount())
                emitCompute(out, arch.compute, tree.componentNames[i]);
            else
                emitStorage(out, arch.levels[i],
                            c.levels.size() > static_cast<std::size_t>(i) ? c.levels[i]
                                                                          : SparseloopLevelExtras{},
                            tree.componentNames[i]);
        }
        out << YAML::EndSeq;
    }
    if (index + 1 < tree.nodes.size()) {
        out << YAML::Key << "subtree" << YAML::Value << YAML::BeginSeq;
        emitNode(out, c, tree, index + 1);
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
}

} // namespace

SparseloopTree sparseloopTree(const Architecture& arch)
{
    checkName(arch.name, "the architecture name");
    SparseloopTree tree;
    tree.nodes.push_back({arch.name, {}});
    std::vector<std::string> path{arch.name};
    std::int64_t multiplier = 1;
    const int n = arch.levelCount();
    for (int i = 0; i <= n; ++i) {
        const bool compute = i == n;
        const std::string& name = compute ? arch.compute.name : arch.levels[i].name;
        checkName(name, compute ? "the compute name" : "the level name");
        const std::int64_t instances = compute ? arch.compute.instances : arch.levels[i].instances;
        if (instances <= 0 || instances % multiplier != 0)
            sparseloopExportError("the instances of `" + name + "` (" + std::to_string(instances) +
                                  ") are not a multiple of the level above's (" + std::to_string(multiplier) +
                                  ")");
        std::string local = name;
        if (compute) { // the compute's own range; a storage level's copies get a tree node
            local += range(instances / multiplier);
        } else if (instances > multiplier) {
            tree.nodes.push_back({name + "_array" + range(instances / multiplier), {}});
            path.push_back(tree.nodes.back().name);
            multiplier = instances;
        }
        tree.nodes.back().components.push_back(i);
        tree.componentNames.push_back(local);
        std::string full;
        for (const auto& part : path)
            full += part + ".";
        tree.ertNames.push_back(full + local);
    }
    return tree;
}

void emitSparseloopArchitecture(YAML::Emitter& out, const SparseloopCase& c)
{
    const SparseloopTree tree = sparseloopTree(c.architecture);
    out << YAML::BeginMap << YAML::Key << "version" << YAML::Value << "0.3";
    out << YAML::Key << "subtree" << YAML::Value << YAML::BeginSeq;
    emitNode(out, c, tree, 0);
    out << YAML::EndSeq << YAML::EndMap;
}

} // namespace sparsemap::detail

namespace sparsemap {

std::string sparseloopErtYaml(const SparseloopCase& c)
{
    const auto tree = detail::sparseloopTree(c.architecture);
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "ERT" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "version" << YAML::Value << "0.3";
    out << YAML::Key << "tables" << YAML::Value << YAML::BeginSeq;
    const int n = c.architecture.levelCount();
    for (int i = 0; i <= n; ++i) {
        const EnergyTable& energy = i == n ? c.architecture.compute.energy : c.architecture.levels[i].energy;
        out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << tree.ertNames[i];
        out << YAML::Key << "actions" << YAML::Value << YAML::BeginSeq;
        for (const auto& [action, pj] : energy.entries())
            out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << action << YAML::Key << "arguments"
                << YAML::Value << YAML::Null << YAML::Key << "energy" << YAML::Value
                << detail::formatNumber(pj) << YAML::EndMap;
        out << YAML::EndSeq << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace sparsemap
