#pragma once
// High-sensitivity hypercube initialization (HSHI, paper IV-D, Fig. 11).
//
// How the space of h high-sensitivity genes is cut into ~100 hypercubes: every gene's range is cut
// into bins (contiguous, as equal as integers allow), and the bin counts are grown one at a time,
// always on the gene with the fewest bins that can still be split (ties: the wider range, then the
// earlier gene), until the product of the bin counts first reaches the target. The grid is thus as
// close to a regular h-dimensional grid of ~target^(1/h) bins per axis as the ranges allow (e.g. one
// gene: 100 bins; two genes of 720 and 5 values: 20 x 5; seven binary genes: 2^7 = 128 cells).
// When the grid has more cells than the target, `target` distinct cells are drawn at random; when
// the space is smaller (e.g. two genes of 5 values: 25 cells), every cell is used in turn until
// `target` individuals are placed. With no high-sensitivity gene the grid is one cell: plain random
// sampling.
//
// In each chosen cell up to samplesPerHypercube random individuals are drawn (high-sensitivity genes
// uniform inside the cell; low-sensitivity genes, with probability calibratedLowGenesShare, from a
// valid individual of the calibration - the paper's "valid combinations of low-sensitivity genes" -
// else uniform) and the first valid one is kept. Cells are sampled round by round, one individual
// per pending cell per round, so each round is one parallel batch. A cell that finds nothing takes
// the best unused valid calibration individual (already evaluated: free), else its last dead sample.
#include "search/sparsemap/sensitivity_calibration.hpp"

namespace sparsemap::search {

class HypercubeGrid {
public:
    // `genes`: the indices of the high-sensitivity genes into `ranges`.
    HypercubeGrid(std::vector<int> genes, std::span<const GeneRange> ranges, int targetCells);

    const std::vector<int>& genes() const { return m_genes; }
    const std::vector<int>& bins() const { return m_bins; }
    std::int64_t cellCount() const { return m_cellCount; }
    // The cell holding an individual (mixed radix over the genes' bins, first gene fastest).
    std::int64_t cellOf(const Genome& genome) const;
    // Sets the grid's genes of `genome` uniformly inside `cell`.
    void sampleInCell(std::int64_t cell, Genome& genome, std::mt19937_64& rng) const;
    // `count` cells: distinct random cells when the grid has enough, else every cell in turn.
    std::vector<std::int64_t> chooseCells(int count, std::mt19937_64& rng) const;

private:
    std::vector<int> m_genes;
    std::vector<GeneRange> m_ranges; // of m_genes
    std::vector<int> m_bins;
    std::int64_t m_cellCount = 1;
};

struct HypercubeParameters {
    int hypercubes = 100;                 // the paper's 100
    int samplesPerHypercube = 20;         // the paper's 20
    double calibratedLowGenesShare = 0.5; // see SparseMapEsParameters
    Admissible admissible;                // samples must satisfy it (drawn again for free); empty = any
    // A cell whose kAdmissibleDraws draws of one round found no admissible sample (its high genes
    // alone rule it out, e.g. spatial factors beyond the fan-out) is given up for the later rounds:
    // they would spend the same draws and an evaluation each on inadmissible samples.
    bool dropInadmissibleCells = false;
};

void validate(const HypercubeParameters& parameters); // throws std::invalid_argument

struct HypercubeInitialization {
    Population population;           // one individual per chosen cell (fewer if the budget ran out)
    std::vector<std::int64_t> cells; // the cell each member lies in
    int validCells = 0;              // cells whose own samples found a valid individual
    std::int64_t evaluations = 0;
    bool exhausted = false;
};

HypercubeInitialization hypercubeInitialization(std::span<const GeneRange> ranges,
                                                const std::vector<bool>& high,
                                                const Population& validCombinations,
                                                const BatchObjective& objective,
                                                const HypercubeParameters& parameters, std::mt19937_64& rng);

} // namespace sparsemap::search
