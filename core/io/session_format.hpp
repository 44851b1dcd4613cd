#pragma once
// What the session writer and reader (session_writer.cpp, session_io.cpp) must agree on: the CSV
// headers of a run's logs and the line that ends the YAML text before the binary point logs.
#include "io/session_io.hpp"
#include "search/search_types.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace sparsemap::detail {

inline constexpr std::string_view kPointsHeader =
    "generation,valid,objective,cycles,energy_pj,edp,genome,reason";
inline constexpr std::string_view kConvergenceHeader =
    "generation,evaluations,best,population_average,valid_share";
// YAML's document end marker on a line of its own: what follows are the compact point logs, at the
// offsets their runs name (a literal block's lines are indented, so no YAML line can be this one).
inline constexpr std::string_view kPayloadSeparator = "...\n";

// A session file in pieces, as written one after another: the YAML text (with the separator when
// logs follow) and each run's point log (compact encoding; none for CSV). Saving writes the pieces
// without joining them (no copy of hundreds of MB).
struct SessionPieces {
    std::string yaml;
    std::vector<std::string> logs;
};
SessionPieces sessionPieces(const Session& session, PointLogEncoding encoding, const IoControl* control);

} // namespace sparsemap::detail
