// Issue 14: no input can corrupt memory, overflow silently, or make a "valid" design with zero cycles.
// Every expected value is worked out by hand in the comment next to it: a level that moves W words over
// a bandwidth of B words/cycle takes at least W / B cycles, limits are those of util/limits.hpp.
#include "arch/architecture.hpp"
#include "cgra/sparse_block.hpp"
#include "genome/genome_layout.hpp"
#include "io/architecture_io.hpp"
#include "io/nonzero_pattern_io.hpp"
#include "util/file_io.hpp"
#include "io/sparseloop/sparseloop_stats.hpp"
#include "model/evaluator.hpp"
#include "model/genome_evaluator.hpp"
#include "model/microarch/level_costs.hpp"
#include "search/method_registry.hpp"
#include "search/optimizer.hpp"
#include "util/error.hpp"
#include "util/limits.hpp"
#include "util/text.hpp"
#include "workload/workload_factory.hpp"

#include "model_fixtures.hpp"

#include <QtTest>

#include <cmath>

using namespace sparsemap;

namespace {

bool mentions(const std::vector<std::string>& problems, const std::string& fragment)
{
    for (const auto& p : problems)
        if (p.find(fragment) != std::string::npos)
            return true;
    return false;
}

template <typename F> std::string inputErrorOf(F&& f)
{
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

model::TensorLevelResult keptTensor(double reads, double fills)
{
    model::TensorLevelResult t;
    t.kept = true;
    t.reads.actual = reads;
    t.fills.actual = fills;
    return t;
}

} // namespace

class TestRobustness : public QObject {
    Q_OBJECT
private slots:
    // Item 2: with 0 compute cycles the traffic used to be ignored (cycles 0, EDP 0).
    void levelWithoutComputeStillTakesWordsOverBandwidth()
    {
        StorageLevel spec;
        spec.name = "DRAM";
        spec.readBandwidth = 4;  // words/cycle
        spec.writeBandwidth = 2; // words/cycle
        model::LevelResult level;
        level.tensors = {keptTensor(100, 10)};
        model::computeLevelCycles(spec, 0, level);
        // reads 100 / 4 = 25 cycles; fills 10 / 2 = 5 cycles; the level needs the longer: 25.
        QCOMPARE(level.cycles, 25.0);
        QCOMPARE(level.readWordsPerCycle, 4.0);

        level.tensors = {keptTensor(7, 0)};
        model::computeLevelCycles(spec, 0, level);
        QCOMPARE(level.cycles, 2.0); // 7 / 4 = 1.75 -> 2 whole cycles

        spec.readBandwidth = spec.writeBandwidth = 0; // unlimited: moving any data still takes a cycle
        model::computeLevelCycles(spec, 0, level);
        QCOMPARE(level.cycles, 1.0);

        level.tensors = {keptTensor(0, 0)}; // nothing moves: no time
        model::computeLevelCycles(spec, 0, level);
        QCOMPARE(level.cycles, 0.0);
    }

    void levelWithComputeIsUnchanged()
    {
        StorageLevel spec;
        spec.readBandwidth = 4;
        model::LevelResult level;
        level.tensors = {keptTensor(100, 0)};
        model::computeLevelCycles(spec, 10, level); // demand 10 words/cycle on 4: 10 / (4 / 10) = 25
        QCOMPARE(level.cycles, 25.0);
        model::computeLevelCycles(spec, 40, level); // demand 2.5 <= 4: not throttled, 40 cycles
        QCOMPARE(level.cycles, 40.0);
    }

    // Item 2 end to end: densities so low that no nonzero is expected (the Q: 1e-7 on mm5,
    // 1e-20) leave compute cycles at 0; every valid design must still take >= W / B cycles at every
    // level and >= 1 cycle when it moves data.
    void sparseDesignsTakeTheirTrafficTime_data()
    {
        QTest::addColumn<double>("density");
        QTest::newRow("1e-7") << 1e-7;
        QTest::newRow("1e-20") << 1e-20;
        QTest::newRow("1e-300") << 1e-300;
    }
    void sparseDesignsTakeTheirTrafficTime()
    {
        QFETCH(double, density);
        const Workload w = makeSpmm("thin", 64, 128, 64, uniformDensity(0.5), uniformDensity(density));
        const GenomeLayout layout(w, loadPreset("edge"));
        // The designs a search meets (most random genomes are invalid on edge).
        auto optimizer = search::makeOptimizer("sparsemap");
        search::SearchSettings settings;
        settings.budget = 2000;
        settings.seed = 7;
        settings.threads = 1;
        const auto run = search::runSearch(*optimizer, layout, settings);
        model::GenomeEvaluator evaluator(layout);
        int valid = 0;
        for (const auto& point : run.points) {
            if (!point.valid)
                continue;
            ++valid;
            const auto& r = evaluator.evaluate(point.genome.toGenome());
            QVERIFY(r.valid);
            QVERIFY(std::isfinite(r.edp));
            for (std::size_t s = 0; s < r.levels.size(); ++s) {
                const auto& level = r.levels[s];
                const auto& spec = layout.architecture().levels[s];
                // Words per instance of the level: a tensor held by fewer instances than the level's
                // peak spreads over the peak (Timeloop's average / peak instances), hence the weight.
                double read = 0, written = 0;
                for (const auto& t : level.tensors)
                    if (t.kept || t.streamed) {
                        const double share =
                            t.instances > 0 && level.maxInstances > 0 ? t.instances / level.maxInstances : 1;
                        read += (t.reads.actual + t.reads.gated) * share;
                        written +=
                            (t.fills.actual + t.fills.gated + t.updates.actual + t.updates.gated) * share;
                    }
                // The level's cycles cover those words over its bandwidth (the rounding up per tensor in
                // computeLevelCycles only adds).
                if (spec.readBandwidth > 0)
                    QVERIFY(level.cycles >= std::floor(read / spec.readBandwidth * (1 - 1e-9)));
                if (spec.writeBandwidth > 0)
                    QVERIFY(level.cycles >= std::floor(written / spec.writeBandwidth * (1 - 1e-9)));
                if (read + written > 0) {
                    QVERIFY(level.cycles >= 1);
                    QVERIFY(r.cycles >= level.cycles);
                }
            }
            QVERIFY(r.cycles >= 1); // every design reads its inputs at least once
            QCOMPARE(r.edp, r.cycles * r.energyPj);
        }
        QVERIFY2(valid >= 100, qPrintable(QString::number(valid)));
    }

    // Item 2 by hand: the dot product Z += A[k] * B[k], K = 8, on DRAM -> Buffer -> 1 MAC, the k loop
    // at the buffer, A compressed (CP) at the buffer and Skip B <- A there. With A's density 1e-20
    // no nonzero of A is expected, so every compute is skipped: 0 compute cycles. DRAM (uncompressed,
    // no SAF) still sends A's 8 and B's 8 words to the buffer, at 2 words/cycle: 16 / 2 = 8 cycles
    // (the model used to report 0 cycles and EDP 0).
    void skippedComputeStillTakesTheDramTime()
    {
        auto arch = test::twoLevelArchitecture(1);
        arch.levels[0].readBandwidth = 2;
        const Workload w = makeSpmm("dot", 1, 8, 1, uniformDensity(1e-20), uniformDensity(0.5));
        auto m = test::emptyMapping(arch, w);
        test::levelNamed(m, "L2_T").bounds = {1, 8, 1};
        auto d = test::denseDesign(arch, w, m);
        test::setFormat(d, w, 1, 0, RankFormat::CP);
        d.sparse.sites = {SgSite{1, {SgAction{SgKind::Skip, 1, {0}}}}};
        model::Evaluator e(w, arch);
        const auto& r = e.evaluate(d);
        QVERIFY2(r.valid, r.reason.c_str());
        QCOMPARE(r.compute.actual + r.compute.gated, 0.0);
        QCOMPARE(r.levels[0].tensors[0].reads.actual, 8.0);
        QCOMPARE(r.levels[0].tensors[1].reads.actual, 8.0);
        QCOMPARE(r.levels[0].cycles, 8.0);
        QCOMPARE(r.cycles, 8.0);
        QVERIFY(r.energyPj > 0);
        QCOMPARE(r.edp, 8.0 * r.energyPj);
    }

    // Item 1: 33 storage levels overflowed `LevelSpan spans[32]`.
    void thirtyThreeLevelsAreRejected()
    {
        Architecture a = test::twoLevelArchitecture(4);
        while (a.levels.size() < 33) {
            auto l = a.levels.back();
            l.name = "L" + std::to_string(a.levels.size());
            a.levels.push_back(l);
        }
        QVERIFY(mentions(architectureProblems(a), "33 storage levels; at most 32"));
        const std::string e = inputErrorOf(
            [&] { model::Evaluator(makeSpmm("toy", 4, 8, 4, uniformDensity(0.5), uniformDensity(0.5)), a); });
        QVERIFY2(e.find("at most 32") != std::string::npos, e.c_str());
        a.levels.resize(32);
        QVERIFY(!mentions(architectureProblems(a), "storage levels"));
    }

    // Item 4: `1u << dim` with 33+ dims is undefined; 32 is the limit.
    void thirtyThreeDimsAreRejected()
    {
        Workload w;
        w.name = "wide";
        Tensor p, q, z;
        p.name = "P";
        q.name = "Q";
        z.name = "Z";
        z.isOutput = true;
        for (int d = 0; d < 33; ++d) {
            w.dims.push_back(Dimension{"D" + std::to_string(d), 1});
            p.ranks.push_back({ProjectionTerm{d, 1}});
        }
        q.ranks = z.ranks = p.ranks;
        w.tensors = {p, q, z};
        QVERIFY(mentions(workloadProblems(w), "33 dimensions; at most 32"));
        w.dims.pop_back();
        for (auto& t : w.tensors)
            t.ranks.pop_back();
        QVERIFY(!mentions(workloadProblems(w), "dimensions; at most"));
    }

    // Item 3: values the readers accepted overflowed int64 later.
    void overflowingSizesAreRejected()
    {
        // A coefficient of 2^40: above 2^20.
        Workload conv = makeSpmm("c", 4, 4, 4, uniformDensity(0.5), uniformDensity(0.5));
        conv.tensors[0].ranks[0][0].coefficient = std::int64_t{1} << 40;
        QVERIFY(mentions(workloadProblems(conv), "coefficients must be integers from 1 to 2^20"));
        // M = K = 2^40: the dense MACs 2^80 x N overflow int64 (checked product), and P has 2^80 points.
        const std::int64_t big = std::int64_t{1} << 40;
        const Workload huge = makeSpmm("h", big, big, 2, uniformDensity(0.5), uniformDensity(0.5));
        QVERIFY(mentions(workloadProblems(huge), "exceeds 2^53"));
        QVERIFY(!tensorPoints(huge, huge.tensors[0]).has_value() ||
                *tensorPoints(huge, huge.tensors[0]) > kMaxVolume);
        // 2^26 x 2^26 x 2: 2^53 MACs is the largest problem; P has 2^52 points.
        const std::int64_t side = std::int64_t{1} << 26;
        const Workload edge = makeSpmm("e", side, side, 2, uniformDensity(0.5), uniformDensity(0.5));
        QVERIFY(!mentions(workloadProblems(edge), "exceeds"));
        QCOMPARE(*tensorPoints(edge, edge.tensors[0]), std::int64_t{1} << 52);
        // A band of 2^63 - 1.
        Workload banded = makeSpmm("b", 8, 8, 8, uniformDensity(0.5), uniformDensity(0.5));
        banded.tensors[0].density.model = DensityModelKind::Banded;
        banded.tensors[0].density.bandwidth = INT64_MAX;
        QVERIFY(mentions(workloadProblems(banded), "bandwidth from 0 to 2^40"));
    }

    void checkedArithmetic()
    {
        QCOMPARE(*checkedMul(std::int64_t{1} << 31, std::int64_t{1} << 31), std::int64_t{1} << 62);
        QVERIFY(!checkedMul(std::int64_t{1} << 32, std::int64_t{1} << 31));
        QVERIFY(!checkedAdd(INT64_MAX, 1));
        QCOMPARE(saturatingMul(std::int64_t{1} << 40, std::int64_t{1} << 40), INT64_MAX);
        QCOMPARE(saturatingMul(-(std::int64_t{1} << 40), std::int64_t{1} << 40), INT64_MIN);
    }

    // Item 6: a bandwidth of 1e-300 made EDP inf; an energy of 1e308 made every design non-finite.
    void bandwidthAndEnergyLimits()
    {
        QVERIFY(!bandwidthAllowed(1e-300));
        QVERIFY(!bandwidthAllowed(-1));
        QVERIFY(!bandwidthAllowed(std::numeric_limits<double>::infinity()));
        QVERIFY(!bandwidthAllowed(std::nan("")));
        QVERIFY(bandwidthAllowed(0));
        QVERIFY(bandwidthAllowed(1e-9));
        QVERIFY(!energyAllowed(1e308));
        QVERIFY(!energyAllowed(std::nan("")));
        QVERIFY(energyAllowed(0));
        QVERIFY(energyAllowed(1e12));
        // The largest figures the limits allow stay finite: 2^53 words at 1e-9 words/cycle is ~9e24 cycles;
        // 33 levels x 2^53 accesses x 1e12 pJ is ~3e29 pJ; their product ~3e54 < 1.8e308.
        const double cycles = std::ldexp(1.0, 53) / kMinBandwidth;
        const double energy = 33 * std::ldexp(1.0, 53) * kMaxEnergyPj;
        QVERIFY(std::isfinite(cycles * energy));
    }

    // Item 6: a stats file with Cycles nan, 0 or -5 was accepted and printed nan%.
    void statsCyclesMustBePositive_data()
    {
        QTest::addColumn<QString>("cycles");
        QTest::newRow("nan") << "nan";
        QTest::newRow("zero") << "0";
        QTest::newRow("negative") << "-5";
        QTest::newRow("inf") << "inf";
    }
    void statsCyclesMustBePositive()
    {
        QFETCH(QString, cycles);
        const std::string text =
            "Summary Stats\n-------------\nCycles: " + cycles.toStdString() + "\nEnergy: 1.00 uJ\n";
        try {
            parseSparseloopStatsText(text, "stats.txt");
            QFAIL("accepted");
        } catch (const InputError& e) {
            const auto& d = e.diagnostics().at(0);
            QCOMPARE(d.file, std::string("stats.txt"));
            QCOMPARE(d.line, 3);   // the Cycles line
            QCOMPARE(d.column, 9); // "Cycles: " is 8 characters
            QVERIFY2(d.message.find("finite number >= 1") != std::string::npos, d.message.c_str());
        }
        // A real value reads.
        QCOMPARE(parseSparseloopStatsText("Summary Stats\nCycles: 42\nEnergy: 1.00 uJ\n", "s").cycles, 42.0);
    }

    // Item 6: /dev/zero (any non-regular file) was read without limit.
    void devicesAreNotRead()
    {
        const std::string text = inputErrorOf([] { readTextFile("/dev/zero"); });
        QVERIFY2(text.find("not a regular file") != std::string::npos, text.c_str());
        const std::string mtx = inputErrorOf([] { readNonzeroPattern("/dev/zero"); });
        QVERIFY2(mtx.find("not a regular file") != std::string::npos, mtx.c_str());
        const std::string arch = inputErrorOf([] { loadArchitectureFile("/dev/null"); });
        QVERIFY2(arch.find("not a regular file") != std::string::npos, arch.c_str());
    }

    // Item 7: `.mtx` errors point at the token: `2 x 1.0` on line 4 has its bad column at column 3; the
    // entry `4 2` of a 3 x 3 matrix has its bad row at column 1.
    void mtxErrorsHaveAColumn_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("bad token") << "bad_line.mtx" << 4 << 3 << "expected `row column value`";
        QTest::newRow("outside") << "bad_range.mtx" << 4 << 1 << "entry (4, 2) is outside the 3 x 3 matrix";
    }
    void mtxErrorsHaveAColumn()
    {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, fragment);
        const std::string path =
            std::string(SPARSEMAP_SOURCE_DIR) + "/tests/data/actual/" + file.toStdString();
        try {
            readNonzeroPattern(path);
            QFAIL("accepted");
        } catch (const InputError& e) {
            const auto& d = e.diagnostics().at(0);
            QCOMPARE(d.file, path);
            QCOMPARE(d.line, line);
            QCOMPARE(d.column, column);
            QVERIFY2(d.message.find(fragment.toStdString()) != std::string::npos, d.message.c_str());
        }
    }

    // Item 6: `cgra --spconv` treated actual or banded weights as dense.
    void cgraBlockNeedsUniformWeights()
    {
        ConvShape s;
        s.c = s.k = 8;
        s.h = s.w = 6;
        s.r = s.s = 3;
        DensitySpec banded;
        banded.model = DensityModelKind::Banded;
        banded.bandwidth = 1;
        const Workload w = makeSpconv("conv", s, uniformDensity(0.5), banded);
        const std::string e = inputErrorOf([&] { cgra::blockFromWorkload(w, 4, 4, 1); });
        QVERIFY2(e.find("banded density model") != std::string::npos, e.c_str());
        const Workload uniform = makeSpconv("conv", s, uniformDensity(0.5), uniformDensity(0.25));
        QCOMPARE(cgra::blockFromWorkload(uniform, 4, 4, 1).channels, 4);
    }

    // Item 7: file-derived text is escaped before printing.
    void controlCharactersAreEscaped()
    {
        QCOMPARE(escapeControl("a\x1b]0;title\x07\nb\tc\rd\x7f"),
                 std::string("a\\x1b]0;title\\x07\\nb\\tc\\rd\\x7f"));
        QCOMPARE(escapeControl("Größe µ"), std::string("Größe µ")); // UTF-8 passes
        const Diagnostic d{"f\n.yaml", 3, 4, "levels[0].name", "name `\x1b[2J` is bad"};
        QCOMPARE(d.toString(), std::string("f\\n.yaml:3:4: levels[0].name: name `\\x1b[2J` is bad"));
        // A name with a newline cannot forge a second `file:line:col` line.
        try {
            parseArchitectureYaml("version: 1\narchitecture:\n  name: a\n  levels:\n"
                                  "    - {technology: \"x\\nfake.yaml:1:1: forged\\e]0;t\\a\"}\n",
                                  "a.yaml");
            QFAIL("accepted");
        } catch (const InputError& e) {
            bool quoted = false;
            for (const auto& diagnostic : e.diagnostics()) {
                const std::string line = diagnostic.toString();
                QVERIFY2(line.find('\n') == std::string::npos && line.find('\x1b') == std::string::npos,
                         line.c_str());
                quoted = quoted || line.find("x\\nfake.yaml:1:1: forged\\x1b]0;t\\x07") != std::string::npos;
            }
            QVERIFY2(quoted, e.what());
            QVERIFY(std::string(e.what()).find('\x1b') == std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestRobustness)
#include "test_robustness.moc"
