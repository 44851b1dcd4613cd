#pragma once
// SparseMap's evolution strategy (paper IV-D, IV-E, IV-H; SPEC 6.1) as an Optimizer:
//   0. calibration: Monte-Carlo high-sensitivity gene calibration (Eq. 2-5);
//   1. initialization: high-sensitivity hypercube initialization (HSHI) -> generation 0;
//   2. per generation: pairs of parents from the best members, sensitivity-aware crossover,
//      annealing mutation (Eq. 6-7) with P_h annealed over G generations, evaluation, elitist
//      survival (offspring join the population, the best populationSize stay; dead = last).
// Every evaluation counts in the budget, calibration and initialization included. G is the number
// of generations the budget left after initialization allows: ceil(remaining / offspring).
//
// Defaults - the paper fixes I (not its value), the 3/4 threshold, 100 hypercubes x 20 samples and
// Eq. 6; the rest is ours, chosen so calibration + initialization stay well under 10% of a 20,000
// budget (measured: ~730 evaluations on conv4 / cloud, ~950-1,300 on mm3 / cloud):
// - calibrationTrials I = 3, samplesPerGene = 4: 3 x genes x 4 evaluations (~400 on mm3's 32 genes,
//   ~560 on conv4's 47) plus the base search; three bases average out most of the base-dependence
//   of Eq. 2, and four new values + the base give 10 pairs per gene and trial.
// - maxCalibrationShare = 0.1: on small budgets samplesPerGene, then trials, are lowered (to 1)
//   until the plan fits 10% of the budget, so a 5,000 run still keeps ~90% for the ES.
// - maxBaseSamples = 300: a base is found in ~6 samples at 17% valid (mm3/cloud), ~55 at 1.8%
//   (mm3/edge); beyond 300 the space is too hostile to calibrate and the trials are skipped.
// - population 100 (= the paper's 100 hypercubes), 100 offspring per generation (a (100 + 100) ES:
//   ~190 generations in 20,000), parents = the best 50 (truncation: "high-fitness parents").
// - crossoverProbability 1.0 (the paper crosses every pair), mutationProbability 0.9 per offspring:
//   SAC alone often reproduces a parent (its few cut points leave long blocks), so nearly every
//   offspring also gets one annealing mutation to avoid spending evaluations on known points.
// - neighbourStepShare 0.5: a mutated permutation gene steps +-1 (Cantor locality: a change of the
//   inner loops) half of the time, else takes a uniform new value (the outer loops must move too).
//   Every other gene (tiling level, format, S/G: categorical) takes a uniform new value.
// - calibratedLowGenesShare 0.5: HSHI samples take their low-sensitivity genes from a valid
//   calibration individual half of the time (validity), else uniformly (diversity: the calibration
//   has only I bases, and its valid individuals differ from them in one gene).
// - rejectDuplicates: an offspring equal to an individual already evaluated (the model is
//   deterministic: a wasted evaluation) is mutated again, up to 10 times. Without it a converged
//   (mu + lambda) population spends a third of the budget on repeats (measured on mm3 / cloud: 66%
//   distinct points). The standard ES of the ablations does the same, so the comparison is fair.
#include "search/es/permutation_encoding.hpp"
#include "search/optimizer.hpp"
#include "search/sparsemap/hypercube_initialization.hpp"
#include "search/sparsemap/sensitivity_calibration.hpp"

namespace sparsemap::search {

struct SparseMapEsParameters {
    // Calibration (Eq. 2-5).
    int calibrationTrials = 3;
    int samplesPerGene = 4;
    int maxBaseSamples = 300;
    double maxCalibrationShare = 0.1;
    double thresholdFraction = 0.75;
    // HSHI.
    int hypercubes = 100;
    int samplesPerHypercube = 20;
    double calibratedLowGenesShare = 0.5;
    // Evolution.
    int populationSize = 100;
    int offspringPerGeneration = 100;
    int parentCount = 50;
    double crossoverProbability = 1.0;
    double mutationProbability = 0.9;
    double initialHighMutation = 0.8; // P_h(0) of Eq. 6
    double neighbourStepShare = 0.5;
    PermutationEncoding permutationEncoding = PermutationEncoding::Cantor;
    bool rejectDuplicates = true;
    // Random draws (calibration bases, hypercube samples, restarts) skip genomes whose spatial
    // fan-out cannot fit the architecture, without spending an evaluation: the pre-check the
    // Mapper baseline applies too. Without it, on the edge preset (one MAC per PE) a random genome
    // of a large workload is almost never valid and the ES can end a run with nothing valid.
    bool prefilterFanout = true;
    // In Sparseloop's format space (dead formats), every new individual -- random draw or offspring --
    // has its format genes reordered so that each tensor's uncompressed ranks lie above its
    // compressed ones (orderFormatGenesForSparseloop): a Lamarckian repair, written back into the
    // genome. Without it a random format sequence over 5-8 ranks is almost never representable and
    // the ES can end a large edge workload with nothing valid (measured in docs/results/README.md).
    bool repairFormats = true;
};

// Throws std::invalid_argument naming the first bad parameter.
void validate(const SparseMapEsParameters& parameters);

// The calibration actually run for a budget: samplesPerGene, then trials, lowered (not below 1)
// until trials x genes x samplesPerGene <= maxCalibrationShare x budget.
CalibrationParameters calibrationPlan(const SparseMapEsParameters& parameters, int genes,
                                      std::int64_t budget);

// What a run learnt besides its points: for the GUI's sensitivity strip and for tests.
struct SparseMapEsReport {
    CalibrationResult calibration;
    int initialPopulation = 0;
    int initialValid = 0;
    std::int64_t initializationEvaluations = 0; // calibration + HSHI
    int plannedGenerations = 0;                 // G
};

class SparseMapEs : public Optimizer {
public:
    explicit SparseMapEs(SparseMapEsParameters parameters = {}); // validates
    const SparseMapEsParameters& parameters() const { return m_parameters; }
    std::string name() const override;
    void run(SearchContext& context) override;
    // Of the last run.
    const SparseMapEsReport& report() const { return m_report; }

private:
    SparseMapEsParameters m_parameters;
    SparseMapEsReport m_report;
};

} // namespace sparsemap::search
