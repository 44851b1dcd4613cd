#include "search/baselines/annealing_search.hpp"

#include "search/baselines/baseline_support.hpp"
#include "search/baselines/pagmo_bridge.hpp"

#include <pagmo/algorithms/simulated_annealing.hpp>

#include <cmath>

namespace sparsemap::search {

AnnealingSearch::AnnealingSearch(AnnealingParameters parameters) : m_parameters(parameters)
{
    const auto& p = m_parameters;
    detail::require(p.initialSamples >= 1, "sa: initialSamples must be at least 1");
    detail::require(std::isfinite(p.startTemperature) && p.finalTemperature > 0 &&
                        p.finalTemperature < p.startTemperature,
                    "sa: temperatures must satisfy 0 < finalTemperature < startTemperature");
    detail::require(p.temperatureSteps >= 1, "sa: temperatureSteps must be at least 1");
    detail::require(p.rangeAdjustments >= 1, "sa: rangeAdjustments must be at least 1");
    detail::require(p.startRange > 0 && p.startRange <= 1, "sa: startRange must be in (0, 1]");
    detail::require(p.reportEvery >= 1, "sa: reportEvery must be at least 1");
}

void AnnealingSearch::run(SearchContext& context)
{
    const auto& p = m_parameters;
    detail::PagmoRun run;
    run.populationSize = p.initialSamples;
    run.reportEvery = p.reportEvery;
    const auto genes = static_cast<std::int64_t>(context.layout().size());
    detail::runPagmo(context, run, [&p, &context, genes](unsigned seed) {
        // pagmo evaluates temperatureSteps * rangeAdjustments * binSize * genes points per cycle.
        const std::int64_t perBin =
            p.temperatureSteps * static_cast<std::int64_t>(p.rangeAdjustments) * genes;
        const auto binSize =
            std::max<std::int64_t>(1, context.remaining() / std::max<std::int64_t>(1, perBin));
        return pagmo::algorithm{pagmo::simulated_annealing(
            p.startTemperature, p.finalTemperature, static_cast<unsigned>(p.temperatureSteps),
            static_cast<unsigned>(p.rangeAdjustments),
            static_cast<unsigned>(std::min<std::int64_t>(binSize, 1 << 30)), p.startRange, seed)};
    });
}

} // namespace sparsemap::search
