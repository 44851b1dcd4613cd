#pragma once
#include "search/genome_checks.hpp"
// The genetic operators every evolution strategy here shares (pagmo's utils/genetic_operators.hpp):
// integer gene ranges, random and Latin-hypercube sampling, the standard crossovers and random-reset
// mutation, truncation parent selection and elitist (mu + lambda) survival. All randomness comes
// from the caller's engine, drawn on the calling thread, so runs are reproducible.
#include "genome/genome_layout.hpp"
#include "util/flat_key_index.hpp"

#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <limits>
#include <vector>

namespace sparsemap::search {

// The inclusive range of one integer gene.
struct GeneRange {
    int lower = 0;
    int upper = 0;
    int size() const { return upper - lower + 1; }
    bool operator==(const GeneRange&) const = default;
};

std::vector<GeneRange> geneRanges(const GenomeLayout& layout);

// Individuals with their objectives (lower is better; +infinity = dead, "fitness zero").
struct Population {
    std::vector<Genome> genomes;
    std::vector<double> objectives;

    std::size_t size() const { return genomes.size(); }
    void add(Genome genome, double objective);
    // Members with a finite objective.
    std::size_t validCount() const;
};

// Elitist survival: sorts by objective (stable, so ties keep the older member first and the run
// stays deterministic) and keeps the best `count`.
void keepBest(Population& population, std::size_t count);
// Survival by niches: keepBest, except that at most `nicheSize` members share a niche (the value of
// `niche` for their genome, e.g. the spatial unrolling); room left after that is filled by the best of
// the others.
using NicheKey = std::function<std::vector<std::int64_t>(const Genome&)>;
void keepBestByNiche(Population& population, std::size_t count, int nicheSize, const NicheKey& niche);
// The same with one niche per value of the genes of `key` (e.g. the tiling segment: one per tiling).
void keepBestByNiche(Population& population, std::size_t count, int nicheSize, SegmentRange key);

// Truncation selection of "high-fitness parents": two indices drawn uniformly among the best
// `poolSize` members of a population sorted by keepBest (they may coincide when poolSize == 1).
std::pair<std::size_t, std::size_t> pickParents(std::size_t poolSize, std::mt19937_64& rng);
// The parent pool of a sorted population: its best `parentCount` members, dead ones excluded.
std::size_t parentPoolSize(const Population& sorted, int parentCount);

// The genomes a run has already evaluated. The model is deterministic, so evaluating a genome twice
// only spends budget; offspring found here are mutated again (see the ES parameters). A genome may
// carry its objective, for those that look back at what a move scored (the polish's follow-ups).
class GenomeSet {
public:
    bool contains(const Genome& genome) const { return m_genomes.find(genome) != FlatKeyIndex<int>::npos; }
    void insert(const Genome& genome, double objective = std::numeric_limits<double>::quiet_NaN())
    {
        if (m_genomes.insert(genome).second)
            m_objectives.push_back(objective);
    }
    // The objective inserted with `genome` (the first one); NaN when none was or it is not in the set.
    double objective(const Genome& genome) const
    {
        const auto at = m_genomes.find(genome);
        return at == FlatKeyIndex<int>::npos ? std::numeric_limits<double>::quiet_NaN() : m_objectives[at];
    }
    std::size_t size() const { return m_genomes.size(); }

private:
    FlatKeyIndex<int> m_genomes;
    std::vector<double> m_objectives; // by the genome's index
};

// Evaluates the individuals in order, as many as its budget allows; returns how many, with their
// objectives in `objectives`.
using BatchObjective = std::function<std::size_t(std::span<const Genome>, std::vector<double>&)>;
// A batch objective without a budget, from a plain function (synthetic fitnesses, tests).
BatchObjective unlimitedObjective(std::function<double(const Genome&)> objective);

double uniform01(std::mt19937_64& rng);
int uniformInt(int lower, int upper, std::mt19937_64& rng); // inclusive

Genome randomIndividual(std::span<const GeneRange> ranges, std::mt19937_64& rng);
// A random individual that satisfies `admissible` (drawn again, at no evaluation cost, up to
// kAdmissibleDraws times; the last draw is returned regardless so that sampling always ends).
inline constexpr int kAdmissibleDraws = 1000;
Genome randomIndividual(std::span<const GeneRange> ranges, std::mt19937_64& rng,
                        const Admissible& admissible);

// Latin-hypercube sample of `count` individuals: each gene's range is split into `count` equal strata,
// every stratum is used once per gene, and strata are paired across genes by independent shuffles.
std::vector<Genome> latinHypercube(std::span<const GeneRange> ranges, int count, std::mt19937_64& rng);

// Each gene from either parent with probability 1/2.
Genome uniformCrossover(const Genome& a, const Genome& b, std::mt19937_64& rng);
// a[0, c) + b[c, n) for a cut c uniform in [1, n - 1] (a copy of `a` when n < 2).
Genome onePointCrossover(const Genome& a, const Genome& b, std::mt19937_64& rng);

// The genes in which `to` differs from `from`, as (index, value in `to`) pairs flattened in index order:
// the move from one genome to the other, the same wherever it is made (a local search's move memory).
std::vector<int> geneChanges(const Genome& from, const Genome& to);

// A uniformly drawn value of the range other than `current` (`current` when the range has one value).
int resetGene(int current, GeneRange range, std::mt19937_64& rng);
// Standard random-reset mutation: every gene is reset with probability `rate`. Returns how many
// genes changed.
int randomResetMutation(Genome& genome, std::span<const GeneRange> ranges, double rate, std::mt19937_64& rng);

} // namespace sparsemap::search
