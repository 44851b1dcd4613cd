#pragma once
// The parts of exportSparseloopCase (internal).
#include "io/sparseloop/sparseloop_case.hpp"

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace sparsemap::detail {

[[noreturn]] void sparseloopExportError(const std::string& message);

// The v0.3 tree of an architecture: a chain of nested nodes, one more wherever the instance count
// grows (`RF_array[0..3]`), each holding the components whose instances it gives.
struct SparseloopTree {
    struct Node {
        std::string name;            // with its range, e.g. "RF_array[0..3]"
        std::vector<int> components; // level indices; levelCount() = the compute
    };
    std::vector<Node> nodes;                 // outer to inner; nodes[0] is the root ("system")
    std::vector<std::string> componentNames; // per level, then the compute: the local name (with range)
    std::vector<std::string> ertNames;       // per level, then the compute: the dotted full name
};
SparseloopTree sparseloopTree(const Architecture& arch);

// The value of `architecture:` (a v0.3 tree without compound components).
void emitSparseloopArchitecture(YAML::Emitter& out, const SparseloopCase& c);
// The `sparse_optimizations` key and value; nothing when the design has no format and no S/G action.
void emitSparseloopSparse(YAML::Emitter& out, const SparseloopCase& c);

} // namespace sparsemap::detail
