#include "search/baselines/sage_search.hpp"

#include "search/baselines/baseline_support.hpp"
#include "search/baselines/sage_mapping.hpp"

#include <algorithm>
#include <set>

namespace sparsemap::search {

namespace {

struct Member {
    Genome genome;
    double objective = 0;
};

// Remembers which sparse strategies were evaluated (the mapping part never changes).
class SeenStrategies {
public:
    explicit SeenStrategies(SegmentRange range) : m_range(range) {}
    bool contains(const Genome& g) const { return m_seen.count(key(g)) > 0; }
    void insert(const Genome& g) { m_seen.insert(key(g)); }

private:
    std::vector<int> key(const Genome& g) const
    {
        return {g.begin() + m_range.begin, g.begin() + m_range.end};
    }
    SegmentRange m_range;
    std::set<std::vector<int>> m_seen;
};

} // namespace

SageSearch::SageSearch(SageParameters parameters) : m_parameters(std::move(parameters))
{
    const auto& p = m_parameters;
    detail::require(p.bufferFill > 0 && p.bufferFill <= 1, "sage: bufferFill must be in (0, 1]");
    detail::require(p.populationSize >= 2, "sage: populationSize must be at least 2");
    detail::require(p.tournamentSize >= 1 && p.tournamentSize <= p.populationSize,
                    "sage: tournamentSize must be in [1, populationSize]");
    detail::require(p.crossoverRate >= 0 && p.crossoverRate <= 1, "sage: crossoverRate must be in [0, 1]");
    detail::require(p.mutationRate >= 0 && p.mutationRate <= 1, "sage: mutationRate must be in [0, 1]");
    detail::require(p.duplicateRetries >= 0, "sage: duplicateRetries must not be negative");
}

void SageSearch::run(SearchContext& context)
{
    const auto& p = m_parameters;
    const auto& layout = context.layout();
    const auto mapping = layout.mappingGenes();
    const auto sparse = layout.sparseGenes();
    const auto fixed =
        p.mappingGenes.empty() ? outputStationaryMappingGenes(layout, p.bufferFill) : p.mappingGenes;
    detail::checkGenes(layout, mapping, fixed, "sage: the fixed mapping genes");
    Genome base(static_cast<std::size_t>(layout.size()));
    std::copy(fixed.begin(), fixed.end(), base.begin() + mapping.begin);

    auto& rng = context.rng();
    std::uniform_real_distribution<double> unit(0, 1);
    SeenStrategies seen(sparse);
    const auto makeUnique = [&](Genome& child) {
        for (int retry = 0; retry < p.duplicateRetries && seen.contains(child); ++retry)
            detail::mutateOneGene(layout, sparse, child, rng);
        seen.insert(child);
    };

    std::vector<Member> population;
    std::vector<Genome> batch;
    std::vector<double> objectives;
    const auto evaluate = [&](std::vector<Member>& into) {
        const std::size_t n = context.evaluate(batch, objectives);
        for (std::size_t i = 0; i < n; ++i)
            into.push_back({batch[i], objectives[i]});
        if (n > 0)
            context.endGeneration(objectives);
        return n > 0;
    };

    for (int i = 0; i < p.populationSize && i < context.remaining(); ++i) {
        Genome g = base;
        detail::randomizeGenes(layout, sparse, g, rng);
        makeUnique(g);
        batch.push_back(std::move(g));
    }
    if (!evaluate(population))
        return;

    std::uniform_int_distribution<std::size_t> anyone(0, population.size() - 1);
    const auto tournament = [&]() -> const Member& {
        std::size_t best = anyone(rng);
        for (int k = 1; k < p.tournamentSize; ++k) {
            const std::size_t other = anyone(rng);
            if (population[other].objective < population[best].objective)
                best = other;
        }
        return population[best];
    };
    while (!context.done()) {
        batch.clear();
        for (int i = 0; i < p.populationSize && i < context.remaining(); ++i) {
            Genome child = tournament().genome;
            if (unit(rng) < p.crossoverRate) {
                const Genome& other = tournament().genome;
                for (int g = sparse.begin; g < sparse.end; ++g)
                    if (unit(rng) < 0.5)
                        child[g] = other[g];
            }
            for (int g = sparse.begin; g < sparse.end; ++g)
                if (unit(rng) < p.mutationRate)
                    child[g] =
                        std::uniform_int_distribution<int>(layout.gene(g).lower, layout.gene(g).upper)(rng);
            makeUnique(child);
            batch.push_back(std::move(child));
        }
        std::vector<Member> children;
        if (!evaluate(children))
            break; // cancelled
        // (mu + lambda): parents first, so ties keep the older member.
        population.insert(population.end(), children.begin(), children.end());
        std::stable_sort(population.begin(), population.end(),
                         [](const Member& a, const Member& b) { return a.objective < b.objective; });
        population.resize(std::min(population.size(), static_cast<std::size_t>(p.populationSize)));
        anyone = std::uniform_int_distribution<std::size_t>(0, population.size() - 1);
    }
}

} // namespace sparsemap::search
