#include "search/baselines/pso_search.hpp"

#include "search/baselines/baseline_support.hpp"
#include "search/baselines/pagmo_bridge.hpp"

#include <pagmo/algorithms/pso.hpp>

namespace sparsemap::search {

PsoSearch::PsoSearch(PsoParameters parameters) : m_parameters(parameters)
{
    const auto& p = m_parameters;
    detail::require(p.swarmSize >= 2, "pso: swarmSize must be at least 2");
    detail::require(p.omega >= 0 && p.omega <= 1, "pso: omega must be in [0, 1]");
    detail::require(p.eta1 >= 0 && p.eta1 <= 4 && p.eta2 >= 0 && p.eta2 <= 4,
                    "pso: eta1 and eta2 must be in [0, 4]");
    detail::require(p.maxVelocity > 0 && p.maxVelocity <= 1, "pso: maxVelocity must be in (0, 1]");
    detail::require(static_cast<int>(p.variant) >= 1 && static_cast<int>(p.variant) <= 6,
                    "pso: unknown variant");
    detail::require(static_cast<int>(p.topology) >= 1 && static_cast<int>(p.topology) <= 4,
                    "pso: unknown topology");
    detail::require(p.neighbours >= 1, "pso: neighbours must be at least 1");
    detail::require(p.stallEvaluations >= 0, "pso: stallEvaluations must not be negative");
}

void PsoSearch::run(SearchContext& context)
{
    const auto& p = m_parameters;
    detail::PagmoRun run;
    run.populationSize = p.swarmSize;
    run.stallEvaluations = p.stallEvaluations;
    detail::runPagmo(context, run, [&p](unsigned seed) {
        return pagmo::algorithm{
            pagmo::pso(1u, p.omega, p.eta1, p.eta2, p.maxVelocity, static_cast<unsigned>(p.variant),
                       static_cast<unsigned>(p.topology), static_cast<unsigned>(p.neighbours), true, seed)};
    });
}

} // namespace sparsemap::search
