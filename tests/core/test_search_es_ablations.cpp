// The ES ablations (paper Fig. 10, Fig. 18): shared genetic operators, the random permutation
// encoding, the direct encoding, and the standard ES on both encodings (budgets, determinism,
// parameter checks, point logs).
#include "genome/cantor.hpp"
#include "genome/genome_codec.hpp"
#include "search/es/direct_encoding.hpp"
#include "search/es/standard_es.hpp"
#include "search/method_registry.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <memory>
#include <set>
#include <stdexcept>

using namespace sparsemap;
using namespace sparsemap::search;

namespace {

SearchResult run(Optimizer& optimizer, const GenomeLayout& layout, std::int64_t budget, int threads = 0,
                 const model::ModelOptions& options = {})
{
    SearchSettings settings;
    settings.budget = budget;
    settings.seed = 5;
    settings.threads = threads;
    return runSearch(optimizer, layout, settings, options);
}

GenomeLayout spmmLayout()
{
    return GenomeLayout(makeSpmm("spmm", 32, 64, 48, uniformDensity(0.3), uniformDensity(0.5)),
                        test::templateArchitecture(16, 4, 64 << 10, 512));
}

std::unique_ptr<Optimizer> makeMethod(const QString& name)
{
    StandardEsParameters p;
    if (name == "es-direct")
        return std::make_unique<EsDirect>(p);
    if (name == "es-pfce-random-perm")
        p.permutationEncoding = PermutationEncoding::Random;
    return std::make_unique<EsPfce>(p);
}

void addMethodRows()
{
    QTest::addColumn<QString>("method");
    for (const char* m : {"es-direct", "es-pfce", "es-pfce-random-perm"})
        QTest::newRow(m) << QString(m);
}

} // namespace

class TestSearchEsAblations : public QObject {
    Q_OBJECT
private slots:
    // A run is labelled with its optimizer's name (SearchResult::method, sessions, the Compare view):
    // every registry entry builds an optimizer of that very name (the ablations once all said
    // "sparsemap").
    void everyMethodRunsUnderItsOwnName()
    {
        for (const char* name : {"sparsemap-no-polish", "sparsemap-niches", "sparsemap-strategy",
                                 "sparsemap-paper", "sparsemap-random-perm", "es-pfce-random-perm"})
            QCOMPARE(QString::fromStdString(makeOptimizer(name)->name()), QString(name));
        for (const auto& method : searchMethods())
            QCOMPARE(QString::fromStdString(method.make()->name()), QString::fromStdString(method.name));
    }

    void latinHypercubeUsesEveryStratumOnce()
    {
        std::mt19937_64 rng(1);
        const std::vector<GeneRange> ranges{{1, 10}, {0, 19}, {5, 5}};
        const auto sample = latinHypercube(ranges, 10, rng);
        QCOMPARE(sample.size(), std::size_t(10));
        std::set<int> first, secondStrata;
        for (const auto& g : sample) {
            first.insert(g[0]);
            secondStrata.insert(g[1] / 2);
            QCOMPARE(g[2], 5);
        }
        QCOMPARE(first.size(), std::size_t(10)); // one value per stratum of width 1
        QCOMPARE(secondStrata.size(), std::size_t(10));
    }

    void genomeSetKeepsTheFirstObjective()
    {
        GenomeSet seen;
        seen.insert(Genome{1, 2}, 5.0);
        seen.insert(Genome{1, 2}, 7.0); // a genome is evaluated once: the first objective stays
        seen.insert(Genome{3}, std::numeric_limits<double>::infinity());
        seen.insert(Genome{4});
        QCOMPARE(seen.size(), std::size_t(3));
        QCOMPARE(seen.objective(Genome{1, 2}), 5.0);
        QVERIFY(std::isinf(seen.objective(Genome{3})));
        QVERIFY(std::isnan(seen.objective(Genome{4})));
        QVERIFY(std::isnan(seen.objective(Genome{9})));
        QVERIFY(seen.contains(Genome{4}) && !seen.contains(Genome{9}));
    }

    void selectionIsElitistAndStable()
    {
        Population p;
        const double dead = std::numeric_limits<double>::infinity();
        for (double o : {3.0, dead, 1.0, 3.0, 2.0})
            p.add(Genome{static_cast<int>(p.size())}, o);
        keepBest(p, 4);
        QCOMPARE(p.objectives, (std::vector<double>{1.0, 2.0, 3.0, 3.0}));
        QCOMPARE(p.genomes[2], Genome{0}); // ties keep the older member first
        QCOMPARE(parentPoolSize(p, 50), std::size_t(4));
        QCOMPARE(parentPoolSize(p, 2), std::size_t(2));
    }

    // A move as the genes it changes and their new values: the same move made from another genome has
    // the same key when it changes the same genes to the same values.
    void geneChangesAreTheMove()
    {
        const Genome from{4, 1, 1, 0, 2}, to{4, 3, 1, 0, 0};
        QCOMPARE(geneChanges(from, to), (std::vector<int>{1, 3, 4, 0}));
        QCOMPARE(geneChanges(to, from), (std::vector<int>{1, 1, 4, 2}));
        QVERIFY(geneChanges(from, from).empty());
        // The same move (gene 1 to 3, gene 4 to 0) made from a genome that differs elsewhere.
        QCOMPARE(geneChanges(Genome{2, 1, 5, 5, 2}, Genome{2, 3, 5, 5, 0}), geneChanges(from, to));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, geneChanges(Genome{1, 2}, Genome{1, 2, 3}));
    }

    void nicheSurvivalCapsEachNiche()
    {
        // Genomes {niche, id}; objectives 1..7 best first. Niche 0 holds the best four (1, 2, 3, 4),
        // niche 1 the values 5 and 7, niche 2 the value 6. Worked by hand: keep 4 with at most 2 per
        // niche -> 1, 2 (niche 0), 5 (niche 1), 6 (niche 2); keep 6 -> 1, 2, 5, 6, 7, then the room
        // left is filled by the best of the others: 3.
        auto build = [] {
            Population p;
            const int niche[] = {1, 0, 0, 2, 0, 1, 0};
            const double value[] = {7, 3, 1, 6, 2, 5, 4};
            for (int i = 0; i < 7; ++i)
                p.add(Genome{niche[i], i}, value[i]);
            return p;
        };
        const SegmentRange key{0, 1};
        Population p = build();
        keepBestByNiche(p, 4, 2, key);
        QCOMPARE(p.objectives, (std::vector<double>{1, 2, 5, 6}));
        p = build();
        keepBestByNiche(p, 6, 2, key);
        QCOMPARE(p.objectives, (std::vector<double>{1, 2, 3, 5, 6, 7}));
        p = build();
        keepBestByNiche(p, 4, 4, key); // no niche over its cap: the same as keepBest
        QCOMPARE(p.objectives, (std::vector<double>{1, 2, 3, 4}));
    }

    void crossoversTakeGenesFromTheParents()
    {
        std::mt19937_64 rng(2);
        const Genome a(30, 0), b(30, 1);
        for (int k = 0; k < 100; ++k) {
            const auto one = onePointCrossover(a, b, rng);
            QCOMPARE(one[0], 0);
            QCOMPARE(one[29], 1);
            QVERIFY(std::is_sorted(one.begin(), one.end()));
            for (int g : uniformCrossover(a, b, rng))
                QVERIFY(g == 0 || g == 1);
        }
        for (int k = 0; k < 100; ++k)
            QVERIFY(resetGene(3, {1, 5}, rng) != 3);
    }

    void randomPermutationCodesAreABijection()
    {
        for (std::int64_t n : {1, 2, 6, 24, 720, 5040}) {
            const RandomPermutationCodes codes(n, 42);
            std::set<std::int64_t> images;
            int fixed = 0;
            for (std::int64_t c = 1; c <= n; ++c) {
                const auto image = codes(c);
                QVERIFY(image >= 1 && image <= n);
                images.insert(image);
                fixed += image == c;
            }
            QCOMPARE(static_cast<std::int64_t>(images.size()), n);
            if (n >= 720)
                QVERIFY(fixed < n / 10); // scrambled, not the identity
        }
        const RandomPermutationCodes a(720, 1), b(720, 2);
        int same = 0;
        for (int c = 1; c <= 720; ++c)
            same += a(c) == b(c);
        QVERIFY(same < 72); // the seed picks the bijection
    }

    void randomEncodingLogsTheCantorGenome()
    {
        const auto layout = spmmLayout();
        const GenomeProblem cantor(layout, PermutationEncoding::Cantor, 3);
        const GenomeProblem random(layout, PermutationEncoding::Random, 3);
        std::mt19937_64 rng(4);
        const Genome g = randomGenome(layout, rng);
        QCOMPARE(cantor.toSparseMap(g), g);
        const Genome translated = random.toSparseMap(g);
        const auto perm = layout.segment(GeneSegment::Permutation);
        const RandomPermutationCodes codes(6, 3);
        for (int i = 0; i < layout.size(); ++i)
            QCOMPARE(translated[i], i < perm.end ? static_cast<int>(codes(g[i])) : g[i]);
    }

    void directEncodingExpressesSparseMapDesigns()
    {
        const auto layout = spmmLayout();
        const DirectEncoding direct(layout, 9);
        QCOMPARE(direct.ranges().size(), std::size_t(5 + 3 * 5 + 15 + 3));
        QCOMPARE(direct.ranges()[direct.boundGene(1, 0)], (GeneRange{1, 64}));
        // The inverse of the permutation bijection, to write a SparseMap design as a direct individual.
        const RandomPermutationCodes codes(6, 9);
        std::vector<int> inverse(7);
        for (int c = 1; c <= 6; ++c)
            inverse[codes(c)] = c;
        std::mt19937_64 rng(6);
        for (int k = 0; k < 50; ++k) {
            const Genome genome = randomGenome(layout, rng);
            const Design design = decodeGenome(layout, genome);
            Genome individual;
            for (const auto& level : design.mapping.levels)
                individual.push_back(inverse[cantorEncode(level.order)]);
            for (int d = 0; d < 3; ++d)
                for (const auto& level : design.mapping.levels)
                    individual.push_back(static_cast<int>(level.bounds[d]));
            individual.insert(individual.end(), genome.begin() + layout.segment(GeneSegment::Format).begin,
                              genome.end());
            const Design decoded = direct.decode(individual);
            QCOMPARE(decoded, design);
            QCOMPARE(decodeGenome(layout, direct.sparseMapGenome(decoded)), design);
        }
        // Bounds that break the tiling constraint: no SparseMap genome.
        Genome broken = randomIndividual(direct.ranges(), rng);
        broken[direct.boundGene(0, 0)] = 3; // 3 does not divide 32
        QVERIFY(direct.sparseMapGenome(direct.decode(broken)).empty());
    }

    void badParametersThrow()
    {
        auto bad = [](auto change) {
            StandardEsParameters p;
            change(p);
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, EsPfce{p});
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, EsDirect{p});
        };
        bad([](auto& p) { p.populationSize = 0; });
        bad([](auto& p) { p.offspringPerGeneration = 0; });
        bad([](auto& p) { p.parentCount = 0; });
        bad([](auto& p) { p.crossoverProbability = -0.5; });
        bad([](auto& p) { p.mutationsPerOffspring = std::nan(""); });
    }

    void budgetsAndLogs_data() { addMethodRows(); }
    void budgetsAndLogs()
    {
        QFETCH(QString, method);
        const auto layout = spmmLayout();
        QCOMPARE(QString::fromStdString(makeMethod(method)->name()), method);
        QVERIFY(run(*makeMethod(method), layout, 0).points.empty());
        for (std::int64_t budget : {1, 99, 1234}) {
            const auto r = run(*makeMethod(method), layout, budget);
            QCOMPARE(static_cast<std::int64_t>(r.points.size()), budget);
        }
        const auto one = run(*makeMethod(method), layout, 1500, 1);
        const auto two = run(*makeMethod(method), layout, 1500, 2);
        QCOMPARE(one.points.size(), two.points.size());
        for (std::size_t i = 0; i < one.points.size(); ++i) {
            QCOMPARE(one.points[i].genome, two.points[i].genome);
            QCOMPARE(one.points[i].objective, two.points[i].objective);
            QCOMPARE(one.points[i].valid, two.points[i].valid);
        }
        // Every logged genome decodes to a design (the one evaluated, for the genome methods).
        for (const auto& p : one.points)
            if (!p.genome.empty())
                layout.validate(p.genome.toGenome());
    }

    void genomeMethodsBeatTheDirectEncoding()
    {
        // The direct encoding rarely meets the tiling constraint (paper IV-B): far fewer valid points.
        // Measured in the unrestricted format space, so that only the tiling encoding differs (in
        // Sparseloop's, formats it cannot represent make many points of both methods dead).
        const auto layout = spmmLayout();
        model::ModelOptions unrestricted;
        unrestricted.formatSpace = model::FormatSpace::Unrestricted;
        auto validShare = [&](const char* method) {
            const auto r = run(*makeMethod(method), layout, 2000, 0, unrestricted);
            double valid = 0;
            for (const auto& p : r.points)
                valid += p.valid;
            return valid / static_cast<double>(r.points.size());
        };
        const double direct = validShare("es-direct");
        QVERIFY(direct < 0.05);
        QVERIFY(validShare("es-pfce") > 10 * std::max(direct, 0.01));
    }
};

QTEST_APPLESS_MAIN(TestSearchEsAblations)
#include "test_search_es_ablations.moc"
