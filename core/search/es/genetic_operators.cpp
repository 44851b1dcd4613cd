#include "search/es/genetic_operators.hpp"

#include <algorithm>
#include <map>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace sparsemap::search {

std::vector<GeneRange> geneRanges(const GenomeLayout& layout)
{
    std::vector<GeneRange> ranges;
    ranges.reserve(layout.genes().size());
    for (const auto& g : layout.genes())
        ranges.push_back({g.lower, g.upper});
    return ranges;
}

void Population::add(Genome genome, double objective)
{
    genomes.push_back(std::move(genome));
    objectives.push_back(objective);
}

std::size_t Population::validCount() const
{
    return static_cast<std::size_t>(
        std::count_if(objectives.begin(), objectives.end(), [](double o) { return std::isfinite(o); }));
}

void keepBest(Population& population, std::size_t count)
{
    std::vector<std::size_t> order(population.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return population.objectives[a] < population.objectives[b];
    });
    order.resize(std::min(count, order.size()));
    Population kept;
    kept.genomes.reserve(order.size());
    kept.objectives.reserve(order.size());
    for (auto i : order)
        kept.add(std::move(population.genomes[i]), population.objectives[i]);
    population = std::move(kept);
}

void keepBestByNiche(Population& population, std::size_t count, int nicheSize, const NicheKey& niche)
{
    keepBest(population, population.size());          // sorted, best first
    std::map<std::vector<std::int64_t>, int> members; // per niche
    std::vector<bool> kept(population.size(), false);
    std::size_t keptCount = 0;
    for (std::size_t i = 0; i < population.size() && keptCount < count; ++i) {
        auto& m = members[niche(population.genomes[i])];
        if (m < nicheSize) {
            ++m;
            kept[i] = true;
            ++keptCount;
        }
    }
    for (std::size_t i = 0; i < population.size() && keptCount < count; ++i)
        if (!kept[i]) {
            kept[i] = true;
            ++keptCount;
        }
    Population survivors;
    for (std::size_t i = 0; i < population.size(); ++i)
        if (kept[i])
            survivors.add(std::move(population.genomes[i]), population.objectives[i]);
    population = std::move(survivors);
}

void keepBestByNiche(Population& population, std::size_t count, int nicheSize, SegmentRange key)
{
    keepBestByNiche(population, count, nicheSize, [key](const Genome& g) {
        return std::vector<std::int64_t>(g.begin() + key.begin, g.begin() + key.end);
    });
}

std::size_t parentPoolSize(const Population& sorted, int parentCount)
{
    return std::min(sorted.validCount(), static_cast<std::size_t>(std::max(parentCount, 0)));
}

std::pair<std::size_t, std::size_t> pickParents(std::size_t poolSize, std::mt19937_64& rng)
{
    std::uniform_int_distribution<std::size_t> pick(0, poolSize - 1);
    const auto a = pick(rng);
    return {a, pick(rng)};
}

Genome randomIndividual(std::span<const GeneRange> ranges, std::mt19937_64& rng, const Admissible& admissible)
{
    Genome genome = randomIndividual(ranges, rng);
    for (int draw = 1; admissible && draw < kAdmissibleDraws && !admissible(genome); ++draw)
        genome = randomIndividual(ranges, rng);
    return genome;
}

BatchObjective unlimitedObjective(std::function<double(const Genome&)> objective)
{
    return [objective = std::move(objective)](std::span<const Genome> genomes, std::vector<double>& out) {
        out.resize(genomes.size());
        for (std::size_t i = 0; i < genomes.size(); ++i)
            out[i] = objective(genomes[i]);
        return genomes.size();
    };
}

double uniform01(std::mt19937_64& rng)
{
    return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
}

int uniformInt(int lower, int upper, std::mt19937_64& rng)
{
    return std::uniform_int_distribution<int>(lower, upper)(rng);
}

Genome randomIndividual(std::span<const GeneRange> ranges, std::mt19937_64& rng)
{
    Genome genome(ranges.size());
    for (std::size_t i = 0; i < ranges.size(); ++i)
        genome[i] = uniformInt(ranges[i].lower, ranges[i].upper, rng);
    return genome;
}

std::vector<Genome> latinHypercube(std::span<const GeneRange> ranges, int count, std::mt19937_64& rng)
{
    std::vector<Genome> sample(static_cast<std::size_t>(std::max(count, 0)), Genome(ranges.size()));
    std::vector<int> strata(sample.size());
    for (std::size_t g = 0; g < ranges.size(); ++g) {
        std::iota(strata.begin(), strata.end(), 0);
        std::shuffle(strata.begin(), strata.end(), rng);
        for (std::size_t i = 0; i < sample.size(); ++i) {
            // A point uniform inside stratum k of [0, 1), scaled onto the integer range.
            const double u = (strata[i] + uniform01(rng)) / static_cast<double>(count);
            const int offset = std::min(static_cast<int>(u * ranges[g].size()), ranges[g].size() - 1);
            sample[i][g] = ranges[g].lower + offset;
        }
    }
    return sample;
}

Genome uniformCrossover(const Genome& a, const Genome& b, std::mt19937_64& rng)
{
    Genome child(a);
    std::bernoulli_distribution coin(0.5);
    for (std::size_t i = 0; i < child.size(); ++i)
        if (coin(rng))
            child[i] = b[i];
    return child;
}

Genome onePointCrossover(const Genome& a, const Genome& b, std::mt19937_64& rng)
{
    Genome child(a);
    if (a.size() < 2)
        return child;
    const auto cut = std::uniform_int_distribution<std::size_t>(1, a.size() - 1)(rng);
    std::copy(b.begin() + static_cast<std::ptrdiff_t>(cut), b.end(),
              child.begin() + static_cast<std::ptrdiff_t>(cut));
    return child;
}

int resetGene(int current, GeneRange range, std::mt19937_64& rng)
{
    if (range.size() < 2)
        return current;
    // Uniform over the other values: draw from size - 1 values and skip the current one.
    const int value = uniformInt(range.lower, range.upper - 1, rng);
    return value >= current ? value + 1 : value;
}

int randomResetMutation(Genome& genome, std::span<const GeneRange> ranges, double rate, std::mt19937_64& rng)
{
    int changed = 0;
    for (std::size_t i = 0; i < genome.size(); ++i)
        if (uniform01(rng) < rate && ranges[i].size() > 1) {
            genome[i] = resetGene(genome[i], ranges[i], rng);
            ++changed;
        }
    return changed;
}

std::vector<int> geneChanges(const Genome& from, const Genome& to)
{
    if (from.size() != to.size())
        throw std::invalid_argument("geneChanges: genomes of " + std::to_string(from.size()) + " and " +
                                    std::to_string(to.size()) + " genes");
    std::vector<int> changes;
    for (std::size_t i = 0; i < to.size(); ++i)
        if (to[i] != from[i]) {
            changes.push_back(static_cast<int>(i));
            changes.push_back(to[i]);
        }
    return changes;
}

} // namespace sparsemap::search
