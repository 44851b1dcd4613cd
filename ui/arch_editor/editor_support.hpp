#pragma once
// What the architecture editor's models and delegate share: the custom item roles through which a
// model tells the delegate what a cell accepts, the whole-architecture check behind every edit, and
// the "X x Y" instance grids (mesh_x columns by instances / mesh_x rows) of levels and compute.
#include "arch/architecture.hpp"

#include <QString>
#include <Qt>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sparsemap::ui {

enum EditorRole {
    HelpRole = Qt::UserRole + 1, // QString: what the cell accepts (allowed range, units)
    ChoicesRole,                 // QStringList: the only values allowed (a combo box), or empty
};

// What loading the saved file of `arch` would report, as "level GLB: ..." or "compute: ...". The file
// loader checks more than architectureProblems (e.g. that mesh_x divides instances, word widths up
// to 4096 bits), and an edit must never produce a file that does not load again.
std::vector<std::string> savedFileProblems(const Architecture& arch);

// The first problem (architectureProblems, then savedFileProblems) that `after` has and `before` had
// not, or empty. Edits are judged by what they break, so that a file that was already inconsistent
// can still be repaired.
QString newProblem(const Architecture& before, const Architecture& after);

// Columns of a grid of `instances`: mesh_x when given (> 0), else the editor's square-ish default (the
// largest divisor of `instances` not above its square root).
std::int64_t meshColumns(std::int64_t instances, std::int64_t meshX);
// "X x Y": columns x rows.
QString gridText(std::int64_t instances, std::int64_t meshX);

struct Grid {
    std::int64_t columns = 0; // X, mesh_x
    std::int64_t rows = 0;    // Y
};
// "X x Y" (also with ×, * or X): two positive integers whose product stays below 2^40; else nullopt.
std::optional<Grid> parseGrid(const QString& text);
// What a grid cell accepts, for help texts and messages.
QString gridForms();

} // namespace sparsemap::ui
