#include "model/microarch/validity.hpp"

#include "mapping/spatial_split.hpp"

#include <cmath>
#include <cstdio>

namespace sparsemap::model {

namespace {

std::string number(double x)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
}

bool usesSplits(const Mapping& mapping)
{
    for (const auto& level : mapping.levels)
        if (level.spatialXLoops >= 0)
            return true;
    return false;
}

} // namespace

std::string checkCapacityAndFanout(const SparseContext& c, const EvaluationResult& result)
{
    const auto& arch = c.arch;
    const int levels = arch.levelCount();
    const bool meshChecks = usesSplits(c.design.mapping);
    // A mapping without splits (the genome's) is one Timeloop can place when every spatial level's
    // loops split into an X and a Y part that fit the grid block below it.
    if (!meshChecks)
        for (const auto& level : c.design.mapping.levels) {
            if (level.kind != LoopKind::Spatial)
                continue;
            const GridFanout fan = gridFanout(arch, level.storageLevel);
            if (!spatialSplitDims(level, fan)) {
                double product = 1;
                for (auto b : level.bounds)
                    product *= static_cast<double>(b);
                return "spatial loops of " + level.name + " (product " + number(product) +
                       ") split into no X x Y that fits the " + number(static_cast<double>(fan.x)) + " x " +
                       number(static_cast<double>(fan.y)) + " grid block below " +
                       arch.levels[level.storageLevel].name + " (Timeloop's mesh)";
            }
        }
    // Fan-out: instances the mapping needs below every level.
    for (int s = 0; s < levels; ++s) {
        const bool last = s + 1 == levels;
        const double needed = last ? result.compute.maxInstances : result.levels[s + 1].maxInstances;
        const double available =
            static_cast<double>(last ? arch.compute.instances : arch.levels[s + 1].instances);
        const std::string below = last ? arch.compute.name : arch.levels[s + 1].name;
        if (needed > available + 0.5)
            return "spatial fan-out exceeded below " + arch.levels[s].name + ": the mapping uses " +
                   number(needed) + " " + below + " instances, the architecture has " + number(available);
        // Per instance: the children one instance of this level feeds.
        double fanout = c.dense.levels[s].fanout;
        if (needed < (last ? c.dense.spatialInstances : c.dense.levels[s + 1].instances))
            fanout *= needed / (last ? c.dense.spatialInstances : c.dense.levels[s + 1].instances);
        if (fanout > static_cast<double>(arch.fanout(s)) + 0.5)
            return "spatial fan-out exceeded at " + arch.levels[s].name +
                   ": the mapping spreads its tile over " + number(fanout) + " " + below +
                   " per instance, the architecture has " + number(static_cast<double>(arch.fanout(s)));
        const auto meshX = last ? arch.compute.meshX : arch.levels[s + 1].meshX;
        if (meshChecks && meshX > 0 &&
            needed == (last ? c.dense.spatialInstances : c.dense.levels[s + 1].instances)) {
            const double x = last ? c.dense.computeX : c.dense.levels[s + 1].xExpansion;
            const double y = last ? c.dense.computeY : c.dense.levels[s + 1].yExpansion;
            const double meshY = available / static_cast<double>(meshX);
            if (x > static_cast<double>(meshX) + 0.5 || y > meshY + 0.5)
                return "spatial fan-out exceeded below " + arch.levels[s].name + ": the mapping spreads " +
                       number(x) + " x " + number(y) + " over a " + number(static_cast<double>(meshX)) +
                       " x " + number(meshY) + " grid of " + below;
        }
    }
    // Capacity: data and metadata of every kept tile at the occupancy confidence.
    for (int s = 0; s < levels; ++s) {
        const auto& spec = arch.levels[s];
        if (spec.unbounded())
            continue;
        double dataWords = 0, metadataBits = 0;
        for (const auto& t : result.levels[s].tensors)
            if (t.kept) {
                dataWords += t.maxDataWords;
                metadataBits += t.maxMetadataBits;
            }
        const double capacityWords = static_cast<double>(spec.capacityWords());
        if (spec.metadataCapacityBits > 0) {
            if (dataWords > capacityWords)
                return "capacity exceeded at " + spec.name + ": the tiles need " + number(dataWords) +
                       " data words, the level holds " + number(capacityWords);
            if (std::ceil(metadataBits) > static_cast<double>(spec.metadataCapacityBits))
                return "metadata capacity exceeded at " + spec.name + ": the formats need " +
                       number(std::ceil(metadataBits)) + " bits, the level holds " +
                       number(static_cast<double>(spec.metadataCapacityBits));
        } else {
            const double metadataWords = std::ceil(metadataBits / spec.wordBits);
            if (dataWords + metadataWords > capacityWords)
                return "capacity exceeded at " + spec.name + ": the tiles need " +
                       number(dataWords + metadataWords) + " words (data " + number(dataWords) +
                       " + metadata " + number(metadataWords) + "), the level holds " + number(capacityWords);
        }
    }
    return {};
}

} // namespace sparsemap::model
