#include "mapping/mapping.hpp"

#include <numeric>

namespace sparsemap {

std::int64_t Mapping::product(int dim) const
{
    std::int64_t p = 1;
    for (const auto& level : levels)
        p *= level.bounds.at(dim);
    return p;
}

std::vector<MappingLevelSlot> mappingTemplate(const Architecture& arch)
{
    std::vector<MappingLevelSlot> slots;
    for (int s = 0; s < arch.levelCount(); ++s) {
        const std::string prefix = "L" + std::to_string(s + 1);
        slots.push_back({prefix + "_T", s, LoopKind::Temporal});
        if (s > 0 || arch.fanout(0) > 1) // the outermost level only when it feeds several instances
            slots.push_back({prefix + "_S", s, LoopKind::Spatial});
    }
    return slots;
}

Mapping trivialMapping(const Architecture& arch, const Workload& workload)
{
    Mapping m;
    const int d = static_cast<int>(workload.dims.size());
    for (const auto& slot : mappingTemplate(arch)) {
        MappingLevel level;
        level.name = slot.name;
        level.storageLevel = slot.storageLevel;
        level.kind = slot.kind;
        level.order.resize(d);
        std::iota(level.order.begin(), level.order.end(), 0);
        level.bounds.assign(d, 1);
        m.levels.push_back(std::move(level));
    }
    return m;
}

} // namespace sparsemap
