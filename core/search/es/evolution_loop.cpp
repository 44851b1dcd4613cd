#include "search/es/evolution_loop.hpp"

#include <stdexcept>

namespace sparsemap::search {

void validate(const EvolutionSettings& s, const std::string& owner)
{
    auto atLeast = [&](const char* name, int value, int minimum) {
        if (value < minimum)
            throw std::invalid_argument(owner + ": " + name + " must be at least " + std::to_string(minimum) +
                                        " (got " + std::to_string(value) + ")");
    };
    atLeast("populationSize", s.populationSize, 1);
    atLeast("offspringPerGeneration", s.offspringPerGeneration, 1);
    atLeast("parentCount", s.parentCount, 1);
    atLeast("duplicateRetries", s.duplicateRetries, 0);
    atLeast("emptyGenerationsToStop", s.emptyGenerationsToStop, 1);
}

void evolve(SearchContext& context, const EvolutionSettings& s, Population& population, const GenomeSet& seen,
            const BatchObjective& evaluate, const EvolutionOperators& op)
{
    validate(s, "evolution loop");
    auto& rng = context.rng();
    std::vector<Genome> offspring;
    std::vector<double> objectives;
    GenomeSet bred; // this generation's offspring, kept apart from each other
    int empty = 0;
    for (int g = 0; !context.done(); ++g) {
        const auto pool = parentPoolSize(population, s.parentCount);
        offspring.clear();
        bred = {};
        auto known = [&](const Genome& child) { return seen.contains(child) || bred.contains(child); };
        auto rejected = [&](const Genome& child) {
            return known(child) || (op.admissible && !op.admissible(child));
        };
        for (int i = 0; i < s.offspringPerGeneration; ++i) {
            Genome child;
            if (pool == 0) { // nothing valid yet: sample afresh rather than breed the dead
                child = op.fresh();
            } else {
                const auto [a, b] = pickParents(pool, rng);
                child = op.breed(population.genomes[a], population.genomes[b], g);
                for (int retry = 0; retry < s.duplicateRetries && rejected(child); ++retry)
                    op.remutate(child);
            }
            if (s.neverReevaluate && rejected(child)) {
                child = op.fresh();
                if (rejected(child))
                    continue;
            }
            bred.insert(child);
            offspring.push_back(std::move(child));
            if (op.bred)
                op.bred(offspring.back());
        }
        if (offspring.empty()) {
            if (++empty >= s.emptyGenerationsToStop)
                break;
            continue;
        }
        empty = 0;
        const auto n = evaluate(offspring, objectives);
        if (n == 0)
            break;
        for (std::size_t i = 0; i < n; ++i)
            population.add(std::move(offspring[i]), objectives[i]);
        if (op.survive)
            op.survive(population);
        else
            keepBest(population, static_cast<std::size_t>(s.populationSize));
        if (op.afterSurvival)
            op.afterSurvival(population, g);
        context.endGeneration(population.objectives);
    }
}

} // namespace sparsemap::search
