#include "model/microarch/energy_costs.hpp"

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace sparsemap::model {

namespace {

double first(const EnergyTable& table, std::initializer_list<std::string_view> names, double fallback)
{
    for (auto name : names)
        if (auto value = table.find(name))
            return *value;
    return fallback;
}

double largest(const EnergyTable& table)
{
    double max = 0;
    for (const auto& [name, value] : table.entries())
        max = std::max(max, value);
    return max;
}

} // namespace

// The priority lists are Timeloop's (Sparseloop 2022, include/model/topology.hpp
// storageOperationMappings / arithmeticOperationMappings): the first name the table lists gives the
// energy. Note the generic entries: an `idle` entry prices gated and skipped data actions, a
// `metadata_idle` or else the actual metadata action prices gated and skipped metadata actions
// (docs/model-notes-dataflow.md §1.2).
LevelEnergyCosts resolveLevelEnergy(const StorageLevel& level)
{
    const EnergyTable& t = level.energy;
    const double vector = largest(t); // Timeloop's vector access energy: the data actions' default
    LevelEnergyCosts c;
    c.read.actual = first(t, {"random_read", "read"}, vector);
    c.fill.actual = first(t, {"random_fill", "write"}, vector);
    c.update.actual = first(t, {"random_update", "random_fill", "write"}, vector);
    c.read.gated = first(t, {"gated_read", "idle", "read"}, 0);
    c.fill.gated = first(t, {"gated_fill", "gated_write", "idle", "write"}, 0);
    c.update.gated = first(t, {"gated_update", "gated_write", "idle", "write"}, 0);
    c.read.skipped = first(t, {"skipped_read", "gated_read", "idle", "read"}, 0);
    c.fill.skipped = first(t, {"skipped_fill", "skipped_write", "gated_write", "idle", "write"}, 0);
    c.update.skipped = first(t, {"skipped_update", "skipped_write", "gated_write", "idle", "write"}, 0);
    c.metadataRead.actual = first(t, {"random_metadata_read", "metadata_read", "metadata_idle", "idle"}, 0);
    c.metadataFill.actual = first(t, {"random_metadata_fill", "metadata_write", "metadata_idle", "idle"}, 0);
    c.metadataUpdate.actual =
        first(t, {"random_metadata_update", "metadata_write", "metadata_idle", "idle"}, 0);
    c.metadataRead.gated = first(t, {"gated_metadata_read", "metadata_idle", "metadata_read"}, 0);
    c.metadataFill.gated =
        first(t, {"gated_metadata_fill", "gated_metadata_write", "metadata_idle", "metadata_write"}, 0);
    c.metadataUpdate.gated =
        first(t, {"gated_metadata_update", "gated_metadata_write", "metadata_idle", "metadata_write"}, 0);
    c.metadataRead.skipped = first(t, {"skipped_metadata_read", "metadata_idle", "metadata_read"}, 0);
    c.metadataFill.skipped =
        first(t, {"skipped_metadata_fill", "skipped_metadata_write", "metadata_idle", "metadata_write"}, 0);
    c.metadataUpdate.skipped =
        first(t, {"skipped_metadata_update", "skipped_metadata_write", "metadata_idle", "metadata_write"}, 0);
    return c;
}

ComputeEnergyCosts resolveComputeEnergy(const ComputeUnit& compute)
{
    const EnergyTable& t = compute.energy;
    ComputeEnergyCosts c;
    c.actual = first(t, {"mac_random", "mult_random", "mac", "mult", "compute"}, 0);
    c.gated = first(t, {"mac_gated", "mult_gated", "compute_gated", "mac", "mult", "compute"}, 0);
    c.skipped = first(t,
                      {"mac_skipped", "mult_skipped", "compute_skipped", "mac_gated", "mult_gated",
                       "compute_gated", "mac", "mult", "compute"},
                      0);
    return c;
}

} // namespace sparsemap::model
