#pragma once
// What the architecture editor's models and delegate share: the custom item roles through which a
// model tells the delegate what a cell accepts, and the whole-architecture check behind every edit.
#include "arch/architecture.hpp"

#include <QString>
#include <Qt>

namespace sparsemap::ui {

enum EditorRole {
    HelpRole = Qt::UserRole + 1, // QString: what the cell accepts (allowed range, units)
    ChoicesRole,                 // QStringList: the only values allowed (a combo box), or empty
};

// The first problem (architectureProblems) that `after` has and `before` had not, or empty. Edits are
// judged by what they break, so that a file that was already inconsistent can still be repaired.
QString newProblem(const Architecture& before, const Architecture& after);

} // namespace sparsemap::ui
