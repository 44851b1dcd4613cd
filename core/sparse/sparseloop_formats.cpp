#include "sparse/sparseloop_formats.hpp"

#include "mapping/tile_shape.hpp"
#include "sparse/rank_format.hpp"

namespace sparsemap {

void sparseloopFormatsInto(const Workload& workload, const Architecture& arch, const Design& design,
                           std::vector<std::vector<TensorFormat>>& out)
{
    out = design.sparse.formats;
    const int dims = static_cast<int>(workload.dims.size());
    std::vector<std::int64_t> single;
    for (std::size_t s = 0; s < out.size(); ++s)
        for (std::size_t t = 0; t < out[s].size(); ++t) {
            auto& format = out[s][t];
            if (!format.compressed()) {
                format.ranks.clear();
                continue;
            }
            const int storageWidth = arch.levels.at(s).metadataWordBits; // written as metadata_storage_width
            const auto tile = static_cast<double>(tileVolume(rankExtents(
                workload, static_cast<int>(t), dimTileSizes(design.mapping, dims, static_cast<int>(s)))));
            for (auto& r : format.ranks) {
                const bool bound = r.mappingLevel >= 0 && r.dim >= 0 && r.dim < dims &&
                                   r.mappingLevel < static_cast<int>(design.mapping.levels.size());
                if (bound) { // our genome's widths, written out (the fiber: the loop's extent in the tensor)
                    single.assign(static_cast<std::size_t>(dims), 1);
                    single[r.dim] = design.mapping.levels[r.mappingLevel].bounds[r.dim];
                    const auto fiber =
                        static_cast<double>(tileVolume(rankExtents(workload, static_cast<int>(t), single)));
                    const auto bits = genomeFormatWordBits(r.format, fiber, tile, storageWidth);
                    if (r.metadataBits < 0)
                        r.metadataBits = bits.metadata;
                    if (r.payloadBits < 0)
                        r.payloadBits = bits.payload;
                }
                if (r.format == RankFormat::U)
                    r.format = RankFormat::UOP; // with the U's 0-bit widths: Sparseloop has no `U`
            }
        }
}

} // namespace sparsemap
