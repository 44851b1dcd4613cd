#include "search/baselines/ga_search.hpp"

#include "search/baselines/baseline_support.hpp"
#include "search/baselines/pagmo_bridge.hpp"

#include <pagmo/algorithms/sga.hpp>

namespace sparsemap::search {

namespace {

const char* crossoverName(GaCrossover c)
{
    switch (c) {
    case GaCrossover::Binomial:
        return "binomial";
    case GaCrossover::SinglePoint:
        return "single";
    case GaCrossover::Sbx:
        return "sbx";
    case GaCrossover::Exponential:
        break;
    }
    return "exponential";
}

} // namespace

GaSearch::GaSearch(GaParameters parameters) : m_parameters(parameters)
{
    const auto& p = m_parameters;
    detail::require(p.populationSize >= 2, "ga: populationSize must be at least 2");
    detail::require(p.crossover != GaCrossover::Sbx || p.populationSize % 2 == 0,
                    "ga: populationSize must be even with Sbx crossover");
    detail::require(p.crossoverRate >= 0 && p.crossoverRate <= 1, "ga: crossoverRate must be in [0, 1]");
    detail::require(p.sbxDistributionIndex >= 1 && p.sbxDistributionIndex <= 100,
                    "ga: sbxDistributionIndex must be in [1, 100]");
    detail::require(p.mutationRate >= 0 && p.mutationRate <= 1, "ga: mutationRate must be in [0, 1]");
    detail::require(p.gaussianWidth >= 0 && p.gaussianWidth <= 1, "ga: gaussianWidth must be in [0, 1]");
    detail::require(p.selectionSize >= 1 && p.selectionSize <= p.populationSize,
                    "ga: selectionSize must be in [1, populationSize]");
    detail::require(p.stallEvaluations >= 0, "ga: stallEvaluations must not be negative");
}

void GaSearch::run(SearchContext& context)
{
    const auto& p = m_parameters;
    detail::PagmoRun run;
    run.populationSize = p.populationSize;
    run.integerGenes = true;
    run.stallEvaluations = p.stallEvaluations;
    detail::runPagmo(context, run, [&p](unsigned seed) {
        const bool gaussian = p.mutation == GaMutation::Gaussian;
        return pagmo::algorithm{
            pagmo::sga(1u, p.crossoverRate, p.sbxDistributionIndex, p.mutationRate,
                       gaussian ? p.gaussianWidth : 1.0, static_cast<unsigned>(p.selectionSize),
                       crossoverName(p.crossover), gaussian ? "gaussian" : "uniform",
                       p.selection == GaSelection::Tournament ? "tournament" : "truncated", seed)};
    });
}

} // namespace sparsemap::search
