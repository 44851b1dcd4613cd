#pragma once
// The design-space map of the SparseMap paper's Fig. 7: every evaluated genome projected to 2-D,
// the mapping genes (permutations and tiling) onto their first principal component (x) and the
// sparse-strategy genes (formats and S/G) onto theirs (y). Genes are scaled to [0, 1] by their
// bounds first, so that a permutation code (up to D!) does not outweigh a format gene (0..4).
#include "genome/genome_layout.hpp"
#include "search/point_log.hpp"

#include <span>
#include <vector>

namespace sparsemap::analysis {

struct PrincipalAxis {
    std::vector<int> genes;      // the layout's gene indices on this axis
    std::vector<double> mean;    // per gene, scaled
    std::vector<double> weights; // unit vector over `genes`; largest |weight| positive (a fixed sign)
    double explainedShare = 0;   // variance on the axis / total variance of these genes (0 when none)

    // The coordinate of a genome (its scaled genes minus the mean, dotted with the weights).
    double project(const GenomeLayout& layout, std::span<const int> genome) const;
};

struct DesignSpaceProjection {
    PrincipalAxis mapping;    // x
    PrincipalAxis sparse;     // y
    std::vector<double> x, y; // per input genome; NaN for a genome of the wrong length
};

// At most this many genomes are used to fit an axis: beyond it, an even sample (genome i * n / limit
// for i = 0..limit-1 of the n that have the layout's length). Every genome is projected.
inline constexpr std::size_t kMaxFitRows = 50000;

// Fits both axes to `genomes` (genomes of the wrong length, e.g. empty ones, are skipped in the fit)
// and projects them. Deterministic: the same genomes give the same axes and coordinates.
DesignSpaceProjection projectDesignSpace(const GenomeLayout& layout, std::span<const Genome> genomes);
// The same for the genomes of a run's log (no copy of them).
DesignSpaceProjection projectDesignSpace(const GenomeLayout& layout, const search::PointLog& points);

} // namespace sparsemap::analysis
