// The `sparsemap` command line, run as a user would: exit codes, --help, outputs and error messages.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

Run sparsemap(const QStringList& args)
{
    QProcess p;
    p.setWorkingDirectory(SPARSEMAP_SOURCE_DIR);
    p.start(SPARSEMAP_CLI, args);
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

// The SparseMap paper's Fig. 13 genome for the toy SpMM (see tests/core/test_genome_paper_examples.cpp).
const char* kFigure13 = "1,1,1,1,1, 2,2,4,5,5,3,3, 0,0,1,1,3, 0,0,0,0,0, 0,0,0,0,0, 5,0,3";

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void helpOnEveryCommand_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("top") << QStringList{"--help"};
        QTest::newRow("info") << QStringList{"info", "--help"};
        QTest::newRow("decode") << QStringList{"decode", "--help"};
        QTest::newRow("random") << QStringList{"random", "-h"};
    }
    void helpOnEveryCommand()
    {
        QFETCH(QStringList, args);
        const Run r = sparsemap(args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("Usage"), qPrintable(r.out));
    }

    void infoShowsLayoutAndDesignSpace()
    {
        const Run r = sparsemap({"info", "samples/workloads/spmm-32x64x48.yaml", "--arch", "cloud"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("39 genes"), qPrintable(r.out));
        QVERIFY2(r.out.contains("O(10^41)"), qPrintable(r.out));
        QVERIFY2(r.out.contains("M=2*2*2*2*2"), qPrintable(r.out));
        QVERIFY(r.err.isEmpty());
    }

    void decodeFigure13()
    {
        const Run r = sparsemap({"decode", "samples/workloads/toy.yaml", "samples/arch/toy.yaml", kFigure13});
        QCOMPARE(r.exitCode, 0);
        for (const char* expected :
             {"for m2 in [0,4)", "par-for n3 in [0,4)", "for k4 in [0,2)", "par-for k5 in [0,4)",
              "P: B(M2)-B(K4)-CP(K5)", "GLB: Skip Q <- P", "PE buffer: none", "compute: Gate P <-> Q"})
            QVERIFY2(r.out.contains(expected), qPrintable(expected + QString(" missing from\n") + r.out));
    }

    void decodeSavesADesignThatDecodesAgain()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("fig13.design.yaml");
        const Run saved = sparsemap(
            {"decode", "samples/workloads/toy.yaml", "samples/arch/toy.yaml", kFigure13, "--save", file});
        QCOMPARE(saved.exitCode, 0);
        QVERIFY(QFileInfo::exists(file));
        const Run again = sparsemap({"decode", "samples/workloads/toy.yaml", "samples/arch/toy.yaml", file});
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.out, saved.out.left(saved.out.indexOf("\nsaved ")));
    }

    void randomIsSeeded()
    {
        const QStringList args{"random", "samples/workloads/conv4.yaml", "mobile", "--seed", "7"};
        const Run a = sparsemap(args), b = sparsemap(args);
        QCOMPARE(a.exitCode, 0);
        QCOMPARE(a.out, b.out);
        const Run c = sparsemap({"random", "samples/workloads/conv4.yaml", "mobile", "--seed", "8"});
        QVERIFY(a.out != c.out);
        QVERIFY(a.out.contains("O[k,p,q] += I[c,p+r,q+s] * W[k,c,r,s]"));
    }

    void errorsAreOneLineAndNonZero_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << 2 << "unknown command";
        QTest::newRow("unknown option")
            << QStringList{"info", "samples/workloads/mm3.yaml", "--bogus"} << 2 << "bogus";
        QTest::newRow("missing argument")
            << QStringList{"decode", "samples/workloads/mm3.yaml"} << 2 << "missing argument <arch>";
        QTest::newRow("missing file")
            << QStringList{"info", "no/such/workload.yaml"} << 1 << "no/such/workload.yaml";
        QTest::newRow("unknown preset")
            << QStringList{"info", "samples/workloads/mm3.yaml", "--arch", "datacenter"} << 1 << "datacenter";
        QTest::newRow("genome too short")
            << QStringList{"decode", "samples/workloads/toy.yaml", "cloud", "1,2,3"} << 1
            << "genome has 3 genes";
        QTest::newRow("gene out of range")
            << QStringList{"decode", "samples/workloads/toy.yaml", "samples/arch/toy.yaml",
                           "9,1,1,1,1, 2,2,4,5,5,3,3, 0,0,1,1,3, 0,0,0,0,0, 0,0,0,0,0, 5,0,3"}
            << 1 << "perm1";
        QTest::newRow("not a genome")
            << QStringList{"decode", "samples/workloads/toy.yaml", "cloud", "1,two"} << 1 << "not an integer";
        QTest::newRow("bad seed") << QStringList{"random", "samples/workloads/toy.yaml", "cloud", "--seed",
                                                 "x"}
                                  << 2 << "--seed";
        QTest::newRow("bad padding") << QStringList{"info", "samples/workloads/toy.yaml", "--padding", "odd"}
                                     << 2 << "--padding";
    }
    void errorsAreOneLineAndNonZero()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, fragment);
        const Run r = sparsemap(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(fragment), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
