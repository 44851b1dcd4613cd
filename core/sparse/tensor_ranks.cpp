#include "sparse/tensor_ranks.hpp"

namespace sparsemap {

void tensorRanksInto(const Workload& workload, const Mapping& mapping, int tensor, int storageLevel,
                     std::vector<FormatRank>& out)
{
    out.clear();
    for (int l = 0; l < mapping.levelCount(); ++l) {
        const auto& level = mapping.levels[l];
        if (level.storageLevel < storageLevel)
            continue;
        for (int dim : level.order)
            if (level.bounds[dim] > 1 && workload.indexes(tensor, dim)) {
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
    return workload.dims.at(rank.dim).name + std::to_string(rank.mappingLevel + 1);
}

} // namespace sparsemap
