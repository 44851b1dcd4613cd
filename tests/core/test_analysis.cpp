// The analysis helpers: the design-space PCA of paper Fig. 7 and Spearman's rank correlation (used
// by `sparsemap validate`), on inputs whose answers are known by construction.
#include "analysis/design_space_pca.hpp"
#include "analysis/rank_correlation.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <cmath>

using namespace sparsemap;

namespace {

// A toy genome (30 genes, see test_genome_paper_examples.cpp) with every gene at its lower bound.
Genome baseGenome(const GenomeLayout& layout)
{
    Genome g(layout.size());
    for (int i = 0; i < layout.size(); ++i)
        g[i] = layout.gene(i).lower;
    return g;
}

} // namespace

class TestAnalysis : public QObject {
    Q_OBJECT
private slots:
    // Only perm1 (gene 0, codes 1..6) varies: the mapping axis is that gene alone, explaining all of
    // the variance; scaled values 0, 0.2, ..., 1 around their mean 0.5 give x = -0.5 ... 0.5.
    void oneVaryingGeneIsTheAxis()
    {
        const GenomeLayout layout(test::toyWorkload(), test::toyArchitecture());
        std::vector<Genome> genomes;
        for (int code = 1; code <= 6; ++code) {
            auto g = baseGenome(layout);
            g[0] = code;
            genomes.push_back(g);
        }
        const auto p = analysis::projectDesignSpace(layout, genomes);
        QCOMPARE(p.mapping.weights[0], 1.0);
        for (std::size_t j = 1; j < p.mapping.weights.size(); ++j)
            QVERIFY(std::abs(p.mapping.weights[j]) < 1e-12);
        QVERIFY(std::abs(p.mapping.explainedShare - 1.0) < 1e-12);
        for (int i = 0; i < 6; ++i) {
            QVERIFY(std::abs(p.x[i] - (-0.5 + 0.2 * i)) < 1e-12);
            QVERIFY(std::abs(p.y[i]) < 1e-12); // the sparse genes never change
        }
        QCOMPARE(p.sparse.explainedShare, 0.0);
    }

    // Two sparse genes that move together (P's innermost format and Q's, both 0..4): the axis is
    // their diagonal, weights 1/sqrt(2) each.
    void correlatedGenesShareTheAxis()
    {
        const GenomeLayout layout(test::toyWorkload(), test::toyArchitecture());
        const int p5 = layout.formatSegment(0).end - 1;
        const int q5 = layout.formatSegment(1).end - 1;
        std::vector<Genome> genomes;
        for (int f = 0; f <= 4; ++f) {
            auto g = baseGenome(layout);
            g[p5] = g[q5] = f;
            genomes.push_back(g);
        }
        const auto p = analysis::projectDesignSpace(layout, genomes);
        double wp = 0, wq = 0;
        for (std::size_t j = 0; j < p.sparse.genes.size(); ++j) {
            if (p.sparse.genes[j] == p5)
                wp = p.sparse.weights[j];
            if (p.sparse.genes[j] == q5)
                wq = p.sparse.weights[j];
        }
        QVERIFY(std::abs(wp - 1 / std::sqrt(2.0)) < 1e-9);
        QVERIFY(std::abs(wq - 1 / std::sqrt(2.0)) < 1e-9);
        // y grows with the format value: scaled 0, .25, .5, .75, 1 (mean .5) times sqrt(2).
        for (int f = 0; f <= 4; ++f)
            QVERIFY(std::abs(p.y[f] - (0.25 * f - 0.5) * std::sqrt(2.0)) < 1e-9);
    }

    void genomesOfTheWrongLengthAreSkipped()
    {
        const GenomeLayout layout(test::toyWorkload(), test::toyArchitecture());
        std::vector<Genome> genomes{baseGenome(layout), Genome{}, baseGenome(layout)};
        genomes[2][0] = 6;
        const auto p = analysis::projectDesignSpace(layout, genomes);
        QVERIFY(std::isnan(p.x[1]) && std::isnan(p.y[1]));
        QVERIFY(std::isfinite(p.x[0]) && std::isfinite(p.x[2]));
        QVERIFY(p.x[2] > p.x[0]);
        QVERIFY(analysis::projectDesignSpace(layout, std::vector<Genome>{}).x.empty());
    }

    void ranksAverageTies()
    {
        QCOMPARE(analysis::ranks({10, 20, 20, 30}), (std::vector<double>{1, 2.5, 2.5, 4}));
        QCOMPARE(analysis::ranks({3, 1, 2}), (std::vector<double>{3, 1, 2}));
    }

    void spearmanOfMonotoneAndReversedOrders()
    {
        QCOMPARE(analysis::spearman({1, 2, 3, 4}, {10, 100, 1000, 10000}), 1.0);
        QCOMPARE(analysis::spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
        // d = (0, 0, 1, -1): rho = 1 - 6 * 2 / (4 * 15) = 0.8.
        QVERIFY(std::abs(analysis::spearman({1, 2, 3, 4}, {1, 2, 4, 3}) - 0.8) < 1e-12);
        QCOMPARE(analysis::spearman({1}, {1}), 0.0);
    }
};

QTEST_APPLESS_MAIN(TestAnalysis)
#include "test_analysis.moc"
