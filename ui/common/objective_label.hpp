#pragma once
// How plots name a search objective on their axes, with its unit, the same live and for a stored run.
#include "search/search_types.hpp"

#include <QObject>
#include <QString>

namespace sparsemap::ui {

inline QString objectiveAxisLabel(search::Objective objective)
{
    switch (objective) {
    case search::Objective::Edp:
        return QObject::tr("EDP (pJ x cycles)");
    case search::Objective::Energy:
        return QObject::tr("energy (pJ)");
    case search::Objective::Delay:
        return QObject::tr("delay (cycles)");
    }
    return QObject::tr("objective");
}

} // namespace sparsemap::ui
