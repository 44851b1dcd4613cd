#pragma once
// The standard evolution strategy of the ablation study (paper V-F, Fig. 18), on two encodings:
//   EsDirect ("es-direct"): the direct encoding (loop-bound values, random permutation codes);
//   EsPfce   ("es-pfce", "es-pfce-random-perm"): the SparseMap genome (prime-factor + Cantor
//            encoding, or random permutation codes), with the same standard operators.
// Both: Latin-hypercube initial population, truncation parents, uniform (or one-point) crossover,
// random-reset mutation, elitist (mu + lambda) survival; dead individuals rank last.
//
// Defaults (the paper gives none) match SparseMapEs where the concepts coincide, so that the
// ablation changes the operators and initialization only: population 100, 100 offspring per
// generation, the best 50 may be parents, crossover probability 0.9 (a pagmo-like standard), and
// one expected gene mutation per offspring (rate 1/n, the textbook random-reset rate), and - as in
// SparseMapEs - an offspring equal to an individual already evaluated gets one more random-reset
// gene, up to 10 times (rejectDuplicates), since re-evaluating a point only spends budget.
#include "search/es/permutation_encoding.hpp"
#include "search/optimizer.hpp"

namespace sparsemap::search {

enum class CrossoverKind { Uniform, OnePoint };

struct StandardEsParameters {
    int populationSize = 100;         // survivors per generation (mu); also the LHS sample size
    int offspringPerGeneration = 100; // lambda
    int parentCount = 50;             // the best members that may become parents
    double crossoverProbability = 0.9;
    CrossoverKind crossover = CrossoverKind::Uniform;
    double mutationsPerOffspring = 1.0; // expected reset genes per offspring: rate = this / n
    // EsPfce only (EsDirect always uses random codes, as the paper's direct encoding does).
    PermutationEncoding permutationEncoding = PermutationEncoding::Cantor;
    bool rejectDuplicates = true;
};

// Throws std::invalid_argument naming the first bad parameter.
void validate(const StandardEsParameters& parameters);

class EsPfce : public Optimizer {
public:
    explicit EsPfce(StandardEsParameters parameters = {}); // validates
    const StandardEsParameters& parameters() const { return m_parameters; }
    std::string name() const override;
    void run(SearchContext& context) override;

private:
    StandardEsParameters m_parameters;
};

class EsDirect : public Optimizer {
public:
    explicit EsDirect(StandardEsParameters parameters = {}); // validates
    const StandardEsParameters& parameters() const { return m_parameters; }
    std::string name() const override { return "es-direct"; }
    void run(SearchContext& context) override;

private:
    StandardEsParameters m_parameters;
};

} // namespace sparsemap::search
