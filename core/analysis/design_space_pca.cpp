#include "analysis/design_space_pca.hpp"

#include <Eigen/Dense>

#include <cmath>
#include <limits>

namespace sparsemap::analysis {

namespace {

double scaled(const GenomeLayout& layout, int gene, int value)
{
    const auto& g = layout.gene(gene);
    return g.upper > g.lower ? static_cast<double>(value - g.lower) / static_cast<double>(g.upper - g.lower)
                             : 0.0;
}

PrincipalAxis fitAxis(const GenomeLayout& layout, std::vector<int> genes, std::span<const Genome> genomes)
{
    PrincipalAxis axis;
    axis.genes = std::move(genes);
    const auto d = static_cast<Eigen::Index>(axis.genes.size());
    axis.mean.assign(axis.genes.size(), 0.0);
    axis.weights.assign(axis.genes.size(), 0.0);
    std::vector<const Genome*> rows;
    for (const auto& g : genomes)
        if (static_cast<int>(g.size()) == layout.size())
            rows.push_back(&g);
    if (d == 0 || rows.size() < 2)
        return axis;
    // A run of millions of points is fitted on an even sample of them (every k-th row), so that a
    // refresh costs a bounded matrix rather than gigabytes; runs up to the limit are fitted exactly.
    if (rows.size() > kMaxFitRows) {
        std::vector<const Genome*> sample(kMaxFitRows);
        for (std::size_t i = 0; i < kMaxFitRows; ++i)
            sample[i] = rows[i * rows.size() / kMaxFitRows];
        rows = std::move(sample);
    }
    Eigen::MatrixXd x(static_cast<Eigen::Index>(rows.size()), d);
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (Eigen::Index j = 0; j < d; ++j)
            x(static_cast<Eigen::Index>(r), j) = scaled(layout, axis.genes[j], (*rows[r])[axis.genes[j]]);
    const Eigen::RowVectorXd mean = x.colwise().mean();
    x.rowwise() -= mean;
    const Eigen::MatrixXd covariance = (x.adjoint() * x) / static_cast<double>(rows.size() - 1);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(covariance);
    if (solver.info() != Eigen::Success)
        return axis;
    // Eigenvalues ascend: the last column is the first principal component.
    Eigen::VectorXd v = solver.eigenvectors().col(d - 1);
    Eigen::Index largest = 0;
    v.cwiseAbs().maxCoeff(&largest);
    if (v(largest) < 0)
        v = -v;
    const double total = solver.eigenvalues().sum();
    axis.explainedShare = total > 0 ? solver.eigenvalues()(d - 1) / total : 0.0;
    for (Eigen::Index j = 0; j < d; ++j) {
        axis.mean[static_cast<std::size_t>(j)] = mean(j);
        axis.weights[static_cast<std::size_t>(j)] = v(j);
    }
    return axis;
}

} // namespace

double PrincipalAxis::project(const GenomeLayout& layout, std::span<const int> genome) const
{
    if (static_cast<int>(genome.size()) != layout.size())
        return std::numeric_limits<double>::quiet_NaN();
    double coordinate = 0;
    for (std::size_t j = 0; j < genes.size(); ++j)
        coordinate += (scaled(layout, genes[j], genome[genes[j]]) - mean[j]) * weights[j];
    return coordinate;
}

DesignSpaceProjection projectDesignSpace(const GenomeLayout& layout, std::span<const Genome> genomes)
{
    std::vector<int> mappingGenes, sparseGenes;
    for (int i = 0; i < layout.size(); ++i) {
        const auto segment = layout.gene(i).segment;
        (segment == GeneSegment::Permutation || segment == GeneSegment::Tiling ? mappingGenes : sparseGenes)
            .push_back(i);
    }
    DesignSpaceProjection p;
    p.mapping = fitAxis(layout, std::move(mappingGenes), genomes);
    p.sparse = fitAxis(layout, std::move(sparseGenes), genomes);
    p.x.reserve(genomes.size());
    p.y.reserve(genomes.size());
    for (const auto& g : genomes) {
        p.x.push_back(p.mapping.project(layout, g));
        p.y.push_back(p.sparse.project(layout, g));
    }
    return p;
}

} // namespace sparsemap::analysis
