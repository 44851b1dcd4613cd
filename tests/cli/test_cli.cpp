// The `sparsemap` command line, run as a user would: exit codes, --help, outputs and error messages.
#include "cli_run.hpp"
#include "reference_corpus.hpp"
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = clitest::CliRun;

Run sparsemap(const QStringList& args)
{
    return clitest::runSparsemap(args);
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
        QTest::newRow("evaluate") << QStringList{"evaluate", "--help"};
        QTest::newRow("validate") << QStringList{"validate", "--help"};
        QTest::newRow("search") << QStringList{"search", "--help"};
        QTest::newRow("sweep") << QStringList{"sweep", "--help"};
        QTest::newRow("optimum") << QStringList{"optimum", "--help"};
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

    // The Fig. 13 design on the toy accelerator: a valid design whose numbers the model prints.
    void evaluateAGenome()
    {
        const Run r = sparsemap(
            {"evaluate", "samples/workloads/toy.yaml", "samples/arch/toy.yaml", kFigure13, "--nest"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("for k4 in [0,2)"), qPrintable(r.out)); // --nest
        // Fig. 13 spreads one loop of 4 over the toy's 2 x 2 PE grid: Timeloop places a loop along X
        // or Y, never both, so no split fits and the design is one Sparseloop cannot map.
        QVERIFY2(
            r.out.contains("invalid: spatial loops (fan-out below GLB 4, PE buffer 4) split into no X x Y "
                           "that fits Timeloop's meshes (GLB 1 x 1, PE buffer 2 x 2, MAC 4 x 4)"),
            qPrintable(r.out));
    }

    void evaluateReportsWhyADesignIsInvalid()
    {
        // P's innermost format gene is 4 (UOP): an offset pair with nothing to point to.
        const Run r = sparsemap({"evaluate", "samples/workloads/toy.yaml", "samples/arch/toy.yaml",
                                 "1,1,1,1,1, 2,2,4,5,5,3,3, 0,0,1,1,4, 0,0,0,0,0, 0,0,0,0,0, 5,0,3"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("invalid: the format of P"), qPrintable(r.out));
        QVERIFY2(r.out.contains("UOP"), qPrintable(r.out));
    }

    void validateAgainstSparseloop()
    {
        const QString root = SPARSEMAP_SOURCE_DIR "/../shared/reference/sparseloop";
        if (!QFileInfo::exists(root))
            SPARSEMAP_REFERENCE_MISSING("the Sparseloop reference cases (../shared/reference/sparseloop)");
        const Run r = sparsemap({"validate", root});
        QCOMPARE(r.exitCode, 0);
        const QString last = r.out.trimmed().split('\n').last();
        QVERIFY2(last.startsWith("summary: cycles median |error|"), qPrintable(last));
        QVERIFY2(r.out.contains("48 cases (figures from timeloop-model.stats.txt), 48 evaluated, 0 rejected "
                                "by both, 0 failed"),
                 qPrintable(r.out));
    }

    void evaluateASparseloopCase()
    {
        const QString dir = SPARSEMAP_SOURCE_DIR
            "/../shared/reference/sparseloop/stc/WD-1.0/M512-K256-N1024-IAD0.82-WD1.0/TC-RF2x-24-bandwidth";
        if (!QFileInfo::exists(dir))
            SPARSEMAP_REFERENCE_MISSING("the Sparseloop reference cases (../shared/reference/sparseloop)");
        const Run r = sparsemap({"evaluate", "--sparseloop", dir});
        QCOMPARE(r.exitCode, 0);
        // Sparseloop's own figures for this dense case (its stats file): 131072 cycles, 205.45 uJ.
        QVERIFY2(r.out.contains("cycles       131072"), qPrintable(r.out));
        QVERIFY2(r.out.contains("(205.5 uJ)"), qPrintable(r.out));
    }

    void searchWritesItsFiles()
    {
        QTemporaryDir dir;
        const Run r =
            sparsemap({"search", "--workload", "samples/workloads/mm3.yaml", "--arch", "cloud", "--method",
                       "sparsemap", "--budget", "3000", "--seed", "3", "--out", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("3000 evaluations"), qPrintable(r.out));
        QVERIFY2(r.out.contains("best genome:"), qPrintable(r.out));
        QVERIFY2(r.out.contains("Z[m,n] += P[m,k] * Q[k,n]"), qPrintable(r.out)); // the loop nest
        for (const char* file : {"points.csv", "convergence.csv", "best.design.yaml"})
            QVERIFY2(QFileInfo::exists(dir.filePath(file)), file);
        QFile points(dir.filePath("points.csv"));
        QVERIFY(points.open(QIODevice::ReadOnly));
        QCOMPARE(QString(points.readAll()).trimmed().count('\n'), 3000); // header + one line per evaluation
        // The saved best design decodes and evaluates again.
        const Run again =
            sparsemap({"evaluate", "samples/workloads/mm3.yaml", "cloud", dir.filePath("best.design.yaml")});
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("valid\n"), qPrintable(again.out));
    }

    // Beyond Sparseloop's rules: a run with nearest formats and capacity at the 0.9 quantile saves its best
    // (its genome's design: the evaluated one has its formats made representable) and records both options
    // in run.session.yaml and best.design.yaml; the saved design evaluates again under them (given on the
    // command line, or read from the file) to the EDP the search printed.
    void searchBeyondSparseloopSavesAndRecordsItsOptions()
    {
        QTemporaryDir dir;
        const Run r = sparsemap({"search", "--workload", "samples/workloads/mm3.yaml", "--arch", "cloud",
                                 "--budget", "800", "--seed", "2", "--format-space", "nearest",
                                 "--confidence", "0.9", "--out", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(QFileInfo::exists(dir.filePath("best.design.yaml")), qPrintable(r.err));
        QFile session(dir.filePath("run.session.yaml"));
        QVERIFY(session.open(QIODevice::ReadOnly));
        QVERIFY(session.readAll().contains("model: {occupancy_confidence: 0.9, format_space: nearest}"));
        const auto printed = QRegularExpression("EDP +([0-9.e+]+)").match(r.out);
        QVERIFY2(printed.hasMatch(), qPrintable(r.out));
        const Run again =
            sparsemap({"evaluate", "samples/workloads/mm3.yaml", "cloud", dir.filePath("best.design.yaml"),
                       "--format-space", "nearest", "--confidence", "0.9"});
        QCOMPARE(again.exitCode, 0);
        const auto evaluated = QRegularExpression("EDP +([0-9.e+]+)").match(again.out);
        QVERIFY2(evaluated.hasMatch(), qPrintable(again.out));
        QVERIFY(std::abs(evaluated.captured(1).toDouble() / printed.captured(1).toDouble() - 1) < 1e-5);
        // Without the options on the command line the design file's own `model` entry applies: the
        // same EDP again.
        const Run recorded =
            sparsemap({"evaluate", "samples/workloads/mm3.yaml", "cloud", dir.filePath("best.design.yaml")});
        QCOMPARE(recorded.exitCode, 0);
        const auto fromFile = QRegularExpression("EDP +([0-9.e+]+)").match(recorded.out);
        QVERIFY2(fromFile.hasMatch(), qPrintable(recorded.out));
        QVERIFY(std::abs(fromFile.captured(1).toDouble() / printed.captured(1).toDouble() - 1) < 1e-5);
    }

    // The exact mapping optimum for Fig. 13's sparse strategy on the toy (Fig. 13's own mapping cannot be
    // mapped: see evaluateAGenome): the saved optimum evaluates to the EDP printed; a space above
    // --max-mappings is refused with its size.
    void optimumOfTheToy()
    {
        QTemporaryDir dir;
        const QString saved = dir.filePath("optimum.design.yaml");
        const Run r = sparsemap({"optimum", "samples/workloads/toy.yaml", "samples/arch/toy.yaml", kFigure13,
                                 "--threads", "2", "--save", saved});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("canonical mapping space: 7875 tilings"), qPrintable(r.out)); // 15 x 35 x 15
        QVERIFY2(r.out.contains("given design: edp invalid (spatial loops"), qPrintable(r.out));
        const auto edpLine = QRegularExpression("optimum: edp ([0-9.e+]+)").match(r.out);
        QVERIFY2(edpLine.hasMatch(), qPrintable(r.out));
        const double edp = edpLine.captured(1).toDouble();
        const Run again =
            sparsemap({"evaluate", "samples/workloads/toy.yaml", "samples/arch/toy.yaml", saved});
        QCOMPARE(again.exitCode, 0);
        const auto evaluated = QRegularExpression("EDP +([0-9.e+]+)").match(again.out);
        QVERIFY2(evaluated.hasMatch(), qPrintable(again.out));
        QVERIFY(std::abs(evaluated.captured(1).toDouble() / edp - 1) < 1e-5);

        const Run refused = sparsemap({"optimum", "samples/workloads/toy.yaml", "samples/arch/toy.yaml",
                                       kFigure13, "--max-mappings", "1000"});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("larger than --max-mappings (1000)"), qPrintable(refused.err));
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
        QTest::newRow("missing sparseloop folder")
            << QStringList{"evaluate", "--sparseloop", "no/such/case"} << 1 << "no/such/case";
        QTest::newRow("bad confidence")
            << QStringList{"evaluate", "samples/workloads/toy.yaml", "cloud", "1", "--confidence", "2"} << 2
            << "--confidence";
        QTest::newRow("unknown method")
            << QStringList{"search",   "--workload", "samples/workloads/toy.yaml", "--arch", "cloud",
                           "--method", "hillclimb"}
            << 2 << "--method must be one of";
        QTest::newRow("budget 0") << QStringList{"search", "--workload", "samples/workloads/toy.yaml",
                                                 "--arch", "cloud",      "--budget",
                                                 "0"}
                                  << 2 << "--budget";
        QTest::newRow("search missing workload")
            << QStringList{"search", "--workload", "missing.yaml", "--arch", "cloud"} << 1 << "missing.yaml";
        QTest::newRow("bad objective")
            << QStringList{"search",      "--workload", "samples/workloads/toy.yaml", "--arch", "cloud",
                           "--objective", "area"}
            << 2 << "--objective";
        QTest::newRow("bad padding") << QStringList{"info", "samples/workloads/toy.yaml", "--padding", "odd"}
                                     << 2 << "--padding";
        // Issue 14: negative numbers are values (of the option before them, or positional), not options.
        QTest::newRow("negative seed")
            << QStringList{"random", "samples/workloads/toy.yaml", "cloud", "--seed", "-1"} << 2 << "--seed";
        QTest::newRow("negative p") << QStringList{"cgra", "--random", "8", "8", "-0.4", "1"} << 2
                                    << "p (zero probability) must be a number in [0, 1), not '-0.4'";
        QTest::newRow("nan p") << QStringList{"cgra", "--random", "8", "8", "nan", "1"} << 2
                               << "p (zero probability) must be a number in [0, 1), not 'nan'";
        QTest::newRow("33 storage levels") << QStringList{"search",
                                                          "--workload",
                                                          "samples/workloads/toy.yaml",
                                                          "--arch",
                                                          "tests/data/bad/arch/too-many-levels.yaml",
                                                          "--budget",
                                                          "10"}
                                           << 1 << "has 33 storage levels; at most 32";
        QTest::newRow("device file") << QStringList{"info", "/dev/zero"} << 1 << "not a regular file";
        QTest::newRow("optimum genome too short")
            << QStringList{"optimum", "samples/workloads/toy.yaml", "cloud", "1,2,3"} << 1
            << "genome has 3 genes";
        QTest::newRow("optimum bad max-mappings")
            << QStringList{"optimum",
                           "samples/workloads/toy.yaml",
                           "samples/arch/toy.yaml",
                           kFigure13,
                           "--max-mappings",
                           "lots"}
            << 2 << "--max-mappings must be a positive number, not 'lots'";
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

    // Issue 14: text from a file is escaped, so a file cannot drive the terminal or forge a line.
    void fileTextIsEscaped()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("arch.yaml");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("version: 1\narchitecture:\n  name: a\n  levels:\n"
                "    - {technology: \"\\e]0;pwned\\a\\nfake.yaml:1:1: forged\"}\n");
        f.close();
        const Run r = sparsemap({"info", "samples/workloads/toy.yaml", "--arch", path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(!r.err.contains(QChar(0x1b)) && !r.err.contains(QChar(0x07)), qPrintable(r.err));
        QVERIFY2(r.err.contains("\\x1b]0;pwned\\x07\\nfake.yaml:1:1: forged"), qPrintable(r.err));
        for (const auto& line : r.err.split('\n', Qt::SkipEmptyParts))
            QVERIFY2(line.startsWith("sparsemap info: "), qPrintable(line));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
