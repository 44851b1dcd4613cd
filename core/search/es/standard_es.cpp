#include "search/es/standard_es.hpp"

#include "search/es/direct_encoding.hpp"
#include "search/es/evolution_loop.hpp"

#include <cmath>
#include <stdexcept>

namespace sparsemap::search {

namespace {

// As in SparseMapEs: one more random-reset gene per retry for an offspring already evaluated.
constexpr int kDuplicateRetries = 10;

void require(bool ok, const std::string& message)
{
    if (!ok)
        throw std::invalid_argument("standard ES: " + message);
}

// What both encodings share: a Latin-hypercube generation 0, then the shared (mu + lambda) loop with
// the standard operators; `evaluateIndividuals(individuals, objectives)` returns how many it evaluated.
template <typename EvaluateIndividuals>
void evolveStandard(SearchContext& context, const StandardEsParameters& p,
                    const std::vector<GeneRange>& ranges, EvaluateIndividuals evaluateIndividuals)
{
    if (context.done())
        return;
    auto& rng = context.rng();
    GenomeSet seen; // every individual evaluated so far
    const BatchObjective evaluate = [&](std::span<const Genome> individuals,
                                        std::vector<double>& objectives) {
        const std::size_t n = evaluateIndividuals(individuals, objectives);
        for (std::size_t i = 0; i < n; ++i)
            seen.insert(individuals[i]);
        return n;
    };
    Population population;
    std::vector<double> objectives;
    {
        auto initial = latinHypercube(ranges, p.populationSize, rng);
        const auto n = evaluate(initial, objectives);
        if (n == 0)
            return;
        for (std::size_t i = 0; i < n; ++i)
            population.add(std::move(initial[i]), objectives[i]);
    }
    keepBest(population, static_cast<std::size_t>(p.populationSize));
    context.endGeneration(population.objectives);
    const double rate =
        p.mutationsPerOffspring / static_cast<double>(std::max<std::size_t>(ranges.size(), 1));
    EvolutionOperators operators;
    operators.breed = [&](const Genome& a, const Genome& b, int) {
        Genome child = a;
        if (uniform01(rng) < p.crossoverProbability)
            child = p.crossover == CrossoverKind::Uniform ? uniformCrossover(a, b, rng)
                                                          : onePointCrossover(a, b, rng);
        randomResetMutation(child, ranges, rate, rng);
        return child;
    };
    operators.remutate = [&](Genome& child) { // one more random-reset gene
        const auto gene = std::uniform_int_distribution<std::size_t>(0, child.size() - 1)(rng);
        child[gene] = resetGene(child[gene], ranges[gene], rng);
    };
    operators.fresh = [&] { return randomIndividual(ranges, rng); };
    EvolutionSettings settings;
    settings.populationSize = p.populationSize;
    settings.offspringPerGeneration = p.offspringPerGeneration;
    settings.parentCount = p.parentCount;
    settings.duplicateRetries = p.rejectDuplicates ? kDuplicateRetries : 0;
    evolve(context, settings, population, seen, evaluate, operators);
}

} // namespace

void validate(const StandardEsParameters& p)
{
    require(p.populationSize >= 1,
            "populationSize must be at least 1 (got " + std::to_string(p.populationSize) + ")");
    require(p.offspringPerGeneration >= 1, "offspringPerGeneration must be at least 1 (got " +
                                               std::to_string(p.offspringPerGeneration) + ")");
    require(p.parentCount >= 1, "parentCount must be at least 1 (got " + std::to_string(p.parentCount) + ")");
    require(p.crossoverProbability >= 0 && p.crossoverProbability <= 1,
            "crossoverProbability must be in [0, 1] (got " + std::to_string(p.crossoverProbability) + ")");
    require(std::isfinite(p.mutationsPerOffspring) && p.mutationsPerOffspring >= 0,
            "mutationsPerOffspring must be a finite number >= 0 (got " +
                std::to_string(p.mutationsPerOffspring) + ")");
}

EsPfce::EsPfce(StandardEsParameters parameters) : m_parameters(parameters)
{
    validate(m_parameters);
}

std::string EsPfce::name() const
{
    return m_parameters.permutationEncoding == PermutationEncoding::Random ? "es-pfce-random-perm"
                                                                           : "es-pfce";
}

void EsPfce::run(SearchContext& context)
{
    if (context.done())
        return;
    const GenomeProblem problem(context.layout(), m_parameters.permutationEncoding, context.rng()());
    evolveStandard(context, m_parameters, problem.ranges(),
                   [&](std::span<const Genome> individuals, std::vector<double>& objectives) {
                       return problem.evaluate(context, individuals, objectives);
                   });
}

EsDirect::EsDirect(StandardEsParameters parameters) : m_parameters(parameters)
{
    validate(m_parameters);
}

void EsDirect::run(SearchContext& context)
{
    if (context.done())
        return;
    const DirectEncoding encoding(context.layout(), context.rng()());
    evolveStandard(context, m_parameters, encoding.ranges(),
                   [&](std::span<const Genome> individuals, std::vector<double>& objectives) {
                       return encoding.evaluate(context, individuals, objectives);
                   });
}

} // namespace sparsemap::search
