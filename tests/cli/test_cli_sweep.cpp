// `sparsemap sweep` as a user runs it: resuming, refusing a folder of another sweep, bad input, a killed
// run resumed to the same summaries, the --vary hardware axis, and (when built with MPI) `mpirun -n 3`
// giving byte-identical summaries to a single process.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

QProcessEnvironment mpiEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // CI runs as root in a container without ssh: allow root, keep every rank on this machine.
    env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    env.insert("OMPI_MCA_rmaps_base_oversubscribe", "1");
    env.insert("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    return env;
}

void start(QProcess& p, const QStringList& args, int ranks)
{
    p.setWorkingDirectory(SPARSEMAP_SOURCE_DIR);
    if (ranks == 0) {
        p.start(SPARSEMAP_CLI, args);
        return;
    }
#ifdef SPARSEMAP_MPIEXEC
    p.setProcessEnvironment(mpiEnvironment());
    p.start(SPARSEMAP_MPIEXEC,
            QStringList{"--oversubscribe", "-n", QString::number(ranks), SPARSEMAP_CLI} + args);
#endif
}

// ranks 0: the plain program; N: under mpirun -n N.
Run sparsemap(const QStringList& args, int ranks = 0)
{
    QProcess p;
    start(p, args, ranks);
    if (!p.waitForFinished(180000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

QByteArray contents(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(missing " + path.toUtf8() + ")");
}

int cellFiles(const QString& dir)
{
    return static_cast<int>(QDir(dir + "/cells").entryList({"*.cell"}, QDir::Files).size());
}

// Every summary of two sweep folders is byte-identical.
void compareSummaries(const QString& a, const QString& b)
{
    for (const char* name : {"summary.md", "fig17a.csv", "fig17b.csv", "convergence.csv", "sweep.txt"})
        QCOMPARE(contents(a + "/" + name), contents(b + "/" + name));
}

// Cell files agree on everything but the time a search took.
void compareCells(const QString& a, const QString& b)
{
    const QStringList names = QDir(a + "/cells").entryList({"*.cell"}, QDir::Files, QDir::Name);
    QCOMPARE(QDir(b + "/cells").entryList({"*.cell"}, QDir::Files, QDir::Name), names);
    for (const auto& n : names) {
        auto strip = [](QByteArray text) {
            QList<QByteArray> lines = text.split('\n');
            lines.removeIf([](const QByteArray& l) { return l.startsWith("seconds:"); });
            return lines.join('\n');
        };
        QCOMPARE(strip(contents(a + "/cells/" + n)), strip(contents(b + "/cells/" + n)));
    }
}

const QStringList kSmall{"sweep",
                         "--workloads",
                         "samples/workloads/toy.yaml",
                         "--arch",
                         "samples/arch/toy.yaml",
                         "--methods",
                         "sparsemap,random",
                         "--seeds",
                         "1,2",
                         "--budget",
                         "500",
                         "--threads",
                         "1"};

// Larger cells, so that a run can be killed part-way: 2 architectures x 2 workloads x 2 methods x 2 seeds =
// 16 cells of 20,000 evaluations.
const QStringList kSlow{"sweep",
                        "--workloads",
                        "samples/workloads/toy.yaml,samples/workloads/spmm-32x64x48.yaml",
                        "--arch",
                        "samples/arch/toy.yaml",
                        "--vary",
                        "glb.capacity=1KB,2KB",
                        "--methods",
                        "sparsemap,random",
                        "--seeds",
                        "1,2",
                        "--budget",
                        "80000", // slow enough to kill part way (dead designs evaluate fast)
                        "--threads",
                        "1"};

// Starts the sweep, kills it once `atLeast` cells are stored, and returns how many were.
int killPartWay(const QStringList& args, const QString& out, int ranks, int atLeast)
{
    QProcess p;
    start(p, args + QStringList{"--out", out}, ranks);
    if (!p.waitForStarted(10000))
        return -1;
    QElapsedTimer t;
    t.start();
    while (cellFiles(out) < atLeast && p.state() == QProcess::Running && t.elapsed() < 120000)
        QThread::msleep(10);
    if (ranks == 0)
        p.kill(); // SIGKILL: nothing in the program gets to clean up
    else
        p.terminate(); // mpirun takes its ranks down with it (SIGKILL would orphan them)
    p.waitForFinished(30000);
    return cellFiles(out);
}

} // namespace

class TestCliSweep : public QObject {
    Q_OBJECT
private slots:
    void resumesAndRefusesAnotherSweep()
    {
        QTemporaryDir dir;
        const QStringList args = kSmall + QStringList{"--out", dir.path()};
        const Run first = sparsemap(args);
        QCOMPARE(first.exitCode, 0);
        QVERIFY2(first.out.contains("random: geometric-mean ratio"), qPrintable(first.out));
        QVERIFY2(first.out.contains("4 cells: 4 run, 0 reused"), qPrintable(first.out));
        QCOMPARE(cellFiles(dir.path()), 4);
        const QByteArray summary = contents(dir.filePath("summary.md"));
        const Run second = sparsemap(args);
        QCOMPARE(second.exitCode, 0);
        QVERIFY2(second.out.contains("4 cells: 0 run, 4 reused"), qPrintable(second.out));
        QCOMPARE(contents(dir.filePath("summary.md")), summary);

        // Issue 14.5: another objective or budget in the same folder is refused, nothing is touched.
        const QByteArray manifest = contents(dir.filePath("sweep.txt"));
        const Run other =
            sparsemap(kSmall + QStringList{"--objective", "energy", "--budget", "5000", "--out", dir.path()});
        QCOMPARE(other.exitCode, 1);
        QVERIFY2(other.err.contains(
                     "sweep.txt:3:1: this folder holds another sweep (`budget: 500` where this sweep "
                     "has `budget: 5000`)"),
                 qPrintable(other.err));
        QCOMPARE(contents(dir.filePath("summary.md")), summary);
        QCOMPARE(contents(dir.filePath("sweep.txt")), manifest);
        QCOMPARE(cellFiles(dir.path()), 4);
    }

    void corruptCellIsAClearError()
    {
        QTemporaryDir dir;
        const QStringList args = kSmall + QStringList{"--out", dir.path()};
        QCOMPARE(sparsemap(args).exitCode, 0);
        const QString cell = dir.filePath("cells/toy__toy__random__seed1.cell");
        QByteArray text = contents(cell);
        const qsizetype at = text.indexOf("valid_share: ");
        QVERIFY(at > 0);
        text.insert(at + 13, '-');
        QFile f(cell);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
        f.close();
        const QByteArray summary = contents(dir.filePath("summary.md"));
        const Run r = sparsemap(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(cell + ":15:14: valid_share: `-") &&
                     r.err.contains("is not allowed: expected a number in [0, 1]"),
                 qPrintable(r.err));
        QVERIFY(!r.err.contains("nan") && !r.err.contains("stod"));
        QCOMPARE(contents(dir.filePath("summary.md")), summary);
    }

    void badInputIsAClearError_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("unknown method")
            << QStringList{"--methods", "sparsemap,nope"} << 2 << "--methods must be one of";
        QTest::newRow("unknown preset") << QStringList{"--arch", "datacenter"} << 1 << "datacenter";
        QTest::newRow("unknown override") << QStringList{"--vary", "sram.capacity=1KB"} << 1
                                          << "--vary sram.capacity=1KB: no unit `sram` in architecture toy";
        QTest::newRow("bad override value") << QStringList{"--vary", "pe.count=4,0"} << 1
                                            << "--vary pe.count=0: a count must be a positive integer";
        QTest::newRow("override without values")
            << QStringList{"--vary", "glb.capacity"} << 1 << "expected path=value1,value2";
        QTest::newRow("bad objective") << QStringList{"--objective", "speed"} << 2 << "--objective must be";
    }
    void badInputIsAClearError()
    {
        QFETCH(QStringList, extra);
        QFETCH(int, exitCode);
        QFETCH(QString, fragment);
        QTemporaryDir dir;
        const Run r = sparsemap(kSmall + extra + QStringList{"--out", dir.filePath("run")});
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(fragment), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir.filePath("run"))); // nothing written
    }

    void variesTheHardware()
    {
        QTemporaryDir dir;
        const Run r = sparsemap(kSmall + QStringList{"--vary", "glb.capacity=512B,1KB", "--vary",
                                                     "pe.count=2,4", "--seeds", "1", "--out", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("8 cells: 8 run"), qPrintable(r.out));
        for (const char* label :
             {"## toy[glb.capacity=512B,pe.count=2]", "## toy[glb.capacity=1KB,pe.count=4]"})
            QVERIFY2(r.out.contains(label), qPrintable(r.out));
        QVERIFY(
            contents(dir.filePath("fig17b.csv")).contains("\"toy[glb.capacity=1KB,pe.count=2]\",random,"));
    }

    // Issue 69 item 15: workloads whose names differ only in characters a file name cannot hold
    // (`x/y`, `x y`, `x__y` and `x_y`) each get their own cell file; a rerun reuses all four.
    void lossyNamesGetTheirOwnCells()
    {
        QTemporaryDir dir;
        const QStringList names{"x/y", "x_y", "x y", "x__y"};
        QStringList files;
        for (int i = 0; i < names.size(); ++i) {
            files << dir.filePath(QString("w%1.yaml").arg(i));
            QFile f(files.back());
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("version: 1\nworkload:\n  name: \"" + names[i].toUtf8() +
                    "\"\n  type: spmm\n  M: 4\n  K: 8\n  N: 4\n  density: {P: 0.5, Q: 0.5}\n");
        }
        const QString out = dir.filePath("run");
        const QStringList args{"sweep",
                               "--workloads",
                               files.join(','),
                               "--arch",
                               "samples/arch/toy.yaml",
                               "--methods",
                               "random",
                               "--seeds",
                               "1",
                               "--budget",
                               "50",
                               "--threads",
                               "1",
                               "--out",
                               out};
        const Run first = sparsemap(args);
        QCOMPARE(first.exitCode, 0);
        QVERIFY2(first.out.contains("4 cells: 4 run, 0 reused"), qPrintable(first.out));
        // The names as docs/file-formats.md gives them: kept when safe, else the safe characters, `~`
        // and the first 8 hex digits of FNV-1a 64 of the name (worked out apart from the program).
        const QStringList expected{"toy__x_y__random__seed1.cell", "toy__x_y~0aa75454__random__seed1.cell",
                                   "toy__x_y~beccb119__random__seed1.cell",
                                   "toy__x_y~becfa919__random__seed1.cell"};
        QStringList found = QDir(out + "/cells").entryList({"*.cell"}, QDir::Files, QDir::NoSort);
        found.sort();
        QCOMPARE(found, expected);
        const QString owner[] = {"x_y", "x__y", "x y", "x/y"};
        for (int i = 0; i < 4; ++i)
            QVERIFY2(
                contents(out + "/cells/" + expected[i]).contains("\nworkload: " + owner[i].toUtf8() + "\n"),
                qPrintable(expected[i]));
        const Run second = sparsemap(args);
        QCOMPARE(second.exitCode, 0);
        QVERIFY2(second.out.contains("4 cells: 0 run, 4 reused"), qPrintable(second.out + second.err));
    }

    // Issue 69 item 21: `--vary glb.capacity` on levels `GLB` and `glb` (names compare ignoring case)
    // is ambiguous: an error naming both, instead of changing the last.
    void ambiguousVaryPathIsAnError()
    {
        QTemporaryDir dir;
        QByteArray arch = contents(QString(SPARSEMAP_SOURCE_DIR) + "/samples/arch/toy.yaml");
        QVERIFY(arch.contains("- name: PE buffer"));
        arch.replace("- name: PE buffer", "- name: glb");
        QFile f(dir.filePath("two-glbs.yaml"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(arch);
        f.close();
        const Run r = sparsemap({"sweep", "--workloads", "samples/workloads/toy.yaml", "--arch",
                                 dir.filePath("two-glbs.yaml"), "--vary", "glb.capacity=32B,64B", "--methods",
                                 "random", "--seeds", "1", "--budget", "50", "--out", dir.filePath("run")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--vary glb.capacity=32B: `glb` is ambiguous in architecture toy: it names "
                                "`GLB` and `glb`"),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir.filePath("run")));
    }

    void killedRunResumesToTheSameSummaries()
    {
        QTemporaryDir dir;
        const QString whole = dir.filePath("whole"), killed = dir.filePath("killed");
        QCOMPARE(sparsemap(kSlow + QStringList{"--out", whole}).exitCode, 0);
        const int kept = killPartWay(kSlow, killed, 0, 2);
        QVERIFY2(kept >= 2 && kept < 16, qPrintable(QString::number(kept)));
        QVERIFY(!QFileInfo::exists(killed + "/summary.md"));
        const Run resumed = sparsemap(kSlow + QStringList{"--out", killed});
        QCOMPARE(resumed.exitCode, 0);
        QVERIFY2(resumed.out.contains(QString("16 cells: %1 run, %2 reused").arg(16 - kept).arg(kept)),
                 qPrintable(QString::number(kept) + " kept; " + resumed.out.right(300)));
        compareSummaries(whole, killed);
        compareCells(whole, killed);
    }

    void mpiGivesTheSingleProcessResults()
    {
#ifndef SPARSEMAP_MPIEXEC
        QSKIP("built without MPI");
#else
        QTemporaryDir dir;
        const QString single = dir.filePath("single"), mpi = dir.filePath("mpi");
        const QStringList args = kSmall + QStringList{"--vary", "pe.count=2,4"};
        const Run one = sparsemap(args + QStringList{"--out", single});
        QCOMPARE(one.exitCode, 0);
        const Run three = sparsemap(args + QStringList{"--out", mpi}, 3);
        QVERIFY2(three.exitCode == 0, qPrintable(three.err));
        QVERIFY2(three.out.contains("8 cells: 8 run, 0 reused") && three.out.contains("on 2 worker ranks"),
                 qPrintable(three.out));
        QVERIFY2(three.out.contains("(rank 1)") && three.out.contains("(rank 2)"), qPrintable(three.out));
        compareSummaries(single, mpi);
        compareCells(single, mpi);
        // Resumed under MPI: nothing to run.
        const Run again = sparsemap(args + QStringList{"--out", mpi}, 3);
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("8 cells: 0 run, 8 reused"), qPrintable(again.out));
#endif
    }

    void mpiKilledJobResumes()
    {
#ifndef SPARSEMAP_MPIEXEC
        QSKIP("built without MPI");
#else
        QTemporaryDir dir;
        const QString whole = dir.filePath("whole"), killed = dir.filePath("killed");
        QCOMPARE(sparsemap(kSlow + QStringList{"--out", whole}).exitCode, 0);
        const int kept = killPartWay(kSlow, killed, 3, 2);
        QVERIFY2(kept >= 2 && kept < 16, qPrintable(QString::number(kept)));
        const Run resumed = sparsemap(kSlow + QStringList{"--out", killed}, 3);
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.out.contains(QString("16 cells: %1 run, %2 reused").arg(16 - kept).arg(kept)),
                 qPrintable(QString::number(kept) + " kept; " + resumed.out.right(300)));
        compareSummaries(whole, killed);
        compareCells(whole, killed);
#endif
    }

    void mpiMoreRanksThanCellsIsAnError()
    {
#ifndef SPARSEMAP_MPIEXEC
        QSKIP("built without MPI");
#else
        QTemporaryDir dir;
        // 2 cells; rank 0 hands them out, so 3 ranks is the most that can be used.
        const Run r = sparsemap({"sweep", "--workloads", "samples/workloads/toy.yaml", "--arch",
                                 "samples/arch/toy.yaml", "--methods", "random", "--seeds", "1,2", "--budget",
                                 "100", "--out", dir.filePath("run")},
                                4);
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("4 ranks for a grid of 2 cells") && r.err.count("4 ranks for a grid") == 1,
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir.filePath("run")));
#endif
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "test_cli_sweep.moc"
