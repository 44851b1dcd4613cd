#pragma once
// The formats of a design of ours as Sparseloop reads them from our export: one home for the rule,
// used by the exporter (which writes them) and by the model (which scores a design as Sparseloop
// will: the ranks unbound from the genome's loops, bound again by Sparseloop's own rule).
#include "arch/architecture.hpp"
#include "design/design.hpp"
#include "workload/workload.hpp"

#include <vector>

namespace sparsemap {

// Into `out` (per storage level and tensor): an all-U format is no format (stored uncompressed); a U
// rank of a compressed format is UOP with 0-bit metadata and payload (Sparseloop has no `U`); ranks
// bound to loops get the widths our model gives them (B: 1-bit metadata; CP, RLE: ceil(log2 fiber)
// bits; UOP: ceil(log2(tile + 1))-bit offsets) written out. Ranks keep their dim and binding; a
// format Sparseloop cannot represent is converted all the same (callers check first).
void sparseloopFormatsInto(const Workload& workload, const Architecture& arch, const Design& design,
                           std::vector<std::vector<TensorFormat>>& out);

} // namespace sparsemap
