#pragma once
// Step one of the model (Sparseloop's dataflow modelling = Timeloop's nest analysis): the dense
// traffic of a mapping. Per storage level and tensor: the tile, the partition an instance owns, and
// the per-instance reads, fills and updates; the compute count. See docs/model-notes-dataflow.md
// for every rule and its verification against Sparseloop.
#include "arch/architecture.hpp"
#include "mapping/mapping.hpp"
#include "model/dataflow/loop_nest.hpp"
#include "workload/workload.hpp"

#include <vector>

namespace sparsemap::model {

struct TensorTraffic {
    bool kept = true;        // the level stores the tensor
    bool streamed = false;   // bypassed but charged for the pass-through traffic (Sparseloop `stream`)
    double tile = 0;         // coordinates in the level's tile of the tensor
    double partition = 0;    // coordinates one instance owns over the whole run
    double childChanges = 0; // how often a child's tile of this tensor changes (Timeloop's deltas)
    double multicast = 1;    // children of one instance that receive the same data
    double scatter = 1;      // distinct child tiles per instance (fan-out / multicast)
    // Per instance of the level, dense ("algorithmic") counts.
    double reads = 0;   // words sent to children (and, for the output, partial sums read back)
    double fills = 0;   // words written from the parent
    double updates = 0; // output words written back by children
    double temporalReductions = 0;
};

struct LevelTraffic {
    double instances = 1;  // instances the mapping uses (product of the spatial loops above)
    double fanout = 1;     // children per instance the mapping uses (spatial loops of this level)
    double xExpansion = 1; // spatial X / Y expansion of this level's instances (validity)
    double yExpansion = 1;
    std::vector<TensorTraffic> tensors;
};

struct DenseTraffic {
    std::vector<LevelTraffic> levels;  // index = storage level (0 = outermost)
    double temporalIterations = 1;     // per MAC: the product of all temporal bounds
    double spatialInstances = 1;       // MACs used: the product of all spatial bounds
    double computeX = 1, computeY = 1; // spatial expansion at the MACs
    double algorithmicComputes = 0;
};

// Reusable scratch so that repeated analyses do not allocate.
struct DataflowScratch {
    std::vector<NestLoop> loops;
    std::vector<std::int64_t> dimTiles;
    std::vector<std::int64_t> extents;
    std::vector<double> raw;
};

void analyzeDataflow(const Workload& workload, const Architecture& arch, const Mapping& mapping,
                     DenseTraffic& out, DataflowScratch& scratch);

// The coordinates of `tensor` covered by the loops in `loops` whose index is < `end` (innermost
// first), i.e. the tile spanned by the innermost `end` loops.
double tileVolume(const Workload& workload, int tensor, const std::vector<NestLoop>& loops, std::size_t end,
                  DataflowScratch& scratch);

} // namespace sparsemap::model
