#pragma once
// Architecture overrides: a base architecture plus "path=value" changes, the hardware axis of a sweep
// (`sparsemap sweep --vary glb.capacity=64KB,128KB --vary pe.count=8x8,16x16`).
//
// A path is `<unit>.<attribute>` or `clock_ghz`.
//   <unit>: a storage level by name (case-insensitive; spaces, '_' and '-' ignored, so `pe_buffer` is
//           "PE buffer"), `pe` (the innermost storage level: one instance per PE), or `compute` / `mac`
//           (the compute unit, also by its own name).
//   storage-level attributes: `capacity`, `metadata_capacity` (sizes as in architecture files, e.g.
//           `64KB`), `read_bandwidth`, `write_bandwidth`, `bandwidth` (both; words per cycle or a rate
//           such as `16GB/s`), `instances` / `count` (N, or AxB = A columns by B rows), `mesh_x`.
//   compute attributes: `instances` / `count` (N or AxB), `mesh_x`.
// Changing a storage level's instances keeps what each instance contains: every level below it and the
// compute scale by the same factor (8x8 PEs of 4 MACs each become 16x16 PEs of 4 MACs each); their grid
// widths follow an AxB value (columns per parent column are kept) and return to the default grid for N.
// Changing the compute's instances changes the MACs per innermost instance only.
#include "arch/architecture.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sparsemap {

struct ArchOverride {
    std::string path;  // e.g. "glb.capacity"
    std::string value; // e.g. "64KB"
    bool operator==(const ArchOverride&) const = default;
};

// One --vary argument: a path and the values it takes.
struct ArchAxis {
    std::string path;
    std::vector<std::string> values;
};

// Parses "path=v1,v2,..." (throws InputError saying what is allowed).
ArchAxis parseArchAxis(std::string_view text);

// Applies the overrides in order, then checks the result with architectureProblems(); throws InputError
// naming the override and what is allowed (unknown unit or attribute, a bad value, an inconsistent
// result). The name of the returned architecture is unchanged.
Architecture applyArchOverrides(Architecture arch, std::span<const ArchOverride> overrides);

// "glb.capacity=64KB,pe.count=8x8" (empty for no overrides).
std::string archOverrideLabel(std::span<const ArchOverride> overrides);

// The paths and attributes, for messages and --help.
inline constexpr std::string_view kArchOverrideForms =
    "<level name>|pe|compute . capacity|metadata_capacity|read_bandwidth|write_bandwidth|bandwidth|"
    "instances|count|mesh_x (compute: instances|count|mesh_x), or clock_ghz";

} // namespace sparsemap
