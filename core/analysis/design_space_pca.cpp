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

// The genomes of a point log, indexable like a span of Genome (each a GenomeView).
struct LogGenomes {
    const search::PointLog& log;
    std::size_t size() const { return log.size(); }
    search::GenomeView operator[](std::size_t i) const { return log.genome(i); }
};

template <typename GenomeOrView>
double projectOne(const PrincipalAxis& axis, const GenomeLayout& layout, const GenomeOrView& genome)
{
    if (static_cast<int>(genome.size()) != layout.size())
        return std::numeric_limits<double>::quiet_NaN();
    double coordinate = 0;
    for (std::size_t j = 0; j < axis.genes.size(); ++j)
        coordinate +=
            (scaled(layout, axis.genes[j], genome[static_cast<std::size_t>(axis.genes[j])]) - axis.mean[j]) *
            axis.weights[j];
    return coordinate;
}

// `genomes`: a span of Genome or LogGenomes.
template <typename Genomes>
PrincipalAxis fitAxis(const GenomeLayout& layout, std::vector<int> genes, const Genomes& genomes)
{
    PrincipalAxis axis;
    axis.genes = std::move(genes);
    const auto d = static_cast<Eigen::Index>(axis.genes.size());
    axis.mean.assign(axis.genes.size(), 0.0);
    axis.weights.assign(axis.genes.size(), 0.0);
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < genomes.size(); ++i)
        if (static_cast<int>(genomes[i].size()) == layout.size())
            rows.push_back(i);
    if (d == 0 || rows.size() < 2)
        return axis;
    // A run of millions of points is fitted on an even sample of them (every k-th row), so that a
    // refresh costs a bounded matrix rather than gigabytes; runs up to the limit are fitted exactly.
    if (rows.size() > kMaxFitRows) {
        std::vector<std::size_t> sample(kMaxFitRows);
        for (std::size_t i = 0; i < kMaxFitRows; ++i)
            sample[i] = rows[i * rows.size() / kMaxFitRows];
        rows = std::move(sample);
    }
    Eigen::MatrixXd x(static_cast<Eigen::Index>(rows.size()), d);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const auto& genome = genomes[rows[r]];
        for (Eigen::Index j = 0; j < d; ++j)
            x(static_cast<Eigen::Index>(r), j) =
                scaled(layout, axis.genes[j], genome[static_cast<std::size_t>(axis.genes[j])]);
    }
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

template <typename Genomes> DesignSpaceProjection project(const GenomeLayout& layout, const Genomes& genomes)
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
    for (std::size_t i = 0; i < genomes.size(); ++i) {
        const auto& genome = genomes[i];
        p.x.push_back(projectOne(p.mapping, layout, genome));
        p.y.push_back(projectOne(p.sparse, layout, genome));
    }
    return p;
}

} // namespace

double PrincipalAxis::project(const GenomeLayout& layout, std::span<const int> genome) const
{
    return projectOne(*this, layout, genome);
}

DesignSpaceProjection projectDesignSpace(const GenomeLayout& layout, std::span<const Genome> genomes)
{
    return project(layout, genomes);
}

DesignSpaceProjection projectDesignSpace(const GenomeLayout& layout, const search::PointLog& points)
{
    return project(layout, LogGenomes{points});
}

} // namespace sparsemap::analysis
