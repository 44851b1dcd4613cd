#pragma once
// Writing a design as a Sparseloop / Timeloop v0.3 case: `aggregated_input.yaml` (architecture tree,
// problem, mapping, sparse_optimizations) and `ERT.yaml`, such that importSparseloopCase of the folder
// gives back the same workload, architecture, mapping and sparse strategy. The architecture is written
// without compound components (storage classes DRAM / SRAM / regfile with width, depth, metadata
// storage, bandwidth and mesh attributes; the compute as class `compute`).
//
// Not representable, hence not ==after a round trip: an n:m fixed-structured density (written as its
// density n/m, which is what Sparseloop's shape-only model uses), the loops a format rank is bound to
// (Sparseloop declares ranks, the model binds them: ranks come back with dim = mappingLevel = -1),
// a one-sided S/G action at the compute (Sparseloop's compute optimization acts on all operands).
// Banded and actual densities have no Sparseloop v0.3 form and are an error.
#include "io/sparseloop/sparseloop_case.hpp"
#include "util/error.hpp" // InputError, thrown by every function here

#include <string>

namespace sparsemap {

// Creates `dir` if needed and writes aggregated_input.yaml and ERT.yaml there (atomically). Throws
// InputError when the design cannot be written (see above), when a level name contains `.`, `[` or
// `]` (they would change the names Timeloop derives), or when `dir` has a map.yaml, which the
// importer would read instead of the written mapping.
void exportSparseloopCase(const SparseloopCase& sparseloopCase, const std::string& dir);
// A design of ours: Sparseloop types are chosen from the S/G kinds (Gate: gating; SpatialSkip:
// skipping-spatial; Skip: skipping, or position-skipping when it has no condition), metadata storage
// width = metadataWordBits, formats as sparseloopFormatsOf writes them. Also refused: a mapping whose
// factors do not multiply to the dim sizes, a format Sparseloop cannot represent (the reason names
// tensor, level and ranks). The CLI's `export --sparseloop` and the workbench's export both call this.
void exportSparseloopCase(const Workload& workload, const Architecture& arch, const Design& design,
                          const std::string& dir);
// The formats of a design of ours in the names and widths Sparseloop reads: an all-U format is no
// format (stored uncompressed); a U rank of a compressed format is UOP with 0-bit metadata and payload
// (Sparseloop has no `U`); ranks bound to loops get the widths our model gives them (B: 1-bit metadata;
// CP, RLE: ceil(log2 fiber) bits; UOP: ceil(log2(tile + 1))-bit offsets) written out. Throws InputError
// for a format Sparseloop cannot represent.
std::vector<std::vector<TensorFormat>> sparseloopFormatsOf(const Workload& workload, const Architecture& arch,
                                                           const Design& design);

// The two files' text.
std::string sparseloopInputYaml(const SparseloopCase& sparseloopCase);
std::string sparseloopErtYaml(const SparseloopCase& sparseloopCase);

} // namespace sparsemap
