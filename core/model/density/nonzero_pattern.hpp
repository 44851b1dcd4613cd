#pragma once
// The nonzero pattern of a matrix read from a file, for the `actual` density model (spec §2.4):
//  * Matrix Market (.mtx, or any file starting with %%MatrixMarket): `matrix coordinate|array`,
//    `pattern|real|integer`, `general|symmetric|skew-symmetric`. Symmetric entries are mirrored; an
//    explicit zero value is not a nonzero; duplicate coordinates count once.
//  * a 0/1 mask: one matrix row per line, entries 0 or 1 separated by blanks; blank lines and lines
//    starting with # are skipped.
// Any problem (missing or unreadable file, bad header, malformed line, entry out of range, ragged mask)
// is an InputError whose diagnostic carries the path and the 1-based line (and column for masks).
#include <cstdint>
#include <string>
#include <vector>

namespace sparsemap::model {

struct NonzeroPattern {
    std::string file;
    std::int64_t rows = 0;
    std::int64_t columns = 0;
    std::vector<std::int64_t> nonzeros; // row * columns + column, ascending, unique
    int shapeLine = 0;                  // the line that fixes the shape (size line, first mask row)
};

NonzeroPattern readNonzeroPattern(const std::string& path);

} // namespace sparsemap::model
