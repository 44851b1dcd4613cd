#pragma once
// A mapping flattened into Timeloop's global loop list: every loop with bound > 1, innermost first,
// each tagged with the storage level it belongs to and whether it is spatial. Within one storage
// level the temporal loops enclose the spatial ones (a level's spatial loops distribute its tile
// over its children).
#include "mapping/mapping.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <vector>

namespace sparsemap::model {

struct NestLoop {
    int dim = 0;
    std::int64_t bound = 1;
    int storageLevel = 0; // index into Architecture::levels (0 = outermost)
    bool spatial = false;
    bool alongY = false; // spatial loops only
};

// Appends to `out` (cleared first). Storage levels are visited inner to outer; within a mapping
// level the loop order is reversed (Mapping stores outer to inner).
void flattenLoops(const Mapping& mapping, std::vector<NestLoop>& out, bool includeTrivial = false);

// Bit d set when dimension d indexes the tensor (any rank, any term).
std::uint32_t relevantDims(const Workload& workload, int tensor);

} // namespace sparsemap::model
