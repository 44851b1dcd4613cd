#include "search/baselines/de_search.hpp"

#include "search/baselines/baseline_support.hpp"
#include "search/baselines/pagmo_bridge.hpp"

#include <pagmo/algorithms/de.hpp>

namespace sparsemap::search {

DeSearch::DeSearch(DeParameters parameters) : m_parameters(parameters)
{
    const auto& p = m_parameters;
    // Six: the two-difference variants draw five partners distinct from the target.
    detail::require(p.populationSize >= 6, "de: populationSize must be at least 6");
    detail::require(p.weight >= 0 && p.weight <= 1, "de: weight (F) must be in [0, 1]");
    detail::require(p.crossover >= 0 && p.crossover <= 1, "de: crossover (CR) must be in [0, 1]");
    detail::require(static_cast<int>(p.variant) >= 1 && static_cast<int>(p.variant) <= 10,
                    "de: unknown variant");
    detail::require(p.stallEvaluations >= 0, "de: stallEvaluations must not be negative");
}

void DeSearch::run(SearchContext& context)
{
    const auto& p = m_parameters;
    detail::PagmoRun run;
    run.populationSize = p.populationSize;
    run.stallEvaluations = p.stallEvaluations;
    detail::runPagmo(context, run, [&p](unsigned seed) {
        return pagmo::algorithm{
            pagmo::de(1u, p.weight, p.crossover, static_cast<unsigned>(p.variant), 1e-6, 1e-6, seed)};
    });
}

} // namespace sparsemap::search
