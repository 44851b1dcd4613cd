// core/sweep (with sweep/arch_override): the grid, the cell store, the summaries (worked by hand) and
// the architecture overrides of a sweep's hardware axis.
#include "sweep/arch_override.hpp"
#include "io/architecture_io.hpp"
#include "util/file_io.hpp"
#include "io/search_io.hpp"
#include "io/workload_io.hpp"
#include "sweep/sweep_run.hpp"
#include "sweep/sweep_summary.hpp"
#include "sample_inputs.hpp"
#include "test_support.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <set>

using namespace sparsemap;
using namespace sparsemap::sweep;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A cell whose curve is `early` for the first half of the checkpoints and `best` after.
CellResult cell(double best, double validShare, double early = -1)
{
    CellResult c;
    c.best = best;
    c.validShare = validShare;
    c.evaluations = 100;
    c.seconds = 0.5;
    for (int k = 0; k < kCheckpoints; ++k)
        c.curve.push_back(early > 0 && k < kCheckpoints / 2 ? early : best);
    return c;
}

CellIdentity identity()
{
    CellIdentity id;
    id.workload = "mm3";
    id.workloadHash = "fnv1a64:0000000000000001";
    id.architecture = "cloud[glb.capacity=64KB]";
    id.architectureHash = "fnv1a64:0000000000000002";
    id.method = "sparsemap";
    id.seed = 7;
    id.budget = 100;
    id.objective = "edp";
    id.padding = "large-prime";
    id.occupancyConfidence = 0.99;
    id.formatSpace = "dead";
    return id;
}

QString errorOf(const std::function<void()>& f)
{
    try {
        f();
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

SweepGrid toyGrid(std::vector<ArchAxis> axes, std::int64_t budget = 100,
                  search::Objective objective = search::Objective::Edp)
{
    SweepSettings settings;
    settings.budget = budget;
    settings.objective = objective;
    return SweepGrid({test::sampleWorkload("toy")},
                     {loadArchitectureFile(SPARSEMAP_SOURCE_DIR "/samples/arch/toy.yaml")}, axes,
                     {"random", "sa"}, {1, 2}, settings);
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT
private slots:
    // The sweep's CSVs quote labels holding commas (an override label); the plot reads them back.
    void csvLabelsRoundTrip()
    {
        const std::string label = "cloud[glb.capacity=64KB,pe.count=8x8]";
        const std::string quoted = "a \"b\", c";
        QCOMPARE(sparsemap::csvField(label), "\"" + label + "\"");
        const auto fields = sparsemap::splitCsvLine(sparsemap::csvField(label) + ",mm3," +
                                                    sparsemap::csvField(quoted) + ",20000,inf");
        QVERIFY(fields.has_value());
        const std::vector<std::string> expected{label, "mm3", quoted, "20000", "inf"};
        QCOMPARE(*fields, expected);
        QCOMPARE(sparsemap::splitCsvLine("a,,b")->size(), std::size_t(3));
        QVERIFY(!sparsemap::splitCsvLine("\"open,b").has_value());
    }

    void geometricMeanByHand()
    {
        const std::vector<double> a{2, 8}, b{1, 10, 100}, c{2, kInf}, none;
        QCOMPARE(*geometricMean(a), 4.0);
        QVERIFY(std::abs(*geometricMean(b) - 10.0) < 1e-12);
        QCOMPARE(*geometricMean(c), kInf);
        QVERIFY(!geometricMean(none));
        for (double bad : {0.0, -1.0, std::nan("")}) {
            const std::vector<double> v{2, bad};
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, geometricMean(v));
        }
    }

    // One architecture, workloads w1, w2, methods ref and m, two seeds:
    //   w1: ref 2, 8 -> 4; m 4, 16 -> 8 (ratio 2);  w2: ref 9, 1 -> 3; m 3, 3 -> 3 (ratio 1)
    //   ratio geomean sqrt(2 * 1) = 1.414; ref at least as good in both; valid shares ref 0.5, m 0.2.
    void tableIvFig17AndFig18ByHand()
    {
        SweepShape shape{{"A"}, {"w1", "w2"}, {"ref", "m"}, 2, 100, "edp", "", {11, 12}};
        std::vector<CellResult> results{cell(2, 0.5, 32), cell(8, 0.5),  cell(4, 0.1), cell(16, 0.3),
                                        cell(9, 0.25),    cell(1, 0.75), cell(3, 0.2), cell(3, 0.2)};
        results[3].sparseloopArtefact = "no occupancy for Z at L1"; // w1, m, the second seed (12)
        const SweepSummary s = summarizeSweep(shape, results);
        QCOMPARE(s.architectures.size(), std::size_t(1));
        const auto& a = s.architectures[0];
        QCOMPARE(a.best[0][0], 4.0);
        QCOMPARE(a.best[0][1], 8.0);
        QVERIFY(std::abs(a.best[1][0] - 3.0) < 1e-12);
        QVERIFY(std::abs(a.best[1][1] - 3.0) < 1e-12);
        QCOMPARE(a.comparisons.size(), std::size_t(1));
        QVERIFY(std::abs(*a.comparisons[0].ratioGeomean - std::sqrt(2.0)) < 1e-12);
        QCOMPARE(a.comparisons[0].referenceAtLeastAsGood, 2);
        QCOMPARE(a.comparisons[0].workloads, 2);
        QCOMPARE(a.validShare[0], 0.5);
        QVERIFY(std::abs(a.validShare[1] - 0.2) < 1e-12);
        // Fig. 18: w1/ref is sqrt(32 * 8) = 16 for the first 10 checkpoints, then sqrt(2 * 8) = 4.
        QCOMPARE(s.convergence[0][0][0][0], 16.0);
        QCOMPARE(s.convergence[0][0][0][9], 16.0);
        QCOMPARE(s.convergence[0][0][0][10], 4.0);
        const std::string md = summaryMarkdown(s);
        QVERIFY2(md.find("- m: geometric-mean ratio 1.41x; ref at least as good in 2 of 2 workloads") !=
                     std::string::npos,
                 md.c_str());
        QVERIFY2(md.find("| w1 | 4 | 8 |") != std::string::npos, md.c_str());
        QVERIFY2(md.find("| A | 50.0% | 20.0% |") != std::string::npos, md.c_str());
        QCOMPARE(s.artefacts, std::vector<std::string>{"A w1 m, seed(s) 12: no occupancy for Z at L1"});
        QVERIFY2(
            md.find("## Best designs that owe their figures to a Sparseloop artefact\n\n- A w1 m, seed(s) "
                    "12: no occupancy for Z at L1\n") != std::string::npos,
            md.c_str());
        const std::string a17 = fig17aCsv(s);
        QVERIFY2(a17.find("A,w1,ref,4,1\n") != std::string::npos, a17.c_str());
        const auto m1 = a17.find("A,w1,m,"); // 8 and its ratio 2, to rounding of the logarithms
        QVERIFY2(m1 != std::string::npos, a17.c_str());
        const QStringList row = QString::fromStdString(a17.substr(m1, a17.find('\n', m1) - m1)).split(',');
        QVERIFY(std::abs(row[3].toDouble() - 8) < 1e-12 && std::abs(row[4].toDouble() - 2) < 1e-12);
        QVERIFY2(fig17bCsv(s).find("A,ref,0.5\n") != std::string::npos, fig17bCsv(s).c_str());
        const std::string conv = convergenceCsv(s);
        QVERIFY2(conv.find("\nA,w1,ref,5,") != std::string::npos, conv.c_str()); // checkpoint 1: 100 * 1 / 20
        QVERIFY2(conv.find("\nA,w1,ref,100,") != std::string::npos, conv.c_str());
        QCOMPARE(std::count(conv.begin(), conv.end(), '\n'), std::ptrdiff_t(1 + 2 * 2 * kCheckpoints));
    }

    // A seed without a valid design: the cell's mean is "none valid", no ratio is taken from it, and the
    // reference counts as at least as good.
    void aSeedWithoutValidDesign()
    {
        SweepShape shape{{"A,B"}, {"w"}, {"ref", "m"}, 2, 100, "energy", "", {}};
        const std::vector<CellResult> results{cell(2, 0.5), cell(8, 0.5), cell(4, 0.1), cell(kInf, 0)};
        const SweepSummary s = summarizeSweep(shape, results);
        QCOMPARE(s.architectures[0].best[0][1], kInf);
        QVERIFY(!s.architectures[0].comparisons[0].ratioGeomean);
        QCOMPARE(s.architectures[0].comparisons[0].referenceAtLeastAsGood, 1);
        const std::string md = summaryMarkdown(s);
        QVERIFY2(md.find("| w | 4 | none valid |") != std::string::npos, md.c_str());
        QVERIFY2(md.find("no workload where both found a valid design") != std::string::npos, md.c_str());
        QVERIFY(s.artefacts.empty());
        QVERIFY2(md.find("artefact") == std::string::npos, md.c_str());
        QVERIFY2(fig17aCsv(s).find("\"A,B\",w,m,inf,\n") != std::string::npos,
                 fig17aCsv(s).c_str()); // quoted label
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, summarizeSweep(shape, std::span(results).first(3)));
    }

    void cellFileRoundTrips()
    {
        CellResult c = cell(1.25e-7, 0.3, kInf);
        c.seconds = 0.1 + 0.2; // not exactly representable in short decimal forms
        const std::string text = formatCell(identity(), c);
        QCOMPARE(parseCell(text, "x.cell", identity()), c);
        QVERIFY(text.find("sparseloop_artefact") == std::string::npos); // written only when there is one
        c.sparseloopArtefact = "Sparseloop sees no occupancy for Z at PE buffer (wraps around 2^64): ...";
        const std::string flagged = formatCell(identity(), c);
        QVERIFY(flagged.find("\nsparseloop_artefact: Sparseloop sees no occupancy for Z") !=
                std::string::npos);
        QCOMPARE(parseCell(flagged, "x.cell", identity()), c);
    }

    void badCellsAreClearErrors_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("negative best") << "best: 1.25e-07"
                                       << "best: -5"
                                       << "x.cell:14:7: best: `-5` is not allowed";
        QTest::newRow("nan best") << "best: 1.25e-07"
                                  << "best: nan"
                                  << "best: `nan` is not allowed";
        QTest::newRow("zero best") << "best: 1.25e-07"
                                   << "best: 0"
                                   << "expected a positive number, or `inf`";
        QTest::newRow("garbage") << "valid_share: 0.3"
                                 << "valid_share: lots"
                                 << "valid_share: `lots`";
        QTest::newRow("share above 1") << "valid_share: 0.3"
                                       << "valid_share: 1.5"
                                       << "[0, 1]";
        QTest::newRow("infinite seconds") << "seconds: 0.5"
                                          << "seconds: inf"
                                          << "seconds: `inf` is not allowed";
        QTest::newRow("short curve") << "1.25e-07 1.25e-07\n"
                                     << "1.25e-07\n"
                                     << "has 19 values; expected 20";
        QTest::newRow("rising curve") << "curve: inf"
                                      << "curve: 1"
                                      << "must not increase";
        QTest::newRow("truncated") << "evaluations: 100"
                                   << ""
                                   << "evaluations: missing";
        QTest::newRow("other format") << "sparsemap-sweep-cell 2"
                                      << "sparsemap-sweep-cell 1"
                                      << "this program reads";
        QTest::newRow("other budget")
            << "budget: 100"
            << "budget: 5000"
            << "budget: is `5000` but this sweep has `100`: the folder holds a different sweep";
        QTest::newRow("other format space") << "format_space: dead"
                                            << "format_space: nearest"
                                            << "format_space: is `nearest` but this sweep has `dead`";
        QTest::newRow("other objective") << "objective: edp"
                                         << "objective: energy"
                                         << "objective: is `energy`";
        QTest::newRow("other architecture") << "fnv1a64:0000000000000002"
                                            << "fnv1a64:00000000000000ff"
                                            << "architecture_hash: is";
        QTest::newRow("other padding") << "padding: large-prime"
                                       << "padding: none"
                                       << "padding: is `none`";
    }
    void badCellsAreClearErrors()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, fragment);
        std::string text = formatCell(identity(), cell(1.25e-7, 0.3, kInf));
        const auto at = text.find(from.toStdString());
        QVERIFY2(at != std::string::npos, text.c_str());
        text.replace(at, from.size(), to.toStdString());
        const QString error = errorOf([&] { parseCell(text, "x.cell", identity()); });
        QVERIFY2(error.contains(fragment), qPrintable(error));
        QVERIFY2(error.contains("x.cell"), qPrintable(error));
    }

    void overridesChangeWhatTheySay()
    {
        const Architecture cloud = loadPreset("cloud"); // GLB 64 MB; 32x32 PEs of 8x8 MACs
        const std::vector<ArchOverride> o{{"glb.capacity", "64KB"},
                                          {"pe.count", "8x8"},
                                          {"pe_buffer.read_bandwidth", "16"},
                                          {"DRAM.bandwidth", "32"},
                                          {"clock_ghz", "2"}};
        const Architecture a = applyArchOverrides(cloud, o);
        QCOMPARE(a.levels[1].capacityBits, std::int64_t(64) * 1024 * 8);
        QCOMPARE(a.levels[2].instances, std::int64_t(64));
        QCOMPARE(a.levels[2].meshX, std::int64_t(8));
        QCOMPARE(a.compute.instances, std::int64_t(64 * 64)); // each PE keeps its 64 MACs
        QCOMPARE(a.compute.meshX, std::int64_t(64));          // 8 MAC columns per PE column
        QCOMPARE(a.levels[2].readBandwidth, 16.0);
        QCOMPARE(a.levels[2].writeBandwidth, cloud.levels[2].writeBandwidth);
        QCOMPARE(a.levels[0].readBandwidth, 32.0);
        QCOMPARE(a.levels[0].writeBandwidth, 32.0);
        QCOMPARE(a.clockGHz, 2.0);
        QCOMPARE(a.name, cloud.name);
        // A plain count leaves the grids to the default; the MACs per PE stay.
        const std::vector<ArchOverride> plain{{"PE Buffer.instances", "100"}};
        const Architecture b = applyArchOverrides(cloud, plain);
        QCOMPARE(b.levels[2].instances, std::int64_t(100));
        QCOMPARE(b.compute.instances, std::int64_t(6400));
        QCOMPARE(b.compute.meshX, std::int64_t(0));
        QCOMPARE(archOverrideLabel(o),
                 std::string("glb.capacity=64KB,pe.count=8x8,pe_buffer.read_bandwidth=16,"
                             "DRAM.bandwidth=32,clock_ghz=2"));
    }

    void badOverridesAreClearErrors_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("unknown unit") << "sram.capacity"
                                      << "1KB"
                                      << "no unit `sram` in architecture cloud";
        QTest::newRow("unknown attribute") << "glb.size"
                                           << "1KB"
                                           << "unknown attribute `size`";
        QTest::newRow("no attribute") << "glb"
                                      << "1KB"
                                      << "a path is <unit>.<attribute>";
        QTest::newRow("zero count") << "pe.count"
                                    << "0"
                                    << "a count must be a positive integer";
        QTest::newRow("half a grid") << "pe.count"
                                     << "8x"
                                     << "a count must be a positive integer";
        QTest::newRow("negative capacity") << "glb.capacity"
                                           << "-1KB"
                                           << "--vary glb.capacity=-1KB";
        QTest::newRow("negative bandwidth") << "glb.bandwidth"
                                            << "-3"
                                            << "--vary glb.bandwidth=-3";
        QTest::newRow("nan clock") << "clock_ghz"
                                   << "nan"
                                   << "positive number of GHz";
        QTest::newRow("huge count") << "glb.count"
                                    << "4294967296x4294967296"
                                    << "a count must be";
        QTest::newRow("overflowing count") << "glb.count"
                                           << "1000000000"
                                           << "exceed 2^40";
        QTest::newRow("inconsistent") << "compute.count"
                                      << "1000"
                                      << "architecture cloud with compute.count=1000";
        QTest::newRow("compute capacity") << "mac.capacity"
                                          << "1KB"
                                          << "the compute's attributes";
    }
    void badOverridesAreClearErrors()
    {
        QFETCH(QString, path);
        QFETCH(QString, value);
        QFETCH(QString, fragment);
        const std::vector<ArchOverride> o{{path.toStdString(), value.toStdString()}};
        const QString error = errorOf([&] { applyArchOverrides(loadPreset("cloud"), o); });
        QVERIFY2(error.contains(fragment), qPrintable(error));
    }

    void axesParse()
    {
        const ArchAxis a = parseArchAxis("glb.capacity=64KB, 128KB,256KB");
        QCOMPARE(a.path, std::string("glb.capacity"));
        QCOMPARE(a.values, (std::vector<std::string>{"64KB", "128KB", "256KB"}));
        QVERIFY(errorOf([] { parseArchAxis("glb.capacity"); }).contains("expected path=value1,value2"));
        QVERIFY(errorOf([] { parseArchAxis("glb.capacity=1KB,,2KB"); }).contains("an empty value"));
        QVERIFY(errorOf([] { parseArchAxis("glb.capacity=1KB,1KB"); }).contains("listed twice"));
    }

    void gridEnumeratesEveryCombination()
    {
        const SweepGrid g = toyGrid({parseArchAxis("glb.capacity=512B,1KB"), parseArchAxis("pe.count=2,4")});
        // 4 architecture variants x 1 workload x 2 methods x 2 seeds.
        QCOMPARE(g.cellCount(), std::size_t(16));
        QCOMPARE(g.architectures().size(), std::size_t(4));
        QCOMPARE(g.architectures()[1].label, std::string("toy[glb.capacity=512B,pe.count=4]"));
        QCOMPARE(g.architectures()[2].arch.levels[1].capacityBits, std::int64_t(8192));
        std::set<std::string> files, hashes;
        for (std::size_t i = 0; i < g.cellCount(); ++i) {
            QCOMPARE(g.cellIndex(g.cell(i)), i);
            files.insert(g.cellFileName(i));
        }
        for (const auto& a : g.architectures())
            hashes.insert(a.hash);
        QCOMPARE(files.size(), std::size_t(16));
        QCOMPARE(hashes.size(), std::size_t(4));
        const CellIdentity id = g.identity(5); // architecture 1, workload 0, method 0 (random), seed 1 (= 2)
        QCOMPARE(id.architecture, g.architectures()[1].label);
        QCOMPARE(id.method, std::string("random"));
        QCOMPARE(id.seed, std::uint64_t(2));
        QCOMPARE(id.budget, std::int64_t(100));
        // `[` and `]` are not kept: the safe characters, then `~` and FNV-1a 64 of the label's first 8
        // hex digits (python: 4c80c125...); the name of earlier releases is still known.
        QCOMPARE(g.cellFileName(5),
                 std::string("toy_glb.capacity=512B,pe.count=4~4c80c125__toy__random__seed2.cell"));
        QCOMPARE(g.legacyCellFileName(5),
                 std::string("toy_glb.capacity=512B,pe.count=4___toy__random__seed2.cell"));
        QVERIFY(errorOf([] {
                    SweepGrid({test::sampleWorkload("toy")}, {loadPreset("edge")}, {}, {"sparsemap", "nope"},
                              {1}, {});
                }).contains("unknown method 'nope'"));
    }

    void folderRefusesAnotherSweep()
    {
        QTemporaryDir dir;
        const std::string out = dir.path().toStdString() + "/run";
        const SweepGrid g = toyGrid({});
        {
            const SweepFolder folder(out, g);
            QVERIFY(!folder.load(0));
            folder.store(0, formatCell(g.identity(0), cell(3, 0.5)));
            QCOMPARE(folder.load(0)->best, 3.0);
        }
        const std::string manifest = readTextFile(out + "/sweep.txt");
        const SweepGrid other = toyGrid({}, 100, search::Objective::Energy);
        const QString error = errorOf([&] { SweepFolder(out, other); });
        QVERIFY2(error.contains("sweep.txt:4:1") && error.contains("`objective: edp` where this sweep has "
                                                                   "`objective: energy`"),
                 qPrintable(error));
        QCOMPARE(readTextFile(out + "/sweep.txt"), manifest); // nothing changed
        // A folder with other files is not taken over.
        std::filesystem::create_directories(dir.path().toStdString() + "/other");
        writeTextFileAtomically(dir.path().toStdString() + "/other/notes.txt", "mine");
        QVERIFY(
            errorOf([&] { SweepFolder(dir.path().toStdString() + "/other", g); }).contains("holds no sweep"));
        // A folder of an earlier release: a cell under its old name is reused when it is this cell's,
        // and not when it is another's (old names were not unique).
        {
            const SweepGrid varied = toyGrid({parseArchAxis("glb.capacity=512B,1KB")});
            const std::string old = dir.path().toStdString() + "/old";
            const SweepFolder folder(old, varied);
            QVERIFY(varied.legacyCellFileName(0) != varied.cellFileName(0));
            writeTextFileAtomically(old + "/cells/" + varied.legacyCellFileName(0),
                                    formatCell(varied.identity(0), cell(3, 0.5)));
            QCOMPARE(folder.load(0)->best, 3.0);
            writeTextFileAtomically(old + "/cells/" + varied.legacyCellFileName(1),
                                    formatCell(varied.identity(0), cell(3, 0.5)));
            QVERIFY(!folder.load(1));
        }
        // A cell of another sweep copied in is refused by its identity.
        writeTextFileAtomically(out + "/cells/" + g.cellFileName(1), formatCell(g.identity(0), cell(3, 0.5)));
        QVERIFY(
            errorOf([&] { SweepFolder(out, g).load(1); }).contains("seed: is `1` but this sweep has `2`"));
    }
};

QTEST_APPLESS_MAIN(TestSweep)
#include "test_sweep.moc"
