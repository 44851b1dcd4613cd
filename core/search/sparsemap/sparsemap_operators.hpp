#pragma once
// SparseMap's customized evolutionary operators (paper IV-E): annealing mutation (Eq. 6-7) and
// sensitivity-aware crossover (SAC), given the high-sensitivity genes of the calibration.
#include "search/es/genetic_operators.hpp"

namespace sparsemap::search {

// The genome split by sensitivity. A high-sensitivity segment is a maximal run of consecutive
// high-sensitivity genes; SAC may cut only at the boundaries of such segments.
struct SensitivityClasses {
    std::vector<int> high;                  // gene indices
    std::vector<int> low;                   // gene indices
    std::vector<SegmentRange> highSegments; // maximal runs of high genes
    std::vector<int> cutPoints;             // segment boundaries strictly inside (0, genome length)
};

SensitivityClasses sensitivityClasses(const std::vector<bool>& high);

// Eq. 6: P_h(g) = initial * e^(-phi) * (1 - phi), phi = g / G clamped to [0, 1] (the paper's
// initial = 0.8). P_l = 1 - P_h (Eq. 7). G <= 0 counts as phi = 1.
double highMutationProbability(int generation, int totalGenerations, double initial = 0.8);

// How a mutated gene moves. Reset: a uniform value other than the current one. Neighbour: with
// probability `neighbourShare` one step up or down (reflected at the bounds) - for Cantor-coded
// permutations a small change of the inner loops - else a reset, so that outer loops still move.
enum class MutationStep { Reset, Neighbour };

// The gene annealing mutation moves: the high-sensitivity class with probability pHigh, else the low
// one (the other class when the chosen one is empty), then a gene of it drawn uniformly; -1 when both
// classes are empty.
int annealingGene(const SensitivityClasses& classes, double pHigh, std::mt19937_64& rng);

// Annealing mutation: picks the high-sensitivity genes with probability pHigh, else the low ones
// (the other class when the chosen one is empty), then mutates one gene of it drawn uniformly.
// Returns the mutated gene, or -1 when no gene can change.
int annealingMutation(Genome& genome, const SensitivityClasses& classes, std::span<const GeneRange> ranges,
                      std::span<const MutationStep> steps, double pHigh, double neighbourShare,
                      std::mt19937_64& rng);

// SAC: a multi-point crossover whose possible cuts are the boundaries of the high-sensitivity
// segments. The child starts from a random parent and switches parent at each cut point with
// probability 1/2, so it inherits every block between consecutive cut points - in particular every
// high-sensitivity segment - whole from one parent. Without cut points it copies a random parent.
Genome sensitivityAwareCrossover(const Genome& a, const Genome& b, std::span<const int> cutPoints,
                                 std::mt19937_64& rng);

} // namespace sparsemap::search
