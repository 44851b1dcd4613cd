// ERT.yaml -> the energy tables of the architecture (model-notes-dataflow §1.2). A table belongs to
// the level (or compute) named by the last dotted part of its name without ranges. The values are
// copied as they are: Sparseloop's ERT gives the energy of one vector (block) access, and Timeloop's
// fallbacks between actions (fills and updates cost `write`, skipped costs gated) are the model's job.
#include "io/sparseloop/sparseloop_readers.hpp"

#include "arch/architecture.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace sparsemap::detail {

namespace {

// The actions kept: the ones our energy tables name, Sparseloop's skipped_* actions (skipped falls
// back to gated only when they are absent) and the (de)compression counts. Others (`idle`, `leak`,
// Accelergy's internal actions) are not used by Timeloop's model and are dropped with a note.
bool keptAction(const std::string& action, bool compute)
{
    const auto names = compute ? computeActionNames() : storageActionNames();
    if (std::find(names.begin(), names.end(), action) != names.end())
        return true;
    // The other names Timeloop's fallback lists consult (model/microarch/energy_costs.cpp).
    static const std::vector<std::string_view> kStorage{"idle",
                                                        "metadata_idle",
                                                        "random_read",
                                                        "random_fill",
                                                        "random_update",
                                                        "gated_fill",
                                                        "gated_update",
                                                        "skipped_fill",
                                                        "skipped_update",
                                                        "random_metadata_read",
                                                        "random_metadata_fill",
                                                        "random_metadata_update",
                                                        "gated_metadata_fill",
                                                        "gated_metadata_update",
                                                        "skipped_metadata_fill",
                                                        "skipped_metadata_update"};
    static const std::vector<std::string_view> kCompute{
        "mult_random", "mac",           "mult",         "compute",
        "mult_gated",  "compute_gated", "mult_skipped", "compute_skipped"};
    const auto& more = compute ? kCompute : kStorage;
    if (std::find(more.begin(), more.end(), action) != more.end())
        return true;
    return !compute && (action.rfind("skipped_", 0) == 0 || action == "decompression_count" ||
                        action == "compression_count");
}

void readTable(const YamlReader& table, const std::string& component, EnergyTable& energy, bool compute,
               SparseloopCase& out)
{
    const auto actions = table.require("actions", "the component's actions, a list of {name, energy}");
    if (!actions || !actions->expectSequence("the component's actions"))
        return;
    for (const auto& action : actions->items()) {
        const auto nameNode = action.require("name", "the action's name");
        const auto energyNode = action.require("energy", "the energy of one action in pJ");
        const auto name = nameNode ? nameNode->text() : std::nullopt;
        const auto pj = energyNode ? energyNode->number() : std::nullopt;
        if (!name || !pj)
            continue;
        if (*pj < 0) {
            energyNode->error("energy " + energyNode->node().Scalar() + " pJ is negative; it must be >= 0");
            continue;
        }
        if (!keptAction(*name, compute)) {
            addNote(out, "ERT " + component + "." + *name + " dropped (not an action the model charges)");
            continue;
        }
        if (!energyAllowed(*pj)) { // here, where the file and line are known
            energyNode->error("energy " + energyNode->node().Scalar() + " pJ is too large; " +
                              std::string(kEnergyRule));
            continue;
        }
        // Accelergy lists an action once per argument set (address_delta, data_delta, ...). Timeloop
        // (Topology::Specs::ParseAccelergyERT) charges every use of the action at the most expensive
        // of its entries, whatever the arguments; docs/model-notes-dataflow.md §1.2.
        if (const auto earlier = energy.find(*name)) {
            addNote(out, "ERT " + component + "." + *name +
                             " is listed once per argument set; charged at the largest, as Timeloop does");
            energy.set(*name, std::max(*earlier, *pj));
            continue;
        }
        energy.set(*name, *pj);
    }
}

} // namespace

void readSparseloopErt(const YamlReader& root, SparseloopCase& out)
{
    if (!root.expectMap("an energy reference table {ERT: {version, tables}}"))
        return;
    const auto ert = root.require("ERT", "the energy reference table {version, tables}");
    if (!ert || !ert->expectMap("the energy reference table {version, tables}"))
        return;
    const auto tables = ert->require("tables", "the per-component tables, a list of {name, actions}");
    if (!tables || !tables->expectSequence("the per-component tables"))
        return;
    Architecture& arch = out.architecture;
    std::vector<bool> found(arch.levels.size() + 1, false); // the last entry is the compute
    for (const auto& table : tables->items()) {
        const auto nameNode = table.require("name", "the component's full name, e.g. system.SM.RF");
        const auto name = nameNode ? nameNode->text() : std::nullopt;
        if (!name)
            continue;
        const std::string component = ertComponentName(*name);
        const int level = arch.levelIndex(component);
        const bool compute = level < 0 && component == arch.compute.name;
        if (level < 0 && !compute) {
            addNote(out, "ERT table `" + *name + "` matches no level or compute; ignored");
            continue;
        }
        const std::size_t slot = compute ? arch.levels.size() : static_cast<std::size_t>(level);
        if (found[slot]) {
            nameNode->error("a second ERT table for `" + component + "`; give one table per component");
            continue;
        }
        found[slot] = true;
        readTable(table, component, compute ? arch.compute.energy : arch.levels[slot].energy, compute, out);
    }
    for (std::size_t i = 0; i < found.size(); ++i)
        if (!found[i])
            tables->error(
                "no ERT table for `" + (i < arch.levels.size() ? arch.levels[i].name : arch.compute.name) +
                "` (tables are matched by the last part of their dotted name, without [..] ranges)");
}

} // namespace sparsemap::detail
