#pragma once
// What the session writer and reader (session_writer.cpp, session_io.cpp) must agree on: the CSV
// headers of a run's logs.
#include "search/search_types.hpp"

#include <string>
#include <string_view>

namespace sparsemap::detail {

inline constexpr std::string_view kPointsHeader =
    "generation,valid,objective,cycles,energy_pj,edp,genome,reason";
inline constexpr std::string_view kConvergenceHeader =
    "generation,evaluations,best,population_average,valid_share";

} // namespace sparsemap::detail
