#include "editor_support.hpp"

#include <algorithm>

namespace sparsemap::ui {

QString newProblem(const Architecture& before, const Architecture& after)
{
    const auto old = architectureProblems(before);
    for (const auto& problem : architectureProblems(after)) {
        if (std::find(old.begin(), old.end(), problem) == old.end())
            return QString::fromStdString(problem);
    }
    return {};
}

} // namespace sparsemap::ui
