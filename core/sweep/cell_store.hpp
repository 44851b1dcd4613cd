#pragma once
// The cell store: one text file per finished cell of a sweep (format `sparsemap-sweep-cell 1`,
// docs/file-formats.md), written atomically when the cell finishes, so that a killed sweep loses only
// the cells in flight. A cell file records its CellIdentity; reading it back checks every field and
// that the identity is the expected one, so a resumed sweep never mixes runs.
#include "search/search_types.hpp"
#include "sweep/sweep_grid.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sparsemap::sweep {

struct CellResult {
    double best = 0;       // best objective found; +infinity when no valid design was found
    double validShare = 0; // valid points / evaluated points, in [0, 1]
    std::int64_t evaluations = 0;
    double seconds = 0; // wall time of the search (not part of any summary: it varies)
    std::vector<double>
        curve; // kCheckpoints best-so-far values (non-increasing; +inf before the first valid)
    // The best design's model::EvaluationResult::sparseloopArtefact: where its figures owe to an
    // artefact of Sparseloop's arithmetic ("" = nowhere; optional in the file).
    std::string sparseloopArtefact;
    bool operator==(const CellResult&) const = default;
};

// The checkpoints of a run: the best objective after budget * k / kCheckpoints evaluations, k = 1..20.
CellResult cellResultOf(const search::SearchResult& result, std::int64_t budget);

std::string formatCell(const CellIdentity& identity, const CellResult& result);
// Parses a cell file. Throws InputError (file, line, field, what is allowed) for a malformed file, a
// negative, NaN or otherwise impossible value, or an identity other than `expected` (then the message
// says which field differs: the folder holds a different sweep).
CellResult parseCell(const std::string& text, const std::string& fileName, const CellIdentity& expected);
// nullopt when the file does not exist; otherwise parseCell of its text.
std::optional<CellResult> loadCell(const std::string& path, const CellIdentity& expected);

} // namespace sparsemap::sweep
