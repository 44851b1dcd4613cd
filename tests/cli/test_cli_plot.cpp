// `sparsemap search --objective pareto` (the energy-delay front as CSV and design files, checked
// against a brute-force dominance test over points.csv) and `sparsemap plot` (figures of a run folder,
// a session file and a sweep folder written headless, checked by their file headers).
#include "cli_run.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {

using Run = clitest::CliRun;

Run sparsemap(const QStringList& args)
{
    return clitest::runSparsemap(args, 120000);
}

QStringList lines(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString(f.readAll()).split('\n', Qt::SkipEmptyParts);
}

QByteArray head(const QString& path, int n)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

} // namespace

class TestCliPlot : public QObject {
    Q_OBJECT
private slots:
    void paretoSearchWritesTheFront()
    {
        QTemporaryDir dir;
        const Run r = sparsemap({"search", "--workload", "samples/workloads/toy.yaml", "--arch",
                                 "samples/arch/toy.yaml", "--budget", "1500", "--seed", "4", "--objective",
                                 "pareto", "--max-energy-uj", "1e9", "--out", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("energy-delay front:"), qPrintable(r.out));
        QVERIFY2(r.out.contains("fastest design using at most"), qPrintable(r.out));

        // The front, recomputed by brute force from points.csv: the valid points no other valid point
        // beats on both cycles and energy (of identical twins, the first evaluated).
        struct P {
            long long index;
            double cycles, energy;
        };
        std::vector<P> valid;
        const QStringList points = lines(dir.filePath("points.csv"));
        QCOMPARE(points.size(), 1501);
        for (int i = 1; i < points.size(); ++i) {
            const QStringList f = points[i].split(',');
            if (f[2] == "1")
                valid.push_back({f[0].toLongLong(), f[4].toDouble(), f[5].toDouble()});
        }
        QVERIFY(!valid.empty());
        std::vector<long long> expected;
        for (const P& p : valid) {
            bool dominated = false;
            for (const P& q : valid) {
                const bool noWorse = q.cycles <= p.cycles && q.energy <= p.energy;
                const bool better = q.cycles < p.cycles || q.energy < p.energy;
                dominated = dominated || (noWorse && better) || (noWorse && !better && q.index < p.index);
            }
            if (!dominated)
                expected.push_back(p.index);
        }
        const QStringList front = lines(dir.filePath("front.csv"));
        QCOMPARE(front.first(), QString("rank,point,cycles,energy_pj,edp,design_file,genome"));
        std::vector<long long> got;
        double lastCycles = -1;
        for (int i = 1; i < front.size(); ++i) {
            const QStringList f = front[i].split(',');
            got.push_back(f[1].toLongLong());
            QVERIFY(f[2].toDouble() >= lastCycles); // fastest first
            lastCycles = f[2].toDouble();
            QVERIFY2(QFileInfo::exists(dir.filePath(f[5])), qPrintable(f[5]));
        }
        std::sort(got.begin(), got.end());
        std::sort(expected.begin(), expected.end());
        QCOMPARE(got, expected);
        // A front design file evaluates again.
        const QString first = front[1].split(',')[5];
        const Run again = sparsemap(
            {"evaluate", "samples/workloads/toy.yaml", "samples/arch/toy.yaml", dir.filePath(first)});
        QCOMPARE(again.exitCode, 0);

        const Run bad = sparsemap({"search", "--workload", "samples/workloads/toy.yaml", "--arch",
                                   "samples/arch/toy.yaml", "--max-energy-uj", "5"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--max-energy-uj needs --objective pareto"), qPrintable(bad.err));
    }

    void plotWritesFiguresOfRunsAndSweeps()
    {
        QTemporaryDir dir;
        const QString runA = dir.filePath("a"), runB = dir.filePath("b"), sweep = dir.filePath("sweep");
        for (const auto& [out, method] :
             {std::pair{runA, QString("sparsemap")}, std::pair{runB, QString("random")}}) {
            const Run r = sparsemap({"search", "--workload", "samples/workloads/toy.yaml", "--arch",
                                     "samples/arch/toy.yaml", "--method", method, "--budget", "800", "--seed",
                                     "2", "--out", out});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(QFileInfo::exists(out + "/run.session.yaml"));
        }
        const QString figures = dir.filePath("figures");
        const Run plot = sparsemap({"plot", "--out", figures, "--format", "png,svg,pdf", runA, runB});
        QVERIFY2(plot.exitCode == 0, qPrintable(plot.err));
        for (const QString stem :
             {"convergence", "valid-share", "convergence-generations", "pca-sparsemap-toy-toy-s2",
              "pareto-sparsemap-toy-toy-s2", "breakdown-sparsemap-toy-toy-s2", "pca-random-toy-toy-s2"}) {
            QVERIFY2(head(figures + "/" + stem + ".png", 8) == QByteArray("\x89PNG\r\n\x1a\n", 8),
                     qPrintable(stem));
            QVERIFY2(head(figures + "/" + stem + ".svg", 100).contains("<?xml"), qPrintable(stem));
            QVERIFY2(head(figures + "/" + stem + ".pdf", 5) == "%PDF-", qPrintable(stem));
        }
        QVERIFY2(plot.out.contains("wrote "), qPrintable(plot.out));

        const Run sweepRun = sparsemap({"sweep", "--workloads", "samples/workloads/toy.yaml", "--arch",
                                        "samples/arch/toy.yaml", "--methods", "sparsemap,random", "--seeds",
                                        "1", "--budget", "400", "--out", sweep});
        QCOMPARE(sweepRun.exitCode, 0);
        const Run plotSweep = sparsemap({"plot", "--out", figures, sweep});
        QVERIFY2(plotSweep.exitCode == 0, qPrintable(plotSweep.err));
        const QStringList sweepFigures = QDir(figures).entryList({"sweep-*.png"});
        QCOMPARE(sweepFigures.size(), 1);

        // Bad inputs: a clear message and a non-zero exit, no crash.
        const Run missing = sparsemap({"plot", dir.filePath("nothing-here")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("no such file or folder"), qPrintable(missing.err));
        const Run empty = sparsemap({"plot", dir.path()});
        QCOMPARE(empty.exitCode, 1);
        QVERIFY2(empty.err.contains("neither a run folder"), qPrintable(empty.err));
        const Run format = sparsemap({"plot", "--format", "jpg", runA});
        QCOMPARE(format.exitCode, 2);
        QVERIFY2(format.err.contains("--format takes png, svg and pdf"), qPrintable(format.err));
    }

    // Four run folders: their legends take two rows (the figure's empty legend cells once crashed
    // sparsemap-plot, 0 figures written). Every figure is written: the three of all runs, and per run
    // its design-space map, energy-delay front and breakdown, in every format.
    void plotWritesEveryFigureOfFourRuns()
    {
        QTemporaryDir dir;
        QStringList runs;
        for (const auto& [method, seed] :
             {std::pair{QString("sparsemap"), 1}, std::pair{QString("sparsemap"), 2},
              std::pair{QString("random"), 1}, std::pair{QString("sa"), 3}}) {
            const QString out = dir.filePath(QString("%1-%2").arg(method).arg(seed));
            const Run r = sparsemap({"search", "--workload", "samples/workloads/toy.yaml", "--arch",
                                     "samples/arch/toy.yaml", "--method", method, "--budget", "300", "--seed",
                                     QString::number(seed), "--out", out});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            runs << out;
        }
        const QString figures = dir.filePath("figures");
        const Run plot = sparsemap(QStringList{"plot", "--out", figures, "--format", "png,svg,pdf"} + runs);
        QVERIFY2(plot.exitCode == 0, qPrintable(plot.err));
        QVERIFY2(!plot.err.contains("crashed"), qPrintable(plot.err));
        for (const QString suffix : {"png", "svg", "pdf"}) {
            for (const QString stem : {"convergence", "valid-share", "convergence-generations"})
                QVERIFY2(QFileInfo(figures + "/" + stem + "." + suffix).size() > 1000, qPrintable(stem));
            // One of each per run, whatever the runs are named.
            for (const QString kind : {"pca-", "pareto-", "breakdown-"}) {
                const QStringList files = QDir(figures).entryList({kind + "*." + suffix});
                QVERIFY2(files.size() == 4, qPrintable(kind + suffix + ": " + files.join(", ")));
            }
        }
        QCOMPARE(QDir(figures).entryList(QDir::Files).size(), 3 * (3 + 4 * 3));
        // The objective's axis has its unit (it was a bare "edp").
        const QByteArray generations = head(figures + "/convergence-generations.svg", 4000000);
        QVERIFY(generations.contains("EDP (pJ"));
        QVERIFY(!generations.contains(">edp<"));
        for (const QString& png : QDir(figures).entryList({"*.png"}))
            QCOMPARE(head(figures + "/" + png, 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    }
};

QTEST_APPLESS_MAIN(TestCliPlot)
#include "test_cli_plot.moc"
