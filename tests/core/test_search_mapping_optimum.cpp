// The exact optimum of the mapping for a fixed sparse strategy (search/mapping_optimum): the size of the
// canonical mapping space worked out by hand on the paper's toy SpMM; on an SpMM small enough to brute
// force, the enumeration holds exactly the canonical genomes of every raw tiling and permutation
// vector, and its optimum is the best of them; the same answer for one thread and two; a cancelled run
// says so and keeps what it saw.
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "search/genome_checks.hpp"
#include "search/mapping_optimum.hpp"

#include "sample_inputs.hpp"

#include <QtTest>

#include <cmath>
#include <set>

using namespace sparsemap;

namespace {

// SpMM 2 x 4 x 2: four prime factors (M 2, K 2 2, N 2), so every raw tiling and permutation vector
// can be listed.
Workload tinySpmm()
{
    return parseWorkloadYaml("version: 1\nworkload:\n  name: tiny\n  type: spmm\n  M: 2\n  K: 4\n  N: 2\n"
                             "  density: {P: 0.5, Q: 0.5}\n",
                             "tiny.yaml");
}

// A genome with some compressed formats and S/G choices, so the held sparse strategy matters.
Genome withSparseStrategy(const GenomeLayout& layout)
{
    Genome g(static_cast<std::size_t>(layout.size()));
    for (int i = 0; i < layout.size(); ++i)
        g[i] = layout.gene(i).lower;
    for (int slot : {0, 1}) { // P, Q
        const auto s = layout.formatSegment(slot);
        g[s.end - 1] = std::min(2, layout.gene(s.end - 1).upper); // innermost rank compressed
    }
    const auto sg = layout.segment(GeneSegment::SkipGate);
    g[sg.begin] = std::min(1, layout.gene(sg.begin).upper);
    return g;
}

} // namespace

class TestSearchMappingOptimum : public QObject {
    Q_OBJECT
private slots:
    void toySpaceSizeByHand()
    {
        // Toy SpMM 4 x 8 x 4 on the toy architecture: M = 2 x 2, K = 2 x 2 x 2, N = 2 x 2, each factor
        // on one of the L mapping levels; equal factors are a multiset: C(L+1, 2) x C(L+2, 3) x C(L+1, 2).
        const GenomeLayout layout(test::sampleWorkload("toy"),
                                  loadArchitectureFile(SPARSEMAP_SOURCE_DIR "/samples/arch/toy.yaml"));
        const auto tiling = layout.segment(GeneSegment::Tiling);
        const int levels = layout.gene(tiling.begin).upper - layout.gene(tiling.begin).lower + 1;
        QCOMPARE(levels, 5);
        // L = 5: 15 x 35 x 15.
        QCOMPARE(search::canonicalMappingSpaceSize(layout).tilings, 7875.0);
        // Beyond the count limit the loop orders are not counted.
        QVERIFY(!search::canonicalMappingSpaceSize(layout, 100).mappings.has_value());
    }

    void enumerationIsTheCanonicalSpaceAndItsOptimumTheBest()
    {
        const GenomeLayout layout(tinySpmm(),
                                  loadArchitectureFile(SPARSEMAP_SOURCE_DIR "/samples/arch/toy.yaml"));
        const Genome fixed = withSparseStrategy(layout);
        const auto tiling = layout.segment(GeneSegment::Tiling);
        const auto perm = layout.segment(GeneSegment::Permutation);
        QCOMPARE(tiling.size(), 4);

        // Brute force: every raw vector of tiling and permutation genes, canonicalized.
        std::set<Genome> canonical;
        std::vector<int> genes;
        for (int i = perm.begin; i < perm.end; ++i)
            genes.push_back(i);
        for (int i = tiling.begin; i < tiling.end; ++i)
            genes.push_back(i);
        Genome g = fixed;
        for (int i : genes)
            g[i] = layout.gene(i).lower;
        for (;;) {
            canonical.insert(canonicalGenome(layout, g));
            std::size_t k = 0;
            while (k < genes.size() && ++g[genes[k]] > layout.gene(genes[k]).upper) {
                g[genes[k]] = layout.gene(genes[k]).lower;
                ++k;
            }
            if (k == genes.size())
                break;
        }
        model::GenomeEvaluator evaluator(layout);
        double best = INFINITY;
        std::int64_t rejected = 0, valid = 0;
        for (const auto& c : canonical) {
            if (!search::spatialFanoutFits(layout, c)) {
                ++rejected;
                continue;
            }
            const auto& r = evaluator.evaluate(c);
            if (r.valid) {
                ++valid;
                best = std::min(best, model::objectiveValue(r, model::Objective::Edp));
            }
        }
        QVERIFY(valid > 0);

        const auto size = search::canonicalMappingSpaceSize(layout, 2e7, fixed);
        QVERIFY(size.mappings.has_value());
        QCOMPARE(*size.mappings, static_cast<double>(canonical.size()));

        search::MappingOptimumSettings settings;
        settings.threads = 1;
        const auto one = search::exhaustiveMappingOptimum(layout, fixed, settings);
        QCOMPARE(one.mappings, static_cast<std::int64_t>(canonical.size()));
        QCOMPARE(one.fanoutRejected, rejected);
        QCOMPARE(one.evaluated + one.fanoutRejected, one.mappings);
        QCOMPARE(one.valid, valid);
        QCOMPARE(one.bestObjective, best);
        QVERIFY(!one.cancelled);
        QVERIFY(canonical.count(one.best) == 1);
        QCOMPARE(model::objectiveValue(evaluator.evaluate(one.best), model::Objective::Edp), best);
        // The held genes are held (up to the canonical form: unused formats U, S/G synonyms).
        Genome held = one.best;
        for (auto segment : {GeneSegment::Format, GeneSegment::SkipGate}) {
            const auto s = layout.segment(segment);
            std::copy(fixed.begin() + s.begin, fixed.begin() + s.end, held.begin() + s.begin);
        }
        QCOMPARE(canonicalGenome(layout, held), one.best);

        settings.threads = 2;
        const auto two = search::exhaustiveMappingOptimum(layout, fixed, settings);
        QCOMPARE(two.best, one.best);
        QCOMPARE(two.mappings, one.mappings);
        QCOMPARE(two.valid, one.valid);
    }

    void cancelledRunSaysSo()
    {
        const GenomeLayout layout(test::sampleWorkload("toy"),
                                  loadArchitectureFile(SPARSEMAP_SOURCE_DIR "/samples/arch/toy.yaml"));
        search::CancelToken cancel;
        cancel.cancel();
        search::MappingOptimumSettings settings;
        settings.cancel = &cancel;
        const auto r = search::exhaustiveMappingOptimum(layout, withSparseStrategy(layout), settings);
        QVERIFY(r.cancelled);
        QCOMPARE(r.tilings, std::int64_t(0));
        QVERIFY(r.best.empty());
    }

    void wrongGenomeIsAClearError()
    {
        const GenomeLayout layout(tinySpmm(),
                                  loadArchitectureFile(SPARSEMAP_SOURCE_DIR "/samples/arch/toy.yaml"));
        Genome shortGenome(3, 1);
        QVERIFY_THROWS_EXCEPTION(GenomeError, search::exhaustiveMappingOptimum(layout, shortGenome));
    }
};

QTEST_APPLESS_MAIN(TestSearchMappingOptimum)
#include "test_search_mapping_optimum.moc"
