#pragma once
// The geometry of one design on its hardware, for the hardware trace (hardware_trace.hpp): the loops of
// the nest with bound > 1 (the temporal ones, outer to inner, form a mixed-radix counter whose value is
// the time step), the fan-out below every storage level and how it sends each tensor to the children,
// the instances of every level (and the MACs) the mapping uses with their coordinate offsets, their
// positions in the drawing grid, and the tile of a tensor an instance holds at a step.
//
// Whether the mapping fits the architecture is the model's one pre-check (mappingPreCheck); the
// architecture's fan-out (Architecture::fanout), the tiles (dimTileSizes) and the X/Y split of a
// spatial level (loopAlongY) come from their helpers. Nothing here depends on tensor values.
#include "arch/architecture.hpp"
#include "mapping/mapping.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sparsemap::analysis {

// One loop of the nest with bound > 1.
struct TraceLoop {
    int mappingLevel = 0;
    int storageLevel = 0;
    int dim = 0;
    std::int64_t bound = 1;
    bool spatial = false;
    bool alongY = false;
    std::int64_t stride = 1; // coordinate step of `dim` per iteration (its bounds in inner levels)
};

struct CoordRange {
    std::int64_t begin = 0;
    std::int64_t end = 0; // exclusive
    bool operator==(const CoordRange&) const = default;
};

// How a fan-out sends a tensor's tiles to its children.
enum class SpatialCast {
    None,      // the fan-out has no spatial loop: a single child
    Broadcast, // no spatial loop indexes the tensor: every used child gets the same tile
    Multicast, // some loops index it: each tile goes to a group of children
    Unicast,   // every spatial loop indexes it: every child gets its own tile
};
std::string_view spatialCastName(SpatialCast cast);

// The fan-out below storage level `parentLevel` to `childLevel` (the compute when -1).
struct Fanout {
    int parentLevel = 0;
    int childLevel = 0;                 // storage level index, or -1 for the MACs
    std::int64_t childrenPerParent = 1; // the architecture's fan-out
    std::int64_t gridWidth = 1;        // children per parent along X (drawing grid), height = ceil(n / width)
    std::int64_t usedX = 1, usedY = 1; // the mapping's spatial extent along X and Y
    std::int64_t used = 1;             // children the mapping uses per parent (usedX * usedY)
    std::vector<SpatialCast> cast;     // per tensor
    std::vector<std::int64_t> share;   // per tensor: children that receive the same tile
};

class HardwareGeometry {
public:
    // An instance the mapping uses.
    struct UsedInstance {
        std::int64_t global = 0;
        std::vector<std::int64_t> offset; // per dim: coordinate offset from the spatial loops above
        std::int64_t parent = -1;         // index into the used list of the level above (-1 at level 0)
    };
    struct GridPos {
        std::int64_t column = 0, row = 0;
    };

    // Throws InputError (messages start with "hardware view: ") when the mapping does not fit the
    // workload/architecture: the model's pre-check, or spatial loops that leave the mesh.
    HardwareGeometry(Workload workload, Architecture arch, const Mapping& mapping);

    const Workload& workload() const { return m_workload; }
    const Architecture& architecture() const { return m_arch; }
    int storageLevels() const { return m_arch.levelCount(); }

    // ---- time steps
    const std::vector<TraceLoop>& temporalLoops() const { return m_temporal; } // outer to inner
    const std::vector<TraceLoop>& spatialLoops() const { return m_spatial; }   // outer to inner
    std::int64_t stepCount() const { return m_steps; }
    // Index of every temporal loop at `step` (clamped to [0, stepCount)).
    std::vector<std::int64_t> loopIndices(std::int64_t step) const;
    // Per dim: the coordinate offset at `step` of the temporal loops of storage levels above
    // `aboveStorageLevel` (the storage level count: all of them).
    std::vector<std::int64_t> temporalOffsets(std::int64_t step, int aboveStorageLevel) const;
    // Per dim: the tile size at a storage level.
    const std::vector<std::int64_t>& dimTiles(int storageLevel) const { return m_dimTiles[storageLevel]; }
    std::optional<std::vector<CoordRange>> tile(std::int64_t step, int storageLevel, std::int64_t instance,
                                                int tensor) const;
    std::string tileText(int tensor, const std::vector<CoordRange>& ranges) const;
    // The workload point a used MAC processes at `step` (per dim); empty when the MAC is idle.
    std::vector<std::int64_t> macPoint(std::int64_t step, std::int64_t mac) const;

    // ---- spatial picture
    const std::vector<Fanout>& fanouts() const { return m_fanouts; }  // one per storage level, outer first
    bool instanceUsed(int storageLevel, std::int64_t instance) const; // -1: the MACs
    std::int64_t usedInstances(int storageLevel) const;               // -1: the MACs
    // The used instances of a slot (storage levels 0..N-1, N = the MACs), in the order of the spatial
    // loops; UsedInstance::parent indexes the slot above.
    const std::vector<UsedInstance>& used(int slot) const { return m_used[static_cast<std::size_t>(slot)]; }
    GridPos gridPosition(int storageLevel, std::int64_t instance) const;
    std::int64_t gridColumns(int storageLevel) const;
    std::int64_t gridRows(int storageLevel) const;

private:
    void buildLoops(const Mapping& mapping);
    void buildFanouts();
    void buildInstances();
    const UsedInstance* findUsed(int slot, std::int64_t global) const;

    Workload m_workload;
    Architecture m_arch;
    std::vector<TraceLoop> m_temporal;
    std::vector<TraceLoop> m_spatial;
    std::int64_t m_steps = 1;
    std::vector<Fanout> m_fanouts;
    // m_used[s] for storage levels 0..N-1, m_used[N] for the MACs.
    std::vector<std::vector<UsedInstance>> m_used;
    std::vector<std::vector<std::int64_t>> m_usedLookup; // [slot][global] -> index in m_used or -1
    std::vector<std::vector<std::int64_t>> m_dimTiles;   // [storage level][dim] tile size
};

} // namespace sparsemap::analysis
