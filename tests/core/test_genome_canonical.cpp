// The canonical genome (genome_codec): genomes that differ only where the design does not share it,
// it is a fixed point and keeps the figures; the encode round trip it is built on (equal prime factors
// outer first, unused format genes U, one S/G value per action set) describes the same design, so the
// model scores it exactly as the genome it came from - on random genomes of an SpMM, an SpConv and a
// batched SpMM on the three presets; so does the canonical genome itself, to the bit: the unit loops a
// storage level binds its ranks to keep their place (orderedLoopMasks), the others move outermost.
#include "genome/cantor.hpp"
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "search/genome_checks.hpp"
#include "sparse/tensor_ranks.hpp"

#include "sample_inputs.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <random>

using namespace sparsemap;

// The canonical genome worked out through the design: decode; at each level, the loops whose place
// matters are those with a bound above 1 and, at the innermost mapping level of a storage level (the
// loops Sparseloop binds a tile's ranks to, unit loops included, with the extents below folded in),
// those of a dim whose bounds below multiply to more than 1 and that indexes a tensor with a rank
// other than U at that storage level; move the others outermost in dim order and let encodeDesign pick
// equal factors, unused formats and S/G values.
Genome referenceCanonical(const GenomeLayout& layout, const Genome& genome)
{
    Design design = decodeGenome(layout, genome);
    const Workload& w = layout.workload();
    auto& levels = design.mapping.levels;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        auto& level = levels[l];
        const bool binds = l + 1 == levels.size() || levels[l + 1].storageLevel != level.storageLevel;
        auto withMetadata = [&](int d) {
            for (std::size_t t = 0; t < w.tensors.size(); ++t)
                if ((w.dimMask(static_cast<int>(t)) >> d) & 1u)
                    for (const auto& rank : design.sparse.formats[level.storageLevel][t].ranks)
                        if (rank.format != RankFormat::U)
                            return true;
            return false;
        };
        auto matters = [&](int d) {
            if (level.bounds[d] > 1)
                return true;
            std::int64_t below = 1;
            for (std::size_t inner = l + 1; inner < levels.size(); ++inner)
                below *= levels[inner].bounds[d];
            return binds && below > 1 && withMetadata(d);
        };
        std::vector<int> order;
        for (int d = 0; d < static_cast<int>(level.bounds.size()); ++d)
            if (!matters(d))
                order.push_back(d);
        for (int d : level.order)
            if (matters(d))
                order.push_back(d);
        level.order = order;
    }
    return encodeDesign(layout, design);
}

class TestGenomeCanonical : public QObject {
    Q_OBJECT
private slots:
    void unitLoopOrdersAndEqualFactorsShareOneGenome()
    {
        // SpMM 32x64x48 (M = 2^5: equal prime factors) on the cloud preset: dims M, N, K. Put every factor
        // of every dim at level 1 (DRAM, temporal): the other levels have only unit loops, so their
        // permutation genes are free.
        const GenomeLayout layout = test::sampleLayout("spmm-32x64x48", "cloud");
        Genome g = test::allFactorsAtDram(layout);
        const auto tiling = layout.segment(GeneSegment::Tiling);
        const auto perm = layout.segment(GeneSegment::Permutation);
        Genome other = g;
        for (int i = perm.begin + 1; i < perm.end; ++i)
            other[i] = layout.gene(i).upper; // another order of unit loops only
        QVERIFY(other != g);
        QCOMPARE(canonicalGenome(layout, other), canonicalGenome(layout, g));
        // Level 1's own order matters: its loops are not unit loops.
        Genome reordered = g;
        reordered[perm.begin] = layout.gene(perm.begin).upper;
        QVERIFY(canonicalGenome(layout, reordered) != canonicalGenome(layout, g));

        // Two equal prime factors of one dim swapped between levels: the same bounds.
        int a = -1, b = -1;
        for (int i = tiling.begin; i < tiling.end && b < 0; ++i)
            for (int j = i + 1; j < tiling.end; ++j)
                if (layout.gene(i).dim == layout.gene(j).dim &&
                    layout.gene(i).factor == layout.gene(j).factor) {
                    a = i;
                    b = j;
                    break;
                }
        QVERIFY(b >= 0);
        Genome x = g, y = g;
        x[a] = 2;
        x[b] = 3;
        y[a] = 3;
        y[b] = 2;
        QCOMPARE(canonicalGenome(layout, x), canonicalGenome(layout, y));
        QCOMPARE(decodeGenome(layout, x).mapping.levels[1].bounds,
                 decodeGenome(layout, y).mapping.levels[1].bounds);
    }

    void theModelScoresTheCanonicalGenomeAlike_data()
    {
        QTest::addColumn<QString>("workload");
        QTest::addColumn<QString>("preset");
        for (const char* w : {"mm3", "conv4", "batched-spmm"})
            for (const char* p : {"edge", "mobile", "cloud"})
                QTest::newRow((std::string(w) + "/" + p).c_str()) << QString(w) << QString(p);
    }

    void theModelScoresTheCanonicalGenomeAlike()
    {
        QFETCH(QString, workload);
        QFETCH(QString, preset);
        const GenomeLayout layout = test::sampleLayout(workload.toStdString(), preset.toStdString());
        model::GenomeEvaluator original(layout);
        model::GenomeEvaluator other(layout);
        std::mt19937_64 rng(5);
        int valid = 0, changed = 0;
        const auto formats = layout.segment(GeneSegment::Format);
        for (int n = 0; n < 400; ++n) {
            Genome g = randomGenome(layout, rng);
            for (int draw = 0; draw < 1000 && !search::spatialFanoutFits(layout, g); ++draw)
                g = randomGenome(layout, rng); // a search's draws: more of them valid
            // Two in three mostly uncompressed: tiles without metadata, whose unit loops are free - format
            // genes U one by one, or whole tensors uncompressed (a search's designs often keep one or
            // two tensors uncompressed: then only the other tensors' dims order the bound loops).
            if (n % 3 == 1)
                for (int i = formats.begin; i < formats.end; ++i)
                    if (std::uniform_real_distribution<double>(0, 1)(rng) < 0.7)
                        g[i] = static_cast<int>(RankFormat::U);
            if (n % 3 == 2)
                for (int slot = 0; slot < layout.formatSegmentCount(); ++slot)
                    if (std::uniform_real_distribution<double>(0, 1)(rng) < 0.6) {
                        const auto segment = layout.formatSegment(slot);
                        std::fill(g.begin() + segment.begin, g.begin() + segment.end,
                                  static_cast<int>(RankFormat::U));
                    }
            orderFormatGenesForSparseloop(layout, g);
            const Genome c = canonicalGenome(layout, g);
            QCOMPARE(c, referenceCanonical(layout, g));
            QCOMPARE(canonicalGenome(layout, c), c);
            changed += c != g;
            const auto r = original.evaluate(g);
            valid += r.valid;
            // The canonical genome, and the round trip alone: the same design, so the same figures
            // to the bit.
            const Genome e = encodeDesign(layout, decodeGenome(layout, g));
            for (const Genome* same : {&c, &e}) {
                const auto s = other.evaluate(*same);
                QCOMPARE(s.valid, r.valid);
                if (r.valid) {
                    QCOMPARE(s.cycles, r.cycles);
                    QCOMPARE(s.energyPj, r.energyPj);
                } else {
                    QCOMPARE(s.reason, r.reason);
                }
            }
        }
        // Random genomes nearly always carry free genes; and the comparison must have valid designs.
        QVERIFY2(changed > 300, qPrintable(QString::number(changed)));
        QVERIFY2(valid > 10, qPrintable(QString::number(valid)));
    }

    // carryFormats, worked by hand on the toy SpMM (M = 4, K = 8, N = 4) on the toy accelerator: every
    // prime factor at DRAM (mapping level 1), loop order M K N there, P compressed as UOP(M1)-RLE(K1).
    void formatsFollowTheLoopsThroughAMappingMove()
    {
        const Workload w = test::toyWorkload();
        const GenomeLayout layout(w, test::toyArchitecture());
        auto dim = [&](const char* name) {
            for (int d = 0; d < static_cast<int>(w.dims.size()); ++d)
                if (w.dims[d].name == name)
                    return d;
            return -1;
        };
        const int m = dim("M"), k = dim("K"), n = dim("N");
        QVERIFY(m >= 0 && k >= 0 && n >= 0);
        auto code = [](std::vector<int> order) { return static_cast<int>(cantorEncode(order)); };
        const auto perm = layout.segment(GeneSegment::Permutation);
        const auto tiling = layout.segment(GeneSegment::Tiling);
        const int p = layout.formatSegment(0).begin;
        QCOMPARE(layout.formatTensor(0), w.tensorIndex("P"));
        Genome before = test::allFactorsAtDram(layout);
        before[perm.begin] = code({m, k, n});
        before[p + 3] = 4; // M1: UOP
        before[p + 4] = 2; // K1: RLE (innermost)
        auto formatsOfP = [&](const Genome& g) {
            std::string out;
            const Design design = decodeGenome(layout, g);
            for (const auto& rank : design.sparse.formats[0][w.tensorIndex("P")].ranks)
                out += rankName(w, rank) + ":" + std::to_string(static_cast<int>(rank.format)) + " ";
            return out;
        };
        QCOMPARE(formatsOfP(before), std::string("M1:4 K1:2 "));

        // 1. K and M swapped at DRAM: positionally the innermost rank (now M1) would become RLE; carried,
        //    each loop keeps its format.
        Genome swapped = before;
        swapped[perm.begin] = code({k, m, n});
        QCOMPARE(formatsOfP(swapped), std::string("K1:4 M1:2 "));
        carryFormats(layout, before, swapped);
        QCOMPARE(formatsOfP(swapped), std::string("K1:2 M1:4 "));

        // 2. One factor 2 of K to the PE buffer's temporal level (mapping level 4): K splits into K1 and
        //    K4, the new rank takes K's format, M keeps UOP.
        int lastK = -1;
        for (int i = tiling.begin; i < tiling.end; ++i)
            if (layout.gene(i).dim == k)
                lastK = i;
        Genome split = before;
        split[lastK] = 4;
        QCOMPARE(formatsOfP(split), std::string("M1:0 K1:4 K4:2 "));
        carryFormats(layout, before, split);
        QCOMPARE(formatsOfP(split), std::string("M1:4 K1:2 K4:2 "));

        // 3. All of M to the PE buffer: the rank moves from M1 to M4 with its format.
        Genome moved = before;
        for (int i = tiling.begin; i < tiling.end; ++i)
            if (layout.gene(i).dim == m)
                moved[i] = 4;
        QCOMPARE(formatsOfP(moved), std::string("K1:4 M4:2 "));
        carryFormats(layout, before, moved);
        QCOMPARE(formatsOfP(moved), std::string("K1:2 M4:4 "));
    }

    // carryFormats against the decoded designs, on random mapping changes of random genomes: every
    // rank both designs have keeps its format (unless it moved beyond the innermost five, which are
    // UOP), whatever else moved.
    void carriedFormatsMatchThroughTheDecodedDesign_data()
    {
        QTest::addColumn<QString>("workload");
        QTest::addColumn<QString>("preset");
        for (const auto& [w, p] : {std::pair{"mm3", "cloud"}, {"conv4", "mobile"}, {"batched-spmm", "edge"}})
            QTest::newRow((std::string(w) + "/" + p).c_str()) << QString(w) << QString(p);
    }

    void carriedFormatsMatchThroughTheDecodedDesign()
    {
        QFETCH(QString, workload);
        QFETCH(QString, preset);
        const GenomeLayout layout = test::sampleLayout(workload.toStdString(), preset.toStdString());
        const GeneSegment mappingSegments[2] = {GeneSegment::Permutation, GeneSegment::Tiling};
        std::mt19937_64 rng(11);
        int shared = 0;
        for (int n = 0; n < 300; ++n) {
            const Genome before = randomGenome(layout, rng);
            Genome after = before;
            for (int moves = 0; moves < 1 + n % 3; ++moves) {
                const auto range = layout.segment(mappingSegments[(n + moves) % 2]);
                const int gene = std::uniform_int_distribution<int>(range.begin, range.end - 1)(rng);
                after[gene] =
                    std::uniform_int_distribution<int>(layout.gene(gene).lower, layout.gene(gene).upper)(rng);
            }
            carryFormats(layout, before, after);
            const Design a = decodeGenome(layout, before), b = decodeGenome(layout, after);
            for (int slot = 0; slot < 3; ++slot) {
                const int tensor = layout.formatTensor(slot);
                const auto& was = a.sparse.formats[0][tensor].ranks;
                const auto& now = b.sparse.formats[0][tensor].ranks;
                // Ranks outside the innermost kFormatGenesPerTensor have no gene: UOP whatever they had.
                const std::size_t first =
                    now.size() > kFormatGenesPerTensor ? now.size() - kFormatGenesPerTensor : 0;
                for (std::size_t i = first; i < now.size(); ++i)
                    for (const auto& q : was)
                        if (now[i].dim == q.dim && now[i].mappingLevel == q.mappingLevel) {
                            QCOMPARE(now[i].format, q.format);
                            ++shared;
                        }
            }
        }
        QVERIFY2(shared > 1000, qPrintable(QString::number(shared)));
    }
};

QTEST_APPLESS_MAIN(TestGenomeCanonical)
#include "test_genome_canonical.moc"
