// architectureToYaml (declared in architecture_io.hpp). Every field is written, defaults included,
// so a saved file documents the whole level; bandwidths as plain words per cycle (exact, no clock
// round trip) and capacities in the largest binary unit that divides them.
#include "io/architecture_io.hpp"
#include "io/units.hpp"

#include <yaml-cpp/yaml.h>

namespace sparsemap {

namespace {

void emitEnergy(YAML::Emitter& out, const EnergyTable& energy)
{
    out << YAML::Key << "energy" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto& [action, pj] : energy.entries())
        out << YAML::Key << action << YAML::Value << detail::formatNumber(pj);
    out << YAML::EndMap;
}

void emitLevel(YAML::Emitter& out, const StorageLevel& level)
{
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << level.name;
    out << YAML::Key << "technology" << YAML::Value << level.technology;
    out << YAML::Key << "instances" << YAML::Value << level.instances;
    if (level.meshX > 0)
        out << YAML::Key << "mesh_x" << YAML::Value << level.meshX;
    out << YAML::Key << "capacity" << YAML::Value << detail::formatCapacity(level.capacityBits);
    if (level.metadataCapacityBits > 0)
        out << YAML::Key << "metadata_capacity" << YAML::Value
            << detail::formatCapacity(level.metadataCapacityBits);
    out << YAML::Key << "word_bits" << YAML::Value << level.wordBits;
    out << YAML::Key << "metadata_word_bits" << YAML::Value << level.metadataWordBits;
    out << YAML::Key << "block_size" << YAML::Value << level.blockSize;
    out << YAML::Key << "read_bandwidth" << YAML::Value << detail::formatNumber(level.readBandwidth);
    out << YAML::Key << "write_bandwidth" << YAML::Value << detail::formatNumber(level.writeBandwidth);
    emitEnergy(out, level.energy);
    out << YAML::EndMap;
}

} // namespace

std::string architectureToYaml(const Architecture& arch)
{
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "version" << YAML::Value << 1;
    out << YAML::Key << "architecture" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << arch.name;
    out << YAML::Key << "clock_ghz" << YAML::Value << detail::formatNumber(arch.clockGHz);
    out << YAML::Key << "levels" << YAML::Value << YAML::BeginSeq;
    for (const auto& level : arch.levels)
        emitLevel(out, level);
    out << YAML::EndSeq;
    const ComputeUnit& c = arch.compute;
    out << YAML::Key << "compute" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << c.name;
    out << YAML::Key << "instances" << YAML::Value << c.instances;
    if (c.meshX > 0)
        out << YAML::Key << "mesh_x" << YAML::Value << c.meshX;
    out << YAML::Key << "word_bits" << YAML::Value << c.wordBits;
    emitEnergy(out, c.energy);
    out << YAML::EndMap;
    out << YAML::EndMap << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace sparsemap
