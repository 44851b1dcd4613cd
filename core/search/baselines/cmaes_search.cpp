#include "search/baselines/cmaes_search.hpp"

#include "search/baselines/baseline_support.hpp"
#include "search/baselines/pagmo_bridge.hpp"

#include <pagmo/algorithms/cmaes.hpp>

namespace sparsemap::search {

CmaesSearch::CmaesSearch(CmaesParameters parameters) : m_parameters(parameters)
{
    const auto& p = m_parameters;
    detail::require(p.populationSize >= 5, "cmaes: populationSize must be at least 5 (pagmo's minimum)");
    detail::require(p.sigma0 > 0 && p.sigma0 <= 1, "cmaes: sigma0 must be in (0, 1]");
    detail::require(p.stallEvaluations >= 0, "cmaes: stallEvaluations must not be negative");
}

void CmaesSearch::run(SearchContext& context)
{
    const auto& p = m_parameters;
    detail::PagmoRun run;
    run.populationSize = p.populationSize;
    run.stallEvaluations = p.stallEvaluations;
    detail::runPagmo(context, run, [&p](unsigned seed) {
        // cc, cs, c1, cmu = -1: pagmo's automatic (Hansen's) learning rates; memory on; no force_bounds
        // (clamping happens in the problem, which leaves the covariance update undisturbed).
        return pagmo::algorithm{pagmo::cmaes(1u, -1, -1, -1, -1, p.sigma0, 1e-6, 1e-6, true, false, seed)};
    });
}

} // namespace sparsemap::search
