#include "mapping/mapping_checks.hpp"

#include "mapping/spatial_fanout.hpp"
#include "util/limits.hpp"

namespace sparsemap {

std::string mappingStructureProblem(const Mapping& mapping, const Workload& workload,
                                    const Architecture& arch)
{
    const int dims = static_cast<int>(workload.dims.size());
    const int levels = arch.levelCount();
    // Evaluated for every design a search scores: no allocation unless there is a problem to report.
    auto who = [](const MappingLevel& level) { return "mapping level " + level.name; };
    for (const auto& level : mapping.levels) {
        if (level.storageLevel < 0 || level.storageLevel >= levels)
            return who(level) + " refers to storage level " + std::to_string(level.storageLevel) +
                   ", the architecture has " + std::to_string(levels);
        if (static_cast<int>(level.bounds.size()) != dims || static_cast<int>(level.order.size()) != dims)
            return who(level) + " has " + std::to_string(level.bounds.size()) + " bounds and " +
                   std::to_string(level.order.size()) + " loops, the workload has " + std::to_string(dims) +
                   " dims";
        std::uint32_t seen = 0; // dims <= kMaxDims = 32
        for (int d : level.order) {
            if (d < 0 || d >= dims || ((seen >> d) & 1u))
                return who(level) + "'s loop order is not a permutation of the workload's " +
                       std::to_string(dims) + " dims";
            seen |= 1u << d;
        }
        for (auto b : level.bounds)
            if (b < 1)
                return who(level) + " has a loop bound below 1";
    }
    for (int d = 0; d < dims; ++d) {
        std::int64_t product = 1;
        for (const auto& level : mapping.levels)
            product = saturatingMul(product, level.bounds[static_cast<std::size_t>(d)]);
        if (product != workload.dims[static_cast<std::size_t>(d)].size)
            return "the loop bounds of " + workload.dims[static_cast<std::size_t>(d)].name + " multiply to " +
                   std::to_string(product) + ", not its size " +
                   std::to_string(workload.dims[static_cast<std::size_t>(d)].size);
    }
    return {};
}

std::string mappingPreCheck(const Mapping& mapping, const Workload& workload, const Architecture& arch)
{
    if (auto problem = mappingStructureProblem(mapping, workload, arch); !problem.empty())
        return problem;
    return spatialFanoutProblem(arch, spatialLoopsOf(mapping));
}

} // namespace sparsemap
