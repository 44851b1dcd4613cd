#pragma once
// Runs a pagmo2 algorithm on the SparseMap genome through a SearchContext (pagmo's problem /
// population / algorithm split, minus what pagmo gets wrong for us):
// - The user-defined problem evaluates every decision vector through SearchContext::evaluate, so
//   the budget, the point log and the best design are the context's. Real vectors are rounded and
//   clamped to the gene bounds (pagmo's continuous optimizers ignore integer genes); only the GA
//   declares the genes integer (get_nix), with integer bounds. Continuous methods see each gene as
//   [lower - 0.5, upper + 0.5], so rounding gives every value the same share of the interval.
// - pagmo needs finite fitness: fitness = log10(objective), and an invalid design gets
//   kInvalidFitness, above log10 of any finite double (308.3) — worse than every valid design. The
//   log keeps the annealing temperature and CMA-ES steps meaningful across orders of magnitude.
// - pagmo cannot be cancelled: the algorithm evolves in chunks (one generation, or one annealing
//   cycle, per evolve call) and the problem throws out of evolve() as soon as the context is done,
//   so no evaluation beyond the budget happens and a cancel stops within one evaluation.
// - The initial population is random genomes drawn from context.rng() and evaluated as one parallel
//   batch (their evaluations count); pagmo seeds come from context.rng() too, so a seed gives the
//   same run for any thread count (inside evolve() pagmo evaluates one vector at a time).
// - Restarts: when an evolve call evaluates nothing (pagmo's own convergence exits, e.g. CMA-ES on a
//   flat population) or the restart's best has not improved for `stallEvaluations`, a new random
//   population and a freshly seeded algorithm start over; the run ends only when the context is done.
#include "search/search_context.hpp"

#include <pagmo/algorithm.hpp>

#include <functional>

namespace sparsemap::search::detail {

inline constexpr double kInvalidFitness = 400;

// log10 of a valid objective; kInvalidFitness for +inf (invalid or not evaluated).
double fitnessOf(double objective);

struct PagmoRun {
    int populationSize = 50;
    bool integerGenes = false;         // declare the genes integer (get_nix): the GA only
    std::int64_t stallEvaluations = 0; // 0 = restart only when an evolve call evaluates nothing
    int reportEvery = 0; // > 0: close a generation every this many evaluations, else per evolve call
};

// Evolves until context.done(). `makeAlgorithm(seed)` builds the algorithm of one (re)start.
void runPagmo(SearchContext& context, const PagmoRun& run,
              const std::function<pagmo::algorithm(unsigned seed)>& makeAlgorithm);

} // namespace sparsemap::search::detail
