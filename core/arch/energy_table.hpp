#pragma once
// Energy per action of one component, in the style of an Accelergy ERT. Action names follow
// Sparseloop: storage read, write, gated_read, gated_write, metadata_read, metadata_write,
// gated_metadata_read, gated_metadata_write; compute mac_random, mac_gated, mac_skipped.
// Storage energies are per physical access: a block of `block_size` words (1 in the presets) for
// data actions, one metadata word for metadata actions. A skipped action costs its gated
// counterpart unless a skipped_* entry is given (Timeloop's fallback, model/microarch/energy_costs).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sparsemap {

class EnergyTable {
public:
    void set(const std::string& action, double energyPj);
    // 0 when the action is not listed (Accelergy's convention for an action the component lacks).
    double energyPj(std::string_view action) const;
    std::optional<double> find(std::string_view action) const;
    const std::vector<std::pair<std::string, double>>& entries() const { return m_entries; }

    bool operator==(const EnergyTable&) const = default;

private:
    std::vector<std::pair<std::string, double>> m_entries; // in the order written
};

std::span<const std::string_view> storageActionNames();
std::span<const std::string_view> computeActionNames();

} // namespace sparsemap
