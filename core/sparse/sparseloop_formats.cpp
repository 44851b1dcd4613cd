#include "sparse/sparseloop_formats.hpp"

#include "sparse/rank_format.hpp"

namespace sparsemap {

namespace {

// Coordinates of `tensor` spanned by the per-dim extents `dimTiles` (no allocation: this runs for
// every evaluation).
std::int64_t spannedVolume(const Workload& workload, int tensor, const std::vector<std::int64_t>& dimTiles)
{
    std::int64_t v = 1;
    for (const auto& rank : workload.tensors[static_cast<std::size_t>(tensor)].ranks) {
        std::int64_t extent = 1;
        for (const auto& term : rank)
            extent += term.coefficient * (dimTiles[static_cast<std::size_t>(term.dim)] - 1);
        v *= extent;
    }
    return v;
}

} // namespace

void sparseloopFormatsInto(const Workload& workload, const Architecture& arch, const Design& design,
                           std::vector<std::vector<TensorFormat>>& out)
{
    out.resize(design.sparse.formats.size());
    const int dims = static_cast<int>(workload.dims.size());
    thread_local std::vector<std::int64_t> dimTiles, single;
    for (std::size_t s = 0; s < out.size(); ++s) {
        out[s].resize(design.sparse.formats[s].size());
        dimTiles.assign(static_cast<std::size_t>(dims), 1);
        for (const auto& level : design.mapping.levels)
            if (level.storageLevel >= static_cast<int>(s))
                for (int d = 0; d < dims; ++d)
                    dimTiles[static_cast<std::size_t>(d)] *= level.bounds[static_cast<std::size_t>(d)];
        for (std::size_t t = 0; t < out[s].size(); ++t) {
            const auto& given = design.sparse.formats[s][t];
            auto& format = out[s][t];
            if (!given.compressed()) {
                format.ranks.clear();
                continue;
            }
            format.ranks.assign(given.ranks.begin(), given.ranks.end());
            const int storageWidth = arch.levels.at(s).metadataWordBits; // written as metadata_storage_width
            const auto tile = static_cast<double>(spannedVolume(workload, static_cast<int>(t), dimTiles));
            for (auto& r : format.ranks) {
                const bool bound = r.mappingLevel >= 0 && r.dim >= 0 && r.dim < dims &&
                                   r.mappingLevel < static_cast<int>(design.mapping.levels.size());
                if (bound) { // our genome's widths, written out (the fiber: the loop's extent in the tensor)
                    single.assign(static_cast<std::size_t>(dims), 1);
                    single[static_cast<std::size_t>(r.dim)] =
                        design.mapping.levels[static_cast<std::size_t>(r.mappingLevel)]
                            .bounds[static_cast<std::size_t>(r.dim)];
                    const auto fiber =
                        static_cast<double>(spannedVolume(workload, static_cast<int>(t), single));
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
}

} // namespace sparsemap
