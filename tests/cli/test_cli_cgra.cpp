// `sparsemap cgra`, run as a user would: the metrics table, the figure samples, and usage errors.
#include "cli_run.hpp"

#include <QtTest>

namespace {

using Run = clitest::CliRun;

Run sparsemap(const QStringList& args)
{
    return clitest::runSparsemap(args);
}

} // namespace

class TestCliCgra : public QObject {
    Q_OBJECT
private slots:
    void help()
    {
        const Run r = sparsemap({"cgra", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--ablation"));
    }

    void figure3SampleShowsAibaAndRidAt()
    {
        const Run r = sparsemap({"cgra", "--block", "samples/cgra/fig3.mask", "--rows", "8", "--cols", "2",
                                 "--ablation", "none,sparsemap"});
        QCOMPARE(r.exitCode, 0);
        // |V_OP| = 2 * 9 - 4 = 14; MII = max(ceil(14/16), ceil(4/2), ceil(4/8)) = 2.
        QVERIFY2(r.out.contains("nnz 9, sparsity 0.44, |V_OP| 14, |V_R| 4, |V_W| 4, MII 2"),
                 qPrintable(r.out));
        // variant, II_0, COPs, MCIDs, mapped at II_0, II, speed-up
        QVERIFY2(r.out.contains(QRegularExpression(R"(none\s+2\s+0\s+3\s+Y\s+2\s+1\.00)")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression(R"(sparsemap\s+2\s+0\s+1\s+Y\s+2\s+1\.00)")),
                 qPrintable(r.out));
    }

    void randomBlocksPrintTotals()
    {
        const Run r =
            sparsemap({"cgra", "--random", "8", "8", "0.4", "1", "--count", "3", "--ablation", "table4"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("totals over 3 blocks"), qPrintable(r.out));
        QCOMPARE(r.out.count("block C8K8-p0.4-s"), 3);
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("no source") << QStringList{"cgra"} << 2 << "exactly one of --block";
        QTest::newRow("random arity") << QStringList{"cgra", "--random", "8", "8"} << 2 << "C K p seed";
        QTest::newRow("bad p") << QStringList{"cgra", "--random", "8", "8", "1.5", "1"} << 2
                               << "zero probability";
        QTest::newRow("bad variant") << QStringList{"cgra", "--paper", "--ablation", "fast"} << 2
                                     << "unknown variant";
        QTest::newRow("bad rows") << QStringList{"cgra", "--paper", "--rows", "0"} << 2 << "--rows";
        QTest::newRow("bad file") << QStringList{"cgra", "--block", "tests/data/bad/cgra/value-two.mask"} << 1
                                  << "value-two.mask:3:5: unexpected '2'";
        QTest::newRow("missing file") << QStringList{"cgra", "--block", "no/such.mask"} << 1 << "cannot read";
        QTest::newRow("spmm is no conv")
            << QStringList{"cgra", "--spconv", "samples/workloads/mm1.yaml", "8", "8", "1"} << 1
            << "not a SpConv";
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Run r = sparsemap(args);
        QCOMPARE(r.exitCode, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliCgra)
#include "test_cli_cgra.moc"
