// Issue 14 through the command line: bad input gets the exact error (file:line:column, the field, what
// is allowed) and the README's exit code (1 bad input, 2 bad command line); designs that move data never
// report 0 cycles. Every expected figure is worked out by hand in the comment beside it.
#include "cli_run.hpp"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = clitest::CliRun;

Run sparsemap(const QStringList& args, int timeoutMs = 120000)
{
    return clitest::runSparsemap(args, timeoutMs);
}

void writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

// The number after `key` at the start of a line of the evaluate/search report (`cycles       4`).
double reported(const QString& out, const QString& key)
{
    const QRegularExpression re("^" + key + "\\s+([-+0-9.eE]+|nan|inf|-nan)",
                                QRegularExpression::MultilineOption);
    const auto m = re.match(out);
    return m.hasMatch() ? m.captured(1).toDouble() : -1;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool copyTree(const QString& from, const QString& to)
{
    QDir().mkpath(to);
    for (const auto& name : QDir(from).entryList(QDir::Files))
        if (!QFile::copy(from + "/" + name, to + "/" + name))
            return false;
    return true;
}

} // namespace

class TestCliRobustness : public QObject {
    Q_OBJECT
private slots:
    // Item 2 by hand (tests/data/robustness/): Z += P[k] * Q[k], K = 8; P has density 1e-20, so no
    // nonzero of P is expected and Skip Q <- P at the buffer removes every compute (0 compute cycles).
    // P is compressed (CP) at both levels: 0 words. Q is uncompressed at DRAM: its 8 words go to the
    // buffer at 2 words/cycle = 4 cycles; the buffer has unlimited bandwidth (1 cycle for its traffic).
    // Cycles = max(4, 1, 0) = 4 (the model used to say 0, and EDP 0).
    // Energy: DRAM Q 8 reads x 10 pJ + Z 1 update x 10 pJ = 90; buffer Q 8 fills x 2 pJ + 8 skipped
    // reads x 0.01 pJ = 16.08; buffer Z 7 reads x 1 + 1 fill x 2 + 8 updates x 2 = 25: 131.08 pJ, and
    // EDP 4 x 131.08 = 524.32.
    void emptyOperandStillTakesItsDramTime()
    {
        const Run r =
            sparsemap({"evaluate", "tests/data/robustness/dot-empty-p.yaml",
                       "tests/data/robustness/dot-arch.yaml", "tests/data/robustness/dot-skip.design.yaml"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("\nvalid\n"), qPrintable(r.out));
        QCOMPARE(reported(r.out, "cycles"), 4.0);
        QCOMPARE(reported(r.out, "energy"), 131.08);
        QCOMPARE(reported(r.out, "EDP"), 524.32);
        QVERIFY2(r.out.contains("computes     0 actual, 0 gated, 0 skipped of 8"), qPrintable(r.out));
    }

    // Item 2: densities that leave no nonzero (uniform 1e-20, fixed-structured 1e-300, an all-zero .mtx)
    // still give the search designs that take time: the toy SpMM's best design reads at least one word
    // from DRAM, so it takes >= 1 cycle, and its EDP is cycles x energy > 0.
    void searchesOnEmptyOperandsFindDesignsThatTakeTime_data()
    {
        QTest::addColumn<QString>("density");
        QTest::newRow("uniform 1e-20") << "1e-20";
        QTest::newRow("fixed-structured 1e-300") << "{model: fixed-structured, density: 1e-300}";
        QTest::newRow("all-zero mtx") << "{model: actual, file: zero.mtx}";
    }
    void searchesOnEmptyOperandsFindDesignsThatTakeTime()
    {
        QFETCH(QString, density);
        QTemporaryDir dir;
        writeFile(dir.filePath("zero.mtx"), "%%MatrixMarket matrix coordinate real general\n4 8 0\n");
        writeFile(dir.filePath("w.yaml"),
                  "version: 1\nworkload:\n  name: empty\n  type: spmm\n  M: 4\n  K: 8\n"
                  "  N: 4\n  density: {P: " +
                      density.toUtf8() + ", Q: 0.5}\n");
        const Run r =
            sparsemap({"search", "--workload", dir.filePath("w.yaml"), "--arch", "samples/arch/toy.yaml",
                       "--budget", "500", "--seed", "1", "--threads", "1"});
        QCOMPARE(r.exitCode, 0);
        const double cycles = reported(r.out, "cycles"), energy = reported(r.out, "energy"),
                     edp = reported(r.out, "EDP");
        QVERIFY2(cycles >= 1, qPrintable(r.out));
        QVERIFY2(energy > 0 && edp > 0, qPrintable(r.out));
        QVERIFY(std::abs(edp - cycles * energy) <= 1e-3 * edp);
    }

    // Every bad input of the issue gets its exact error, at its position, with the README's exit code.
    void badInputIsAnExactError_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("fragment");
        const QString toy = "samples/workloads/toy.yaml";
        // Item 1: 33 storage levels overflowed a 32-entry array.
        QTest::newRow("33 levels")
            << QStringList{"search",
                           "--workload",
                           toy,
                           "--arch",
                           "tests/data/bad/arch/too-many-levels.yaml",
                           "--budget",
                           "10"}
            << 1
            << "too-many-levels.yaml:6:5: architecture.levels: has 33 storage levels; at "
               "most 32 are supported";
        // Item 3: values that overflowed int64 later.
        QTest::newRow("band 2^63-1") << QStringList{"info",
                                                    "tests/data/bad/workload/banded-huge-bandwidth.yaml"}
                                     << 1
                                     << "banded-huge-bandwidth.yaml:10:35: workload.density.P.bandwidth: "
                                        "bandwidth 9223372036854775807 is "
                                        "too large; a band's half-width is 0 to 2^40 = 1099511627776";
        QTest::newRow("coefficient 2^40")
            << QStringList{"info", "tests/data/bad/workload/general-huge-coefficient.yaml"} << 1
            << "coefficient 1099511627776 in `1099511627776*P + R` is too large; at most 1048576 (2^20)";
        QTest::newRow("padding 2^40")
            << QStringList{"info", "tests/data/bad/workload/spconv-padding-output-too-large.yaml"} << 1
            << "spconv-padding-output-too-large.yaml:12:12: workload.padding: padding gives an output of "
               "2199023255558 x 2199023255558; an output side must be at most 2^40 = 1099511627776";
        QTest::newRow("dense MACs 2^81")
            << QStringList{"info", "tests/data/bad/workload/volume-overflow.yaml"} << 1
            << "the product of the dimension sizes (the dense MACs) exceeds 2^53 = 9007199254740992";
        // Item 4: 33 dimensions (dimension sets are 32-bit masks).
        QTest::newRow("33 dims") << QStringList{"info", "tests/data/bad/workload/general-too-many-dims.yaml"}
                                 << 1 << "a workload has 33 dimensions; at most 32 are supported";
        // Item 6: a bandwidth of 1e-300 made EDP inf; an energy of 1e308 made every design non-finite.
        QTest::newRow("bandwidth 1e-300")
            << QStringList{"info", toy, "--arch", "tests/data/bad/arch/bandwidth-below-minimum.yaml"} << 1
            << "allowed: 0 (unlimited) or 1e-09 to 1e+12 words/cycle";
        QTest::newRow("energy 1e308")
            << QStringList{"info", toy, "--arch", "tests/data/bad/arch/energy-too-large.yaml"} << 1
            << "energy 1e+308 pJ is too large; allowed: 0 to 1e+12 pJ";
        QTest::newRow("/dev/zero workload")
            << QStringList{"info", "/dev/zero"} << 1 << "cannot read /dev/zero: it is not a regular file";
        QTest::newRow("/dev/zero arch") << QStringList{"info", toy, "--arch", "/dev/zero"} << 1
                                        << "cannot read /dev/zero: it is not a regular file";
        QTest::newRow("/dev/zero mask")
            << QStringList{"cgra", "--block", "/dev/zero"} << 1 << "not a regular file";
        // Item 7: exit codes of the command line (2) everywhere.
        QTest::newRow("search unknown method")
            << QStringList{"search", "--workload", toy, "--arch", "cloud", "--method", "nope"} << 2
            << "--method must be one of";
        QTest::newRow("sweep unknown method") << QStringList{"sweep",
                                                             "--workloads",
                                                             toy,
                                                             "--arch",
                                                             "samples/arch/toy.yaml",
                                                             "--methods",
                                                             "sparsemap,nope",
                                                             "--seeds",
                                                             "1",
                                                             "--budget",
                                                             "10",
                                                             "--out",
                                                             "/nonexistent/x"}
                                              << 2 << "--methods must be one of";
        QTest::newRow("cgra p nan") << QStringList{"cgra", "--random", "8", "8", "nan", "1"} << 2
                                    << "p (zero probability) must be a number in [0, 1), not 'nan'";
        QTest::newRow("cgra p -0.5") << QStringList{"cgra", "--random", "8", "8", "-0.5", "1"} << 2
                                     << "p (zero probability) must be a number in [0, 1), not '-0.5'";
        QTest::newRow("negative budget")
            << QStringList{"search", "--workload", toy, "--arch", "cloud", "--budget", "-5"} << 2
            << "--budget must be a number of model evaluations in 1..10000000 (a run keeps every point it "
               "evaluates, ~410 bytes each), not '-5'";
        // 10^8 evaluations would keep ~41 GB of points: refused before anything runs.
        QTest::newRow("budget past the memory bound")
            << QStringList{"search", "--workload", toy, "--arch", "cloud", "--budget", "100000000"} << 2
            << "in 1..10000000 (a run keeps every point";
        QTest::newRow("sweep budget past the memory bound")
            << QStringList{"sweep",    "--workloads", toy,     "--arch",        "cloud",
                           "--budget", "10000001",    "--out", "/nonexistent/x"}
            << 2 << "in 1..10000000 (a run keeps every point";
        // Control characters on the command line are escaped too.
        QTest::newRow("escaped command")
            << QStringList{"\x1b]0;t\x07"} << 2 << "unknown command '\\x1b]0;t\\x07'";
    }
    void badInputIsAnExactError()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, fragment);
        const Run r = sparsemap(args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(fragment), qPrintable(r.err));
        QVERIFY2(!r.err.contains(QChar(0x1b)) && !r.err.contains("internal error"), qPrintable(r.err));
    }

    // Item 6: `cgra --spconv` drew a uniform block whatever the weights' density model was.
    void cgraSpconvRefusesNonUniformWeights()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("conv.yaml"),
                  "version: 1\nworkload:\n  name: conv\n  type: spconv\n  C: 8\n  H: 6\n"
                  "  W: 6\n  K: 8\n  R: 3\n  S: 3\n"
                  "  density: {I: 0.5, W: {model: banded, bandwidth: 1}}\n");
        const Run r = sparsemap({"cgra", "--spconv", dir.filePath("conv.yaml"), "4", "4", "1"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains("weights W have the banded density model; a CGRA block is drawn at random from a "
                           "uniform density only"),
            qPrintable(r.err));
    }

    // Item 7: "no valid design found" is on stderr too, with exit 1. mm5 on the toy accelerator with
    // 2-byte (two-word) PE buffers: every design keeps a tile of P, of Q and of Z there, each at least
    // one word at occupancy confidence 1, so no design fits whatever the search draws.
    void noValidDesignGoesToStderr()
    {
        QFile toy(SPARSEMAP_SOURCE_DIR "/samples/arch/toy.yaml");
        QVERIFY(toy.open(QIODevice::ReadOnly));
        QString yaml = QString::fromUtf8(toy.readAll());
        QCOMPARE(yaml.count("capacity: 64 B"), 1); // the PE buffer's
        QTemporaryDir dir;
        writeFile(dir.filePath("tiny.yaml"), yaml.replace("capacity: 64 B", "capacity: 2 B").toUtf8());
        const Run r =
            sparsemap({"search", "--workload", "samples/workloads/mm5.yaml", "--arch",
                       dir.filePath("tiny.yaml"), "--budget", "20", "--seed", "1", "--threads", "1"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("no valid design found"), qPrintable(r.out));
        QVERIFY2(r.err.contains("sparsemap search: no valid design found in 20 evaluations"),
                 qPrintable(r.err));
    }

    // Item 6: a Sparseloop stats file with Cycles nan, 0 or -5 is an error row of `validate`, never a
    // nan% or inf% error (the reference case of the repository, stats written here).
    void validateRefusesBadReferenceCycles_data()
    {
        QTest::addColumn<QString>("cycles");
        QTest::newRow("nan") << "nan";
        QTest::newRow("0") << "0";
        QTest::newRow("-5") << "-5";
    }
    void validateRefusesBadReferenceCycles()
    {
        QFETCH(QString, cycles);
        QTemporaryDir dir;
        const QString c = dir.filePath("case");
        QVERIFY(copyTree(SPARSEMAP_SOURCE_DIR "/tests/data/sparseloop/tiny", c));
        writeFile(c + "/timeloop-model.stats.txt",
                  "Summary Stats\n-------------\nGFLOPs (@1GHz): 1.00\nCycles: " + cycles.toUtf8() +
                      "\nEnergy: 1.00 uJ\n");
        const Run r = sparsemap({"validate", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("timeloop-model.stats.txt:4:9: Summary Stats.Cycles: `" + cycles +
                                "` is not allowed; cycles must be a finite number >= 1"),
                 qPrintable(r.out));
        QVERIFY2(!r.out.contains("nan%") && !r.out.contains("inf%"), qPrintable(r.out));
    }

    // Item 4: Sparseloop problems with size-1 dimensions added up to 32 give the same result; the 33rd
    // is refused at the problem with the limit (a reference case of ../shared).
    void sparseloopSizeOneDimsKeepTheResult()
    {
        const QString source = SPARSEMAP_SOURCE_DIR "/../shared/reference/sparseloop/stc/WD-0.5/"
                                                    "M128-K1152-N1024-IAD0.44-WD0.5/DSTC-RF2x-24-bandwidth";
        if (!QDir(source).exists())
            QSKIP("../shared/reference/sparseloop is not there");
        const Run base = sparsemap({"evaluate", "--sparseloop", source});
        QCOMPARE(base.exitCode, 0);
        const double cycles = reported(base.out, "cycles");
        QVERIFY(cycles > 0);
        for (const int extra : {29, 30}) {
            QTemporaryDir dir;
            QVERIFY(copyTree(source, dir.path()));
            QFile f(dir.filePath("aggregated_input.yaml"));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QString text = QString::fromUtf8(f.readAll());
            f.close();
            QString dims, terms, sizes;
            for (int i = 0; i < extra; ++i) {
                dims += QString("    - X%1\n").arg(i);
                terms += QString("        - - X%1\n").arg(i);
                sizes += QString("    X%1: 1\n").arg(i);
            }
            const QString dimList = "    dimensions:\n    - M\n    - N\n    - K\n";
            const QString projection = "      projection:\n      - - - M\n      - - - K\n";
            QVERIFY(text.contains(dimList) && text.contains(projection) && text.contains("  instance:\n"));
            text.replace(dimList, dimList + dims);
            text.replace(text.indexOf(projection), projection.size(),
                         "      projection:\n      - - - M\n" + terms + "      - - - K\n");
            text.replace(text.indexOf("  instance:\n"), 12, "  instance:\n" + sizes);
            writeFile(dir.filePath("aggregated_input.yaml"), text.toUtf8());
            const Run r = sparsemap({"evaluate", "--sparseloop", dir.path()});
            if (extra == 29) { // 3 + 29 = 32 dimensions: the limit, same figures
                QCOMPARE(r.exitCode, 0);
                QCOMPARE(reported(r.out, "cycles"), cycles);
            } else {
                QCOMPARE(r.exitCode, 1);
                QVERIFY2(
                    r.err.contains("aggregated_input.yaml:") &&
                        r.err.contains("problem: a workload has 33 dimensions; at most 32 are supported"),
                    qPrintable(r.err));
            }
        }
    }

    // Issue 69 item 18: names with terminal control characters (ESC, BEL, CR) from the files are
    // printed escaped by `info` and `search` (as error messages already were): no raw control
    // character reaches the terminal, the escaped forms do.
    void controlCharactersInNamesAreEscaped()
    {
        QTemporaryDir dir;
        QByteArray workload = readAll(SPARSEMAP_SOURCE_DIR "/samples/workloads/toy.yaml");
        QByteArray arch = readAll(SPARSEMAP_SOURCE_DIR "/samples/arch/toy.yaml");
        QVERIFY(workload.contains("  name: toy\n") && arch.contains("- name: GLB\n"));
        workload.replace("  name: toy\n", "  name: \"t\\e]0;pwned\\a\\rX\"\n"); // YAML escapes
        arch.replace("- name: GLB\n", "- name: \"G\\e[2JL\\r\"\n");
        writeFile(dir.filePath("w.yaml"), workload);
        writeFile(dir.filePath("a.yaml"), arch);
        const Run info = sparsemap({"info", dir.filePath("w.yaml"), "--arch", dir.filePath("a.yaml")});
        const Run search = sparsemap({"search", "--workload", dir.filePath("w.yaml"), "--arch",
                                      dir.filePath("a.yaml"), "--budget", "200", "--threads", "1"});
        QCOMPARE(info.exitCode, 0);
        QCOMPARE(search.exitCode, 0);
        for (const Run* r : {&info, &search}) {
            const QString all = r->out + r->err;
            for (const QChar c : {QChar(0x1b), QChar(0x07), QChar('\r')})
                QVERIFY2(!all.contains(c),
                         qPrintable(QString("raw U+%1 in: ").arg(c.unicode(), 4, 16, QChar('0')) +
                                    all.toUtf8().toPercentEncoding(" \n:=()[]{}.,-_/*+>#%")));
            QVERIFY2(r->out.contains("G\\x1b[2JL\\r"), qPrintable(r->out)); // the level's name
        }
        QVERIFY2(info.out.contains("workload      t\\x1b]0;pwned\\x07\\rX (spmm)"), qPrintable(info.out));
    }
};

QTEST_GUILESS_MAIN(TestCliRobustness)
#include "test_cli_robustness.moc"
