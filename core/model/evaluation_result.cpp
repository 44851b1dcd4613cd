#include "model/evaluation_result.hpp"

#include <limits>

namespace sparsemap::model {

double objectiveValue(const EvaluationResult& result, Objective objective)
{
    if (!result.valid)
        return std::numeric_limits<double>::infinity();
    switch (objective) {
    case Objective::Edp:
        return result.edp;
    case Objective::Energy:
        return result.energyPj;
    case Objective::Delay:
        return result.cycles;
    }
    return result.edp;
}

std::string objectiveName(Objective objective)
{
    switch (objective) {
    case Objective::Edp:
        return "edp";
    case Objective::Energy:
        return "energy";
    case Objective::Delay:
        return "delay";
    }
    return "edp";
}

std::optional<Objective> parseObjective(std::string_view name)
{
    for (Objective objective : {Objective::Edp, Objective::Energy, Objective::Delay})
        if (name == objectiveName(objective))
            return objective;
    return std::nullopt;
}

} // namespace sparsemap::model
