#pragma once
// The (mu + lambda) generation loop every evolution strategy here runs (SparseMap ES in both its
// variants, es-pfce, es-direct): each generation breeds `offspringPerGeneration` children of parents
// drawn from the best `parentCount` members, evaluates them in one parallel batch, and keeps the best
// `populationSize` of parents and children (dead = last). What differs between the strategies -
// crossover, mutation, repair, the canonical form, a polish of the elite - comes in as operators.
#include "search/es/genetic_operators.hpp"
#include "search/search_context.hpp"

#include <functional>

namespace sparsemap::search {

struct EvolutionSettings {
    int populationSize = 100;
    int offspringPerGeneration = 100;
    int parentCount = 50;
    // An offspring already evaluated (found in the run's GenomeSet) gets `remutate` up to this many
    // times (0: evaluated as bred).
    int duplicateRetries = 10;
    // Still a duplicate after the retries: evaluated anyway (false, the paper's ES and the ablations)
    // or replaced by a `fresh` individual, and dropped if that is known too (true: a duplicate never
    // costs an evaluation).
    bool neverReevaluate = false;
    // With neverReevaluate: the run ends when this many generations in a row bred nothing new (the
    // operators' reach is exhausted, e.g. a tiny design space).
    int emptyGenerationsToStop = 3;
};

// Throws std::invalid_argument naming the first bad setting (`owner` prefixes the message).
void validate(const EvolutionSettings& settings, const std::string& owner);

struct EvolutionOperators {
    // A child of two parents (crossover, mutation, repair, canonical form); `generation` counts from 0
    // at the first bred generation. Called on the loop's thread (all randomness stays there).
    std::function<Genome(const Genome& a, const Genome& b, int generation)> breed;
    // One more change to an offspring that the run has already evaluated.
    std::function<void(Genome&)> remutate;
    // A new individual, used while the population has no valid member to breed from (and, with
    // neverReevaluate, in place of a duplicate).
    std::function<Genome()> fresh;
    // Optional: called after survival with the population sorted best first; it may evaluate (a
    // polish of the elite, a restart) and change the population. Its evaluations belong to the
    // generation that is then closed.
    std::function<void(Population&, int generation)> afterSurvival;
    // Optional: false for an offspring that cannot be valid whatever the model says (e.g. its spatial
    // fan-out does not fit). Such a child is treated as a duplicate: `remutate`d up to duplicateRetries
    // times, then replaced by a `fresh` individual with neverReevaluate (evaluated as bred without), so
    // no evaluation is spent on it.
    std::function<bool(const Genome&)> admissible;
    // Optional: survival in place of keeping the best `populationSize` (it must leave the population
    // sorted best first, at most populationSize members): e.g. niches.
    std::function<void(Population&)> survive;
    // Optional: called with each offspring as it joins the generation's batch, in order (before the batch
    // is evaluated): e.g. to start its evaluation while the rest is bred (SearchContext::prefetchFitting).
    std::function<void(const Genome&)> bred;
};

// Runs generations until the context is done (budget spent or cancelled). `evaluate` evaluates a batch
// and records it in `seen`; `population` is the initial population (generation 0, already evaluated
// and closed by the caller) and ends as the final one. Throws std::invalid_argument on bad settings.
void evolve(SearchContext& context, const EvolutionSettings& settings, Population& population,
            const GenomeSet& seen, const BatchObjective& evaluate, const EvolutionOperators& operators);

} // namespace sparsemap::search
