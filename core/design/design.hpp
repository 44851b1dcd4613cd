#pragma once
// A complete accelerator design for a workload on an architecture: the mapping and the sparse
// strategy. The genome codec produces and consumes it; the model evaluates it.
#include "mapping/mapping.hpp"
#include "sparse/sparse_strategy.hpp"

namespace sparsemap {

struct Design {
    Mapping mapping;
    SparseStrategy sparse;
    bool operator==(const Design&) const = default;
};

} // namespace sparsemap
