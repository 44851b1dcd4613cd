#include "search/baselines/random_search.hpp"

#include "genome/genome_codec.hpp"
#include "search/baselines/baseline_support.hpp"

namespace sparsemap::search {

RandomSearch::RandomSearch(RandomParameters parameters) : m_parameters(parameters)
{
    detail::require(m_parameters.batchSize >= 1, "random: batchSize must be at least 1");
}

void RandomSearch::run(SearchContext& context)
{
    std::vector<Genome> batch;
    std::vector<double> objectives;
    while (!context.done()) {
        const auto n = std::min<std::int64_t>(m_parameters.batchSize, context.remaining());
        batch.clear();
        for (std::int64_t i = 0; i < n; ++i)
            batch.push_back(randomGenome(context.layout(), context.rng()));
        if (context.evaluate(batch, objectives) == 0)
            break; // cancelled
        context.endGeneration(objectives);
    }
}

} // namespace sparsemap::search
