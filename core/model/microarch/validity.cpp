#include "model/microarch/validity.hpp"

#include "mapping/spatial_split.hpp"
#include "mapping/tile_shape.hpp"
#include "util/rounding.hpp"

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

} // namespace

std::string fanoutProblem(const SparseContext& c, const EvaluationResult& result)
{
    const auto& arch = c.arch;
    const int levels = arch.levelCount();
    // Fan-out: instances the mapping needs below every level.
    for (int s = 0; s < levels; ++s) {
        const bool last = s + 1 == levels;
        const double needed = last ? result.compute.maxInstances : result.levels[s + 1].maxInstances;
        const double available =
            static_cast<double>(last ? arch.compute.instances : arch.levels[s + 1].instances);
        const std::string below = last ? arch.compute.name : arch.levels[s + 1].name;
        if (countExceeds(needed, available))
            return "spatial fan-out exceeded below " + arch.levels[s].name + ": the mapping uses " +
                   number(needed) + " " + below + " instances, the architecture has " + number(available);
        // Per instance: the children one instance of this level feeds.
        double fanout = c.dense.levels[s].fanout;
        if (needed < (last ? c.dense.spatialInstances : c.dense.levels[s + 1].instances))
            fanout *= needed / (last ? c.dense.spatialInstances : c.dense.levels[s + 1].instances);
        if (countExceeds(fanout, static_cast<double>(arch.fanout(s))))
            return "spatial fan-out exceeded at " + arch.levels[s].name +
                   ": the mapping spreads its tile over " + number(fanout) + " " + below +
                   " per instance, the architecture has " + number(static_cast<double>(arch.fanout(s)));
    }
    // Timeloop's mesh: the X and Y expansion above every level within its meshX x meshY (a genome has
    // no split; its mapping is one Timeloop can place when some split of every spatial level fits).
    // Spatial skipping shrinks the expansion Sparseloop checks; a level it shrinks is not checked.
    bool skipped = false;
    for (int t = 1; t <= levels; ++t) {
        const double needed = t == levels ? result.compute.maxInstances : result.levels[t].maxInstances;
        const double dense = t == levels ? c.dense.spatialInstances : c.dense.levels[t].instances;
        skipped = skipped || needed < dense;
    }
    if (skipped) {
        for (int t = 1; t <= levels; ++t) {
            const double needed = t == levels ? result.compute.maxInstances : result.levels[t].maxInstances;
            const double dense = t == levels ? c.dense.spatialInstances : c.dense.levels[t].instances;
            const auto meshX = t == levels ? arch.compute.meshX : arch.levels[t].meshX;
            if (needed < dense || meshX <= 0)
                continue;
            const Mesh mesh = timeloopMesh(arch, t);
            const double x = t == levels ? c.dense.computeX : c.dense.levels[t].xExpansion;
            const double y = t == levels ? c.dense.computeY : c.dense.levels[t].yExpansion;
            if (countExceeds(x, static_cast<double>(mesh.x)) || countExceeds(y, static_cast<double>(mesh.y)))
                return "spatial fan-out exceeded below " + arch.levels[t - 1].name +
                       ": the mapping spreads " + number(x) + " x " + number(y) + " over a " +
                       number(static_cast<double>(mesh.x)) + " x " + number(static_cast<double>(mesh.y)) +
                       " grid of " + (t == levels ? arch.compute.name : arch.levels[t].name);
        }
    }
    bool allAlongXFits = !skipped; // the common case, checked without building the split search
    for (const auto& level : c.design.mapping.levels)
        allAlongXFits = allAlongXFits && (level.kind != LoopKind::Spatial || level.spatialXLoops < 0);
    allAlongXFits = allAlongXFits && spatialLoopsFitAlongX(arch, c.design.mapping);
    if (!allAlongXFits && !skipped && !spatialSplitFits(arch, c.design.mapping)) {
        const auto spatial = spatialLoopsOf(c.design.mapping);
        std::string what;
        for (std::size_t i = 0; i < spatial.size(); ++i) {
            double product = 1;
            for (auto b : spatial[i].bounds)
                product *= static_cast<double>(b);
            what += (i ? ", " : "") + arch.levels[spatial[i].storageLevel].name + " " + number(product);
        }
        std::string meshes;
        for (int t = 1; t <= levels; ++t) {
            const Mesh m = timeloopMesh(arch, t);
            meshes += (t > 1 ? ", " : "") + (t == levels ? arch.compute.name : arch.levels[t].name) + " " +
                      number(static_cast<double>(m.x)) + " x " + number(static_cast<double>(m.y));
        }
        return "spatial loops (fan-out below " + what +
               ") split into no X x Y that fits Timeloop's meshes (" + meshes + ")";
    }
    return {};
}

std::string capacityProblem(const Architecture& arch, const EvaluationResult& result)
{
    // Data and metadata of every kept tile at the occupancy confidence.
    const int levels = arch.levelCount();
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

bool dataFitsCapacity(const Workload& workload, const Architecture& arch, const Mapping& mapping,
                      const std::vector<std::vector<TensorFormat>>& formats,
                      std::span<const std::shared_ptr<const DensityModel>> density, double confidence)
{
    const int dims = static_cast<int>(workload.dims.size());
    for (int s = 0; s < arch.levelCount(); ++s) {
        const auto& spec = arch.levels[s];
        if (spec.unbounded())
            continue;
        // Reused buffers: the search asks this of every genome before evaluating it.
        thread_local std::vector<std::int64_t> dimTiles, extents;
        dimTileSizesInto(mapping, dims, s, dimTiles);
        double words = 0;
        for (int t = 0; t < static_cast<int>(workload.tensors.size()); ++t) {
            if (!mapping.holds(s, t))
                continue;
            rankExtentsInto(workload, t, dimTiles, extents);
            const bool metadata = static_cast<std::size_t>(s) < formats.size() &&
                                  static_cast<std::size_t>(t) < formats[s].size() &&
                                  formats[s][t].hasMetadata();
            words += static_cast<double>(
                metadata ? density[static_cast<std::size_t>(t)]->maxOccupancy(extents, confidence)
                         : sparsemap::tileVolume(extents));
        }
        if (words > static_cast<double>(spec.capacityWords()))
            return false;
    }
    return true;
}

} // namespace sparsemap::model
