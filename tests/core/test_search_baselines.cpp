// Baseline search methods (paper V): exact budgets, valid best designs, determinism across thread
// counts, the fixed halves of mapper and sage, parameter checks, zero budgets, cancellation, and runs
// that never find a valid design.
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "search/baselines/annealing_search.hpp"
#include "search/baselines/baseline_support.hpp"
#include "search/baselines/cmaes_search.hpp"
#include "search/baselines/de_search.hpp"
#include "search/baselines/ga_search.hpp"
#include "search/baselines/mapper_search.hpp"
#include "search/baselines/mcts_search.hpp"
#include "search/baselines/pso_search.hpp"
#include "search/baselines/random_search.hpp"
#include "search/baselines/sage_mapping.hpp"
#include "search/baselines/sage_search.hpp"
#include "sample_inputs.hpp"
#include "workload/workload_factory.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <algorithm>
#include <memory>

using namespace sparsemap;
using namespace sparsemap::search;

namespace {

const char* const kMethods[] = {"mapper", "sage", "pso", "sa", "ga", "cmaes", "de", "mcts", "random"};

std::unique_ptr<Optimizer> makeMethod(const QString& name)
{
    if (name == "mapper")
        return std::make_unique<MapperSearch>();
    if (name == "sage")
        return std::make_unique<SageSearch>();
    if (name == "pso")
        return std::make_unique<PsoSearch>();
    if (name == "sa")
        return std::make_unique<AnnealingSearch>();
    if (name == "ga")
        return std::make_unique<GaSearch>();
    if (name == "cmaes")
        return std::make_unique<CmaesSearch>();
    if (name == "de")
        return std::make_unique<DeSearch>();
    if (name == "mcts")
        return std::make_unique<MctsSearch>();
    return std::make_unique<RandomSearch>();
}

void addMethodRows()
{
    QTest::addColumn<QString>("method");
    for (const char* m : kMethods)
        QTest::newRow(m) << QString(m);
}

SearchResult run(Optimizer& optimizer, const GenomeLayout& layout, std::int64_t budget, int threads = 0,
                 const CancelToken* cancel = nullptr, const ProgressCallback& progress = {})
{
    SearchSettings settings;
    settings.budget = budget;
    settings.seed = 7;
    settings.threads = threads;
    return runSearch(optimizer, layout, settings, {}, cancel, progress);
}

// The best point must be the first valid point of least objective.
void checkBest(const SearchResult& r)
{
    std::int64_t best = -1;
    for (std::size_t i = 0; i < r.points.size(); ++i)
        if (r.points[i].valid && (best < 0 || r.points[i].objective < r.points[std::size_t(best)].objective))
            best = std::int64_t(i);
    QCOMPARE(r.bestIndex, best);
}

std::vector<int> slice(const Genome& g, SegmentRange range)
{
    return {g.begin() + range.begin, g.begin() + range.end};
}

} // namespace

class TestSearchBaselines : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { m_layout = std::make_unique<GenomeLayout>(test::sampleLayout("mm3", "cloud")); }

    void budgetIsExactAndBestValid_data() { addMethodRows(); }
    void budgetIsExactAndBestValid()
    {
        QFETCH(QString, method);
        auto optimizer = makeMethod(method);
        QCOMPARE(QString::fromStdString(optimizer->name()), method);
        const auto r = run(*optimizer, *m_layout, 2000);
        QCOMPARE(r.points.size(), std::size_t(2000));
        QVERIFY(r.best().has_value());
        QVERIFY(r.best()->valid);
        QVERIFY(std::isfinite(r.best()->objective));
        checkBest(r);
        QVERIFY(!r.convergence.empty());
        QCOMPARE(r.convergence.back().evaluations, std::int64_t(2000));
        QVERIFY(!r.cancelled);
        for (const auto& p : r.points)
            m_layout->validate(p.genome.toGenome());
    }

    void sameSeedSameLogForAnyThreadCount_data() { addMethodRows(); }
    void sameSeedSameLogForAnyThreadCount()
    {
        QFETCH(QString, method);
        auto one = makeMethod(method), two = makeMethod(method);
        const auto a = run(*one, *m_layout, 1000, 1);
        const auto b = run(*two, *m_layout, 1000, 2);
        QCOMPARE(a.points.size(), b.points.size());
        for (std::size_t i = 0; i < a.points.size(); ++i) {
            QCOMPARE(a.points[i].genome, b.points[i].genome);
            QCOMPARE(a.points[i].objective, b.points[i].objective);
            QCOMPARE(a.points[i].generation, b.points[i].generation);
        }
        QCOMPARE(a.bestIndex, b.bestIndex);
        QCOMPARE(a.convergence.size(), b.convergence.size());
    }

    void mapperKeepsTheSparseGenes()
    {
        const auto sparse = m_layout->sparseGenes();
        const auto defaults = defaultMapperSparseGenes(*m_layout);
        QCOMPARE(defaults, (std::vector<int>{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 6, 0}));
        std::vector<int> custom(defaults.size(), 0); // all uncompressed, no S/G
        custom[3] = 2;
        for (const auto& genes : {std::vector<int>{}, custom}) {
            MapperSearch mapper({genes});
            const auto r = run(mapper, *m_layout, 1500);
            QCOMPARE(r.points.size(), std::size_t(1500));
            for (const auto& p : r.points) {
                // mm3 on cloud allows the default's skip: every sample keeps it (the gate fallback changes
                // nothing where the skip can be built).
                QCOMPARE(slice(p.genome, sparse), genes.empty() ? defaults : genes);
                // The fan-out pre-check rejects such mappings before they cost budget.
                QVERIFY(spatialFanoutFits(*m_layout, p.genome.toGenome()));
                QVERIFY2(p.reason.find("fan-out") == std::string::npos, std::string(p.reason).c_str());
            }
        }
    }

    // Issue 69 item 23: with K = 1 (1x1x1, MxKxN = 8x1x1, 1x1x8) every operand rank at the PE buffer is
    // one wide in any mapping, so the mapper's Skip P<->Q there has no leader metadata: it gates P<->Q
    // instead and finds valid designs, as random sampling of the whole genome does. With K = 8 (1x8x1)
    // some mappings allow the skip, and the strategy stays the default.
    void mapperFindsDesignsOnDegenerateShapes_data()
    {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("peGene"); // the PE buffer's S/G gene: 3 Gate P<->Q, 6 Skip P<->Q
        QTest::newRow("1x1x1") << 1 << 1 << 1 << 3;
        QTest::newRow("8x1x1") << 8 << 1 << 1 << 3;
        QTest::newRow("1x1x8") << 1 << 1 << 8 << 3;
        QTest::newRow("1x8x1") << 1 << 8 << 1 << 6;
    }
    void mapperFindsDesignsOnDegenerateShapes()
    {
        QFETCH(int, m);
        QFETCH(int, k);
        QFETCH(int, n);
        QFETCH(int, peGene);
        const GenomeLayout layout(makeSpmm("w", m, k, n, uniformDensity(0.5), uniformDensity(0.5)),
                                  loadArchitectureFile(SPARSEMAP_SOURCE_DIR "/samples/arch/toy.yaml"));
        RandomSearch random;
        QVERIFY(run(random, layout, 200).bestDesign); // a valid design exists and is easily found
        MapperSearch mapper;
        const auto r = run(mapper, layout, 200);
        QVERIFY2(r.bestDesign, r.points.empty() ? "no points" : std::string(r.points[0].reason).c_str());
        checkBest(r);
        // The default strategy (P, Q bitmasks, Z uncompressed, Skip P<->Q at the PE buffer) with the PE
        // buffer's gene as the row says, in every sample.
        auto expected = defaultMapperSparseGenes(layout);
        QCOMPARE(expected[16], 6);
        expected[16] = peGene;
        for (const auto& p : r.points)
            QCOMPARE(slice(p.genome, layout.sparseGenes()), expected);
    }

    void sageKeepsTheMapping()
    {
        const auto mapping = m_layout->mappingGenes();
        const auto defaults = outputStationaryMappingGenes(*m_layout);
        std::mt19937_64 rng(3);
        const auto random = slice(randomGenome(*m_layout, rng), mapping);
        for (const auto& genes : {std::vector<int>{}, random}) {
            SageSearch sage({genes});
            const auto r = run(sage, *m_layout, 1500);
            QCOMPARE(r.points.size(), std::size_t(1500));
            for (const auto& p : r.points)
                QCOMPARE(slice(p.genome, mapping), genes.empty() ? defaults : genes);
        }
    }

    void sageDefaultMappingIsOutputStationary()
    {
        // mm3 (730 = 2 * 5 * 73 per dim) on cloud: Timeloop places a spatial loop along X or Y of the
        // 32 x 32 PEs (and the 256 x 256 MACs below them), so a 73 fits nowhere: M x10 and N x10 take
        // the PE grid, the MACs get nothing more (10 x 73 > 256), and the whole reduction K sits at the
        // PE buffer, innermost; dense tiles fit with every format U.
        Genome g(static_cast<std::size_t>(m_layout->size()), 0);
        const auto genes = outputStationaryMappingGenes(*m_layout);
        std::copy(genes.begin(), genes.end(), g.begin());
        const Design d = decodeGenome(*m_layout, g);
        const int m = 0, k = 1, n = 2;
        QCOMPARE(d.mapping.levels[2].bounds, (std::vector<std::int64_t>{10, 1, 10})); // L2_S
        QCOMPARE(d.mapping.levels[4].bounds, (std::vector<std::int64_t>{1, 1, 1}));   // L3_S
        QCOMPARE(d.mapping.levels[3].bounds[k], std::int64_t(730));                   // L3_T
        QCOMPARE(d.mapping.levels[3].order.back(), k);
        QCOMPARE(d.mapping.product(m) * d.mapping.product(n), std::int64_t(730 * 730));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, outputStationaryMappingGenes(*m_layout, 0));
        SearchContext context(*m_layout, {});
        QVERIFY(std::isfinite(context.evaluate(g)));
    }

    void badParametersThrow()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RandomSearch({0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MapperSearch({{}, 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MapperSearch({{}, 100, 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SageSearch({{}, 0.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SageSearch({{}, 0.5, 1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SageSearch({{}, 0.5, 50, 51}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SageSearch({{}, 0.5, 50, 2, 1.5}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PsoSearch({1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PsoSearch({50, 0.7, 2, 2, 0.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AnnealingSearch({20, 0.01, 1.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AnnealingSearch({0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, GaSearch({1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, GaSearch({51, GaCrossover::Sbx}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, GaSearch({50, GaCrossover::Exponential, 2.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CmaesSearch({4}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CmaesSearch({16, 0.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, DeSearch({5}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, DeSearch({50, 1.5}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MctsSearch({-1.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MctsSearch({1.0, 1.0, 0.0}));
        // Fixed genes that do not fit the layout: refused before anything is evaluated.
        MapperSearch shortGenes({{1, 1, 1}});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, run(shortGenes, *m_layout, 100));
        auto outOfRange = defaultMapperSparseGenes(*m_layout);
        outOfRange.back() = 7;
        MapperSearch badGene({outOfRange});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, run(badGene, *m_layout, 100));
        SageSearch badMapping(
            {std::vector<int>(static_cast<std::size_t>(m_layout->mappingGenes().size()), 0)});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, run(badMapping, *m_layout, 100));
    }

    void zeroBudgetEvaluatesNothing_data() { addMethodRows(); }
    void zeroBudgetEvaluatesNothing()
    {
        QFETCH(QString, method);
        auto optimizer = makeMethod(method);
        const auto r = run(*optimizer, *m_layout, 0);
        QVERIFY(r.points.empty());
        QVERIFY(!r.best().has_value());
    }

    void cancelKeepsTheBestSoFar_data() { addMethodRows(); }
    void cancelKeepsTheBestSoFar()
    {
        QFETCH(QString, method);
        auto optimizer = makeMethod(method);
        CancelToken token;
        std::int64_t cancelledAt = -1;
        const auto r = run(*optimizer, *m_layout, 5000, 0, &token, [&](const GenerationStats& g) {
            // After a valid design (in Sparseloop's space some methods take a while to find one).
            if (g.evaluations >= 400 && std::isfinite(g.best) && cancelledAt < 0) {
                cancelledAt = g.evaluations;
                token.cancel();
            }
        });
        QVERIFY(r.cancelled);
        QCOMPARE(static_cast<std::int64_t>(r.points.size()), cancelledAt);
        QVERIFY(r.best().has_value());
        checkBest(r);
    }

    void endsWhenNothingIsValid_data() { addMethodRows(); }
    void endsWhenNothingIsValid()
    {
        // One-byte buffers hold no tile at all: every design is invalid, every method must still stop.
        QFETCH(QString, method);
        const GenomeLayout tiny(test::sampleWorkload("mm3"), test::templateArchitecture(16, 4, 1, 1));
        auto optimizer = makeMethod(method);
        const auto r = run(*optimizer, tiny, 600);
        QCOMPARE(r.points.size(), std::size_t(600));
        QVERIFY(!r.best().has_value());
    }

    void convolutionRuns_data() { addMethodRows(); }
    void convolutionRuns()
    {
        // Six dims: permutation genes with 720 values, 47 genes in all.
        QFETCH(QString, method);
        const GenomeLayout conv = test::sampleLayout("conv4", "cloud");
        auto optimizer = makeMethod(method);
        const auto r = run(*optimizer, conv, 1000);
        QCOMPARE(r.points.size(), std::size_t(1000));
        QVERIFY(r.best().has_value());
        checkBest(r);
    }

private:
    std::unique_ptr<GenomeLayout> m_layout;
};

QTEST_APPLESS_MAIN(TestSearchBaselines)
#include "test_search_baselines.moc"
