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

} // namespace sparsemap::model
