#pragma once
// A mapping: an ordered list of mapping levels (outer to inner), each a block of one loop per
// workload dimension with a bound and a loop order, tied to the storage level whose tile it walks.
// For the SparseMap template (DRAM -> GLB -> PE buffer -> MACs) the levels are
// L1_T (DRAM, temporal), L2_T (GLB, temporal), L2_S (GLB -> PEs, spatial), L3_T (PE buffer,
// temporal), L3_S (PE buffer -> MACs, spatial). A storage level holds the tile spanned by its own
// mapping levels and every level inside them.
#include "arch/architecture.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sparsemap {

enum class LoopKind { Temporal, Spatial };

struct MappingLevel {
    std::string name;     // e.g. "L2_S"
    int storageLevel = 0; // index into Architecture::levels
    LoopKind kind = LoopKind::Temporal;
    std::vector<int> order;           // dims, outer to inner (a permutation of 0..D-1)
    std::vector<std::int64_t> bounds; // per dim index
    // Spatial levels only: the innermost `spatialXLoops` loops of `order` spread along the X axis of
    // the instance grid, the others along Y (Timeloop's `split`); -1 = every loop along X.
    int spatialXLoops = -1;

    bool operator==(const MappingLevel&) const = default;
};

struct Mapping {
    std::vector<MappingLevel> levels; // outer to inner
    // keep[storage level][tensor]: whether the level stores the tensor (Timeloop's keep/bypass).
    // Empty = every level keeps every tensor, as in the SparseMap template.
    std::vector<std::vector<bool>> keep;
    // stream[storage level][tensor]: a bypassed tensor that still passes through the level's data
    // path and is charged there (Sparseloop's `stream` list). Empty = none.
    std::vector<std::vector<bool>> stream;

    bool keeps(int storageLevel, int tensor) const { return keep.empty() || keep[storageLevel][tensor]; }
    // Whether the level holds the tensor's tile: the outermost level (the backing store) holds every
    // tensor whatever `keep` says.
    bool holds(int storageLevel, int tensor) const
    {
        return storageLevel == 0 || keeps(storageLevel, tensor);
    }
    bool streams(int storageLevel, int tensor) const
    {
        return !stream.empty() && stream[storageLevel][tensor];
    }

    int levelCount() const { return static_cast<int>(levels.size()); }
    // Product of the bounds of `dim` over all mapping levels.
    std::int64_t product(int dim) const;
    bool operator==(const Mapping&) const = default;
};

// One slot of the mapping template derived from an architecture.
struct MappingLevelSlot {
    std::string name;
    int storageLevel = 0;
    LoopKind kind = LoopKind::Temporal;
};

// The mapping levels for an architecture: a temporal level for every storage level and a spatial
// level below every storage level but the outermost, which has one only when it feeds several
// instances of the next level (a Timeloop spatial directive at the backing store). For three storage
// levels under a single-instance backing store this gives the paper's five levels L1_T .. L3_S.
std::vector<MappingLevelSlot> mappingTemplate(const Architecture& arch);

// An empty mapping on the template: all bounds 1, every loop order the workload's dim order.
Mapping trivialMapping(const Architecture& arch, const Workload& workload);

} // namespace sparsemap
