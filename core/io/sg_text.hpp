#pragma once
// The S/G strings of design files, as sgText() (design/loop_nest_text.hpp) writes them: `none`,
// `Skip Q <- P`, `Gate P <-> Q`, several joined by `;`. Tensor names are the workload's.
#include "io/units.hpp"
#include "sparse/sparse_strategy.hpp"
#include "workload/workload.hpp"

#include <string_view>
#include <vector>

namespace sparsemap::detail {

// The actions the text names (a `<->` gives the mirrored pair), or an error saying what is allowed.
Parsed<std::vector<SgAction>> parseSgText(std::string_view text, const Workload& workload);

} // namespace sparsemap::detail
