#pragma once
// How plots name a search objective on their axes, with its unit, the same live and for a stored run.
#include "search/search_types.hpp"

#include <QObject>
#include <QString>

namespace sparsemap::ui {

// The unit of an energy-delay product, written the same in every label and tooltip.
inline QString edpUnit()
{
    return QString::fromUtf8("pJ × cycles");
}

// The unit of energies in µJ (not "uJ").
inline QString microjouleUnit()
{
    return QString::fromUtf8("µJ");
}

inline QString objectiveAxisLabel(search::Objective objective)
{
    switch (objective) {
    case search::Objective::Edp:
        return QObject::tr("EDP (%1)").arg(edpUnit());
    case search::Objective::Energy:
        return QObject::tr("energy (pJ)");
    case search::Objective::Delay:
        return QObject::tr("delay (cycles)");
    }
    return QObject::tr("objective");
}

} // namespace sparsemap::ui
