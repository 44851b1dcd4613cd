// Formats Sparseloop can represent (compressed ranks only below uncompressed ones), the nearest
// representable format, the model's format-space switch, and the export's names (never `U`).
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "util/file_io.hpp"
#include "io/sparseloop/sparseloop_export.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "search/genome_checks.hpp"

#include <QTemporaryDir>
#include "sample_inputs.hpp"

#include <QtTest>

#include <random>

using namespace sparsemap;

namespace {

TensorFormat formatOf(std::initializer_list<RankFormat> formats)
{
    TensorFormat f;
    for (auto r : formats) {
        FormatRank rank;
        rank.dim = rank.mappingLevel = -1;
        rank.format = r;
        f.ranks.push_back(rank);
    }
    return f;
}

std::vector<RankFormat> formatsOf(const TensorFormat& f)
{
    std::vector<RankFormat> out;
    for (const auto& r : f.ranks)
        out.push_back(r.format);
    return out;
}

using R = RankFormat;

} // namespace

class TestSparseRepresentable : public QObject {
    Q_OBJECT
private slots:
    void representable()
    {
        QVERIFY(representableInSparseloop(formatOf({})));
        QVERIFY(representableInSparseloop(formatOf({R::U, R::U})));         // no format at all
        QVERIFY(representableInSparseloop(formatOf({R::UOP, R::CP})));      // CSR
        QVERIFY(representableInSparseloop(formatOf({R::U, R::B, R::RLE}))); // compressed below
        QVERIFY(!representableInSparseloop(formatOf({R::CP, R::U})));
        QVERIFY(!representableInSparseloop(formatOf({R::B, R::UOP, R::B})));
    }

    void nearest()
    {
        // Worked out by hand: the split with the fewest changed ranks, ties to the most compressed.
        auto f = formatOf({R::CP, R::U}); // splits cost 1, 1, 1: the first (all compressed) wins
        QVERIFY(makeRepresentableInSparseloop(f));
        QCOMPARE(formatsOf(f), (std::vector<R>{R::CP, R::CP}));
        f = formatOf({R::B, R::U, R::RLE}); // all compressed costs 1; the U takes RLE from below
        QVERIFY(makeRepresentableInSparseloop(f));
        QCOMPARE(formatsOf(f), (std::vector<R>{R::B, R::RLE, R::RLE}));
        f = formatOf({R::U, R::B, R::U, R::U}); // costs 3, 2, 3, 2, 1: uncompress the B
        QVERIFY(makeRepresentableInSparseloop(f));
        QCOMPARE(formatsOf(f), (std::vector<R>{R::U, R::U, R::U, R::U}));
        f = formatOf({R::UOP, R::CP});
        QVERIFY(!makeRepresentableInSparseloop(f));
        QCOMPARE(formatsOf(f), (std::vector<R>{R::UOP, R::CP}));
    }

    // The two repairs of format genes (FormatRepair), worked out by hand on P's five genes (outermost
    // first; 0 U, 1 B, 2 RLE, 3 CP, 4 UOP). Reorder moves the uncompressed values out, each group in its
    // order; Offsets turns each compressed value with an uncompressed one inside it into UOP.
    void formatGeneRepairs()
    {
        const GenomeLayout layout = test::sampleLayout("mm6", "edge");
        const auto p = layout.formatSegment(0);
        QCOMPARE(p.end - p.begin, 5);
        auto repaired = [&](std::vector<int> genes, FormatRepair repair, bool& changed) {
            Genome g(layout.size(), 0);
            std::copy(genes.begin(), genes.end(), g.begin() + p.begin);
            changed = orderFormatGenesForSparseloop(layout, g, repair);
            return std::vector<int>(g.begin() + p.begin, g.begin() + p.end);
        };
        bool changed = false;
        QCOMPARE(repaired({1, 0, 2, 0, 3}, FormatRepair::Reorder, changed),
                 (std::vector<int>{0, 0, 1, 2, 3}));
        QVERIFY(changed);
        QCOMPARE(repaired({1, 0, 2, 0, 3}, FormatRepair::Offsets, changed),
                 (std::vector<int>{4, 0, 4, 0, 3}));
        QVERIFY(changed);
        QCOMPARE(repaired({3, 2, 1, 4, 0}, FormatRepair::Offsets, changed),
                 (std::vector<int>{4, 4, 4, 4, 0}));
        QVERIFY(changed);
        for (auto repair : {FormatRepair::Reorder, FormatRepair::Offsets}) { // representable: unchanged
            QCOMPARE(repaired({0, 4, 1, 2, 3}, repair, changed), (std::vector<int>{0, 4, 1, 2, 3}));
            QVERIFY(!changed);
        }
        // Either repair of any genome decodes to formats Sparseloop represents, whatever the mapping.
        std::mt19937_64 rng(5);
        for (int i = 0; i < 200; ++i)
            for (auto repair : {FormatRepair::Reorder, FormatRepair::Offsets}) {
                Genome g = randomGenome(layout, rng);
                orderFormatGenesForSparseloop(layout, g, repair);
                const Design design = decodeGenome(layout, g);
                for (const auto& level : design.sparse.formats)
                    for (const auto& format : level)
                        QVERIFY(representableInSparseloop(format));
            }
    }

    // Genomes of mm on the cloud preset whose decoded formats Sparseloop cannot represent: dead by
    // default (the reason names tensor, level and ranks), the nearest format's figures under
    // `nearest`, labelled as beyond Sparseloop under `unrestricted`; and the export refuses them.
    void formatSpaceSwitch()
    {
        const GenomeLayout layout = test::sampleLayout("mm6", "cloud");
        std::mt19937_64 rng(5);
        model::ModelOptions unrestricted;
        unrestricted.formatSpace = model::FormatSpace::Unrestricted;
        model::ModelOptions nearest;
        nearest.formatSpace = model::FormatSpace::SparseloopNearest;
        model::GenomeEvaluator dead(layout), open(layout, unrestricted), near(layout, nearest),
            check(layout); // the repaired design is representable: scored in Sparseloop's space
        int checked = 0;
        for (int i = 0; i < 20000 && checked < 10; ++i) {
            const Genome g = randomGenome(layout, rng);
            const auto& free = open.evaluate(g);
            const auto site = firstUnrepresentableFormat(open.lastDesign().sparse);
            if (!free.valid || site.storageLevel < 0)
                continue;
            ++checked;
            QVERIFY(free.beyondSparseloop.find("evaluated as given") != std::string::npos);
            const auto& d = dead.evaluate(g);
            QVERIFY(!d.valid);
            const std::string tensor = layout.workload().tensors[site.tensor].name;
            const std::string level = layout.architecture().levels[site.storageLevel].name;
            QVERIFY2(d.reason.find("format of " + tensor + " at " + level + " (ranks outer to inner: ") !=
                         std::string::npos,
                     d.reason.c_str());
            QVERIFY(d.beyondSparseloop.empty());
            // nearest = the repaired design scored as any representable design is (as Sparseloop
            // reads its export)
            Design repaired = open.lastDesign();
            for (auto& lv : repaired.sparse.formats)
                for (auto& f : lv)
                    makeRepresentableInSparseloop(f);
            QVERIFY(firstUnrepresentableFormat(repaired.sparse).storageLevel < 0);
            const auto n = near.evaluate(g);
            const auto& expected = check.evaluator().evaluate(repaired);
            QCOMPARE(n.valid, expected.valid);
            if (n.valid) {
                QCOMPARE(n.cycles, expected.cycles);
                QCOMPARE(n.energyPj, expected.energyPj);
            }
            QVERIFY(n.beyondSparseloop.find("nearest representable") != std::string::npos);
            QTemporaryDir dir;
            try {
                exportSparseloopCase(layout.workload(), layout.architecture(), open.lastDesign(),
                                     dir.path().toStdString() + "/case");
                QFAIL("an unrepresentable format was exported");
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find("which Sparseloop cannot represent") != std::string::npos,
                         e.what());
            }
        }
        QVERIFY(checked >= 5);
    }

    // Valid designs are exported with the names Sparseloop reads: no rank is `U`.
    void exportNames()
    {
        const GenomeLayout layout = test::sampleLayout("mm6", "edge");
        model::GenomeEvaluator evaluator(layout);
        std::mt19937_64 rng(11);
        int exported = 0, withUop = 0;
        for (int i = 0; i < 1000000 && exported < 20; ++i) { // few uniform draws fit the fan-out
            Genome g = randomGenome(layout, rng);
            orderFormatGenesForSparseloop(layout, g); // Sparseloop's design space, as searches draw it
            if (!search::spatialFanoutFits(layout, g) || !evaluator.evaluate(g).valid)
                continue;
            QTemporaryDir dir;
            exportSparseloopCase(layout.workload(), layout.architecture(), evaluator.lastDesign(),
                                 dir.path().toStdString());
            const std::string text = readTextFile(dir.path().toStdString() + "/aggregated_input.yaml");
            QVERIFY(text.find("format: U\n") == std::string::npos);
            withUop += text.find("format: UOP") != std::string::npos;
            ++exported;
        }
        QCOMPARE(exported, 20);
        QVERIFY(withUop > 0);
    }
};

QTEST_GUILESS_MAIN(TestSparseRepresentable)
#include "test_sparse_representable.moc"
