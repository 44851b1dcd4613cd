// The s-DFG of a sparse block and the MII formula, checked against the CGRA SparseMap paper's Table 2
// (block features) and Table 3 (MII), on masks built to those features.
#include "cgra/paper_blocks.hpp"
#include "cgra/sdfg.hpp"

#include <QtTest>

#include <cmath>

using namespace sparsemap::cgra;

class TestCgraSdfg : public QObject {
    Q_OBJECT
private slots:
    void smallBlockGraphByHand()
    {
        // k0 = {c0, c1, c2}, k1 = {c2}, k2 = {} (all zero), c3 unused.
        SparseBlock b;
        b.name = "hand";
        b.channels = 4;
        b.kernels = 3;
        b.mask = {1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0};
        const Sdfg g = buildSdfg(b);
        QCOMPARE(g.count(NodeKind::Read), 3);  // c0, c1, c2
        QCOMPARE(g.count(NodeKind::Mul), 4);   // nnz
        QCOMPARE(g.count(NodeKind::Add), 2);   // (3 - 1) + (1 - 1)
        QCOMPARE(g.count(NodeKind::Write), 2); // k0, k1; k2 is constant zero
        int input = 0, output = 0, internal = 0;
        for (const auto& e : g.edges) {
            input += e.kind == EdgeKind::Input;
            output += e.kind == EdgeKind::Output;
            internal += e.kind == EdgeKind::Internal;
        }
        QCOMPARE(input, 4);    // reading -> multiplication
        QCOMPARE(output, 2);   // root -> writing
        QCOMPARE(internal, 4); // two additions with two producers each
        const auto counts = countsOf(b);
        QCOMPARE(counts.ops, 6);
        QCOMPARE(counts.reads, 3);
        QCOMPARE(counts.writes, 2);
        // 4 x 4: max(ceil(6/16), ceil(3/4), ceil(2/4)) = 1; 1 x 2: max(ceil(6/2), ceil(3/2), ceil(2/1)) = 3.
        QCOMPARE(minimumIi(counts, paperCgra()), 1);
        CgraSpec tiny;
        tiny.rows = 1;
        tiny.cols = 2;
        QCOMPARE(minimumIi(counts, tiny), 3);
    }

    void balancedTreeOfFourIsTwoPairsThenTheirSum()
    {
        const auto pairs = balancedTreePairs(4);
        QCOMPARE(int(pairs.size()), 3);
        QCOMPARE(pairs[0], std::make_pair(0, 1));
        QCOMPARE(pairs[1], std::make_pair(2, 3));
        QCOMPARE(pairs[2], std::make_pair(-1, -2));
        QCOMPARE(int(balancedTreePairs(5).size()), 4);
        QCOMPARE(int(balancedTreePairs(1).size()), 0);
    }

    void table2FeaturesAndTable3Mii_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < 7; ++i)
            QTest::newRow(paperTable()[std::size_t(i)].name) << i;
    }
    void table2FeaturesAndTable3Mii()
    {
        QFETCH(int, index);
        const auto& row = paperTable()[std::size_t(index)];
        const auto block = paperBlocks()[std::size_t(index)];
        QCOMPARE(block.channels, row.channels);
        QCOMPARE(block.kernels, row.kernels);
        const auto counts = countsOf(block);
        QCOMPARE(counts.ops, row.ops);
        QCOMPARE(counts.reads, row.reads);
        QCOMPARE(counts.writes, row.writes);
        // |V_OP| = |V_M| + |V_A| = nnz + (nnz - K) when every kernel has a nonzero weight.
        QCOMPARE(counts.ops, 2 * block.nnz() - block.kernels);
        const Sdfg g = buildSdfg(block);
        QCOMPARE(g.opCount(), row.ops);
        QVERIFY2(std::abs(block.sparsity() - row.sparsity) <= 0.0051,
                 qPrintable(QString::number(block.sparsity())));
        int above4 = 0;
        for (int c = 0; c < block.channels; ++c)
            above4 += block.fanout(c) > 4;
        QCOMPARE(above4, row.fanoutAbove4);
        QCOMPARE(minimumIi(counts, paperCgra()), row.mii);
    }

    void miiFromThePrintedCountsAlone()
    {
        // MII straight from Table 2's |V_OP|, |V_R|, |V_W| on 4 x 4 (Table 3's MII column).
        const int expected[] = {2, 2, 3, 2, 4, 3, 4};
        for (std::size_t i = 0; i < 7; ++i) {
            const auto& r = paperTable()[i];
            QCOMPARE(minimumIi({r.ops, r.reads, r.writes}, paperCgra()), expected[i]);
        }
    }

    void denseMiiGivesThePaperSpeedups()
    {
        // Table 3's SparseMap speed-ups: dense MII / II. C4K6 dense: 2*24-6 = 42 ops -> MII 3, so 3/2 = 1.5;
        // C6K6: 66 -> 5, 5/3 = 1.67; C8K8: 120 -> 8, 8/4 = 2 and 8/3 = 2.67.
        QCOMPARE(denseMinimumIi(4, 6, paperCgra()), 3);
        QCOMPARE(denseMinimumIi(6, 6, paperCgra()), 5);
        QCOMPARE(denseMinimumIi(8, 8, paperCgra()), 8);
    }
};

QTEST_GUILESS_MAIN(TestCgraSdfg)
#include "test_cgra_sdfg.moc"
