#include "arch/energy_table.hpp"

#include <array>

namespace sparsemap {

void EnergyTable::set(const std::string& action, double energyPj)
{
    for (auto& [name, value] : m_entries)
        if (name == action) {
            value = energyPj;
            return;
        }
    m_entries.emplace_back(action, energyPj);
}

std::optional<double> EnergyTable::find(std::string_view action) const
{
    for (const auto& [name, value] : m_entries)
        if (name == action)
            return value;
    return std::nullopt;
}

double EnergyTable::energyPj(std::string_view action) const
{
    return find(action).value_or(0.0);
}

std::span<const std::string_view> storageActionNames()
{
    static constexpr std::array<std::string_view, 14> kNames{"read",
                                                             "write",
                                                             "gated_read",
                                                             "gated_write",
                                                             "metadata_read",
                                                             "metadata_write",
                                                             "gated_metadata_read",
                                                             "gated_metadata_write",
                                                             "skipped_read",
                                                             "skipped_write",
                                                             "skipped_metadata_read",
                                                             "skipped_metadata_write",
                                                             "decompression_count",
                                                             "compression_count"};
    return kNames;
}

std::span<const std::string_view> computeActionNames()
{
    static constexpr std::array<std::string_view, 3> kNames{"mac_random", "mac_gated", "mac_skipped"};
    return kNames;
}

} // namespace sparsemap
