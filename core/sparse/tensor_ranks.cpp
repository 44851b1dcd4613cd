#include "sparse/tensor_ranks.hpp"

namespace sparsemap {

void tensorRanksInto(const Workload& workload, const Mapping& mapping, int tensor, int storageLevel,
                     std::vector<FormatRank>& out)
{
    out.clear();
    // Which dims index the tensor, once (this runs for every tensor and level of every decode).
    const std::uint32_t relevant = workload.dimMask(tensor);
    for (int l = 0; l < mapping.levelCount(); ++l) {
        const auto& level = mapping.levels[l];
        if (level.storageLevel < storageLevel)
            continue;
        for (int dim : level.order)
            if (level.bounds[dim] > 1 && ((relevant >> dim) & 1u)) {
                FormatRank rank;
                rank.dim = dim;
                rank.mappingLevel = l;
                out.push_back(rank);
            }
    }
}

std::vector<FormatRank> tensorRanks(const Workload& workload, const Mapping& mapping, int tensor,
                                    int storageLevel)
{
    std::vector<FormatRank> ranks;
    tensorRanksInto(workload, mapping, tensor, storageLevel, ranks);
    return ranks;
}

std::string rankName(const Workload& workload, const FormatRank& rank)
{
    // Ranks imported from Sparseloop are declared without a loop (the model binds them): name the
    // dim when it is known, else "?", rather than index a dim that does not exist.
    const int dims = static_cast<int>(workload.dims.size());
    if (rank.dim < 0 || rank.dim >= dims)
        return "?";
    if (rank.mappingLevel < 0)
        return workload.dims[rank.dim].name;
    return workload.dims[rank.dim].name + std::to_string(rank.mappingLevel + 1);
}

} // namespace sparsemap
