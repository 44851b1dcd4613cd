#pragma once
// The relaxed genome Mind Mappings differentiates through (paper 4.1.2, 4.2): every gene becomes
// real numbers, and a real vector is projected back to the nearest genome.
//
// Permutation codes (ordinal: Cantor codes of loop orders, up to 7! values) are one real each; the
// other genes are choices among a few values and become one-hot blocks, as the paper encodes its
// discrete choices: the mapping level each prime factor of the tiling goes to (one-hot, so that a
// linear layer can sum log factors into log tile sizes: the ordinal slot number made the surrogate
// markedly less accurate), formats and skip/gate choices. Projection rounds each ordinal gene to the
// nearest integer in its range and takes the largest entry of each one-hot block; when the genome's
// spatial loops then overflow a level's fan-out (the cheap validity check every method applies
// before evaluating), tiling factors are moved, one at a time, to the level nearest in the scaled
// squared distance among the moves that do not overflow another level: the nearest valid
// neighbour. Capacity and sparse-strategy validity need the model and are left to it.
#include "genome/genome_layout.hpp"

#include <Eigen/Dense>

namespace sparsemap::search {

class GenomeRelaxation {
public:
    explicit GenomeRelaxation(const GenomeLayout& layout);

    const GenomeLayout& layout() const { return m_layout; }
    int size() const { return m_size; } // relaxed values
    // The first relaxed value of gene g, and how many it has (1, or the range for one-hot genes).
    int offset(int gene) const { return m_offset[static_cast<std::size_t>(gene)]; }
    int width(int gene) const { return m_width[static_cast<std::size_t>(gene)]; }

    Eigen::VectorXd relax(std::span<const int> genome) const;
    // The nearest genome to `x` (any real values; NaN counts as the gene's lower bound), in bounds
    // and within every fan-out. `scale` (one positive value per relaxed value, e.g. the whitening
    // standard deviations) weighs distances in the fan-out repair; empty = all ones.
    Genome project(const Eigen::VectorXd& x, const Eigen::VectorXd& scale = {}) const;
    // Clamps every relaxed value into its gene's box ([lower, upper] or [0, 1] for one-hot entries).
    void clampToBox(Eigen::VectorXd& x) const;

private:
    // Scaled squared distance between gene `gene`'s relaxed values in x and the value `value`.
    double distance(const Eigen::VectorXd& x, const Eigen::VectorXd& scale, int gene, int value) const;
    void repairFanout(const Eigen::VectorXd& x, const Eigen::VectorXd& scale, Genome& genome) const;

    const GenomeLayout& m_layout;
    std::vector<int> m_offset;
    std::vector<int> m_width;
    int m_size = 0;
};

} // namespace sparsemap::search
