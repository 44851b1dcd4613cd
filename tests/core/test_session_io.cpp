// Session files (docs/file-formats.md, "Session"): a session with presets, sample workloads, real
// search runs and pins survives save -> load field by field; malformed session files
// (tests/data/bad/session/) are rejected naming the line; a failed save leaves the old file intact.
#include "io/architecture_io.hpp"
#include "util/file_io.hpp"
#include "io/session_io.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "search/method_registry.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

#include <sys/stat.h>
#include <unistd.h>

using namespace sparsemap;
namespace fs = std::filesystem;

namespace {

const fs::path kSamples = fs::path(SPARSEMAP_SOURCE_DIR) / "samples" / "workloads";
const fs::path kBadSessions = fs::path(SPARSEMAP_SOURCE_DIR) / "tests" / "data" / "bad" / "session";

RunRecord makeRun(const std::string& name, const std::string& method, const Workload& workload,
                  const Architecture& arch, std::int64_t budget, std::uint64_t seed)
{
    RunRecord run;
    run.name = name;
    run.method = method;
    run.workload = workload;
    run.architecture = arch;
    run.genomeOptions.padding = PaddingMode::LargePrime;
    run.settings.budget = budget;
    run.settings.seed = seed;
    run.settings.threads = 2;
    const GenomeLayout layout(workload, arch, run.genomeOptions);
    const auto optimizer = search::makeOptimizer(method);
    run.result = search::runSearch(*optimizer, layout, run.settings);
    return run;
}

// A run of `method` on the toy workload and accelerator with no points: what the tests fill in.
RunRecord toyRun(const std::string& name, const std::string& method)
{
    RunRecord run;
    run.name = name;
    run.method = method;
    run.workload = test::toyWorkload();
    run.architecture = test::toyArchitecture();
    run.result.method = method; // the loader sets it from `method`
    return run;
}

Session sampleSession()
{
    Session s;
    s.architectures = {loadPreset("cloud"), loadPreset("edge")};
    s.workloads = {loadWorkloadFile((kSamples / "mm3.yaml").string()),
                   loadWorkloadFile((kSamples / "toy.yaml").string())};
    s.runs.push_back(
        makeRun("sparsemap toy/edge s3", "sparsemap", s.workloads[1], s.architectures[1], 300, 3));
    // A run on a snapshot that differs from the session's workload: the run keeps what it searched.
    Workload edited = s.workloads[1];
    edited.name = "toy (denser)";
    edited.tensors[0].density.density = 0.75;
    s.runs.push_back(makeRun("random toy-denser/edge", "random", edited, s.architectures[1], 120, 11));
    s.runs.back().settings.objective = search::Objective::Energy;
    s.runs.back().genomeOptions.padding = PaddingMode::LargePrime;
    s.pinned.push_back({"best of sparsemap", 0, s.runs[0].result.bestIndex});
    s.pinned.push_back({"an early random one", 1, 5});
    return s;
}

// A point logged by an older program against the model now (where called: the model changes since):
// the same cycles up to one, energy within 3e-7 of it, and the logged EDP when neither moved.
template <typename Logged, typename Result> bool loggedMetricsMatch(const Logged& p, const Result& now)
{
    if (std::fabs(p.cycles - now.cycles) > 1)
        return false;
    if (std::fabs(p.energyPj - now.energyPj) > 3e-7 * std::fabs(now.energyPj))
        return false;
    return p.cycles != now.cycles || p.energyPj != now.energyPj || p.edp == now.edp;
}

void comparePoints(const search::PointLog& a, const search::PointLog& b)
{
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].genome, b[i].genome);
        QCOMPARE(a[i].valid, b[i].valid);
        QCOMPARE(a[i].reason, b[i].reason);
        QCOMPARE(a[i].generation, b[i].generation);
        // Exact: doubles are written in their shortest round-trip form. (QCOMPARE on doubles is fuzzy.)
        QVERIFY(a[i].cycles == b[i].cycles);
        QVERIFY(a[i].energyPj == b[i].energyPj);
        QVERIFY(a[i].edp == b[i].edp);
        QVERIFY(a[i].objective == b[i].objective);
    }
}

// Occurrences of `part` in `text`.
int count(const std::string& text, const std::string& part)
{
    int n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size()))
        ++n;
    return n;
}

void compareSessions(const Session& a, const Session& b)
{
    QVERIFY(a.architectures == b.architectures);
    QVERIFY(a.workloads == b.workloads);
    QCOMPARE(a.runs.size(), b.runs.size());
    for (std::size_t r = 0; r < a.runs.size(); ++r) {
        const RunRecord& x = a.runs[r];
        const RunRecord& y = b.runs[r];
        QCOMPARE(x.name, y.name);
        QCOMPARE(runColor(a, r), runColor(b, r));
        QCOMPARE(x.method, y.method);
        QVERIFY(x.workload == y.workload);
        QVERIFY(x.architecture == y.architecture);
        QVERIFY(x.genomeOptions == y.genomeOptions);
        QVERIFY(x.modelOptions.occupancyConfidence == y.modelOptions.occupancyConfidence);
        QVERIFY(x.modelOptions.formatSpace == y.modelOptions.formatSpace);
        QVERIFY(x.settings.objective == y.settings.objective);
        QCOMPARE(x.settings.budget, y.settings.budget);
        QCOMPARE(x.settings.seed, y.settings.seed);
        QCOMPARE(x.settings.threads, y.settings.threads);
        QCOMPARE(x.result.method, y.result.method);
        QCOMPARE(x.result.bestIndex, y.result.bestIndex);
        QCOMPARE(x.result.cancelled, y.result.cancelled);
        QVERIFY(x.result.seconds == y.result.seconds);
        comparePoints(x.result.points, y.result.points);
        QCOMPARE(x.result.convergence.size(), y.result.convergence.size());
        for (std::size_t g = 0; g < x.result.convergence.size(); ++g) {
            const auto& c = x.result.convergence[g];
            const auto& d = y.result.convergence[g];
            QCOMPARE(c.generation, d.generation);
            QCOMPARE(c.evaluations, d.evaluations);
            QVERIFY(c.best == d.best);
            QVERIFY(c.populationAverage == d.populationAverage);
            QVERIFY(c.validShare == d.validShare);
        }
    }
    QVERIFY(a.selection == b.selection);
    QCOMPARE(a.pinned.size(), b.pinned.size());
    for (std::size_t p = 0; p < a.pinned.size(); ++p) {
        QCOMPARE(a.pinned[p].name, b.pinned[p].name);
        QCOMPARE(a.pinned[p].run, b.pinned[p].run);
        QCOMPARE(a.pinned[p].pointIndex, b.pinned[p].pointIndex);
    }
}

std::string fileText(const fs::path& path)
{
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// `# expect: line N: fragment` in the first line (tests/data/bad/README.md).
std::pair<int, std::string> expectation(const fs::path& file)
{
    std::ifstream in(file);
    std::string first;
    std::getline(in, first);
    static const std::regex kPattern(R"(^# expect: line (\d+): (.+)$)");
    std::smatch match;
    if (!std::regex_match(first, match, kPattern))
        return {-1, {}};
    return {std::stoi(match[1].str()), match[2].str()};
}

} // namespace

class TestSessionIo : public QObject {
    Q_OBJECT
private slots:
    void roundTripKeepsEveryField()
    {
        const Session session = sampleSession();
        // The runs are real: the budget was spent and the best is the least objective of the valid points.
        QCOMPARE(session.runs[0].result.points.size(), std::size_t(300));
        QCOMPARE(session.runs[1].result.points.size(), std::size_t(120));
        const auto& points = session.runs[0].result.points;
        std::int64_t best = -1;
        for (std::size_t i = 0; i < points.size(); ++i)
            if (points[i].valid && (best < 0 || points[i].objective < points[best].objective))
                best = static_cast<std::int64_t>(i);
        QVERIFY(best >= 0);
        QCOMPARE(session.runs[0].result.bestIndex, best);

        const QTemporaryDir dir;
        const std::string path = (fs::path(dir.path().toStdString()) / "work.session.yaml").string();
        saveSessionFile(session, path);
        const Session loaded = loadSessionFile(path);
        compareSessions(session, loaded);
        // The pin still designates the best point of the sparsemap run.
        const auto& pin = loaded.pinned[0];
        QVERIFY(loaded.runs[pin.run].result.points[pin.pointIndex].edp == points[best].edp);
        // Saving what was loaded gives the same text: nothing drifts on a second round.
        QCOMPARE(sessionToYaml(loaded), fileText(path));
    }

    // A three-input workload (MTTKRP: A, B, C, O) and its runs survive save -> load: the point log
    // follows the genome's 68 genes, S/G values up to 18 included.
    void threeInputSessionRoundTrips()
    {
        Session s;
        s.architectures = {loadPreset("edge")};
        s.workloads = {loadWorkloadFile((kSamples / "mttkrp.yaml").string())};
        s.runs.push_back(
            makeRun("sparsemap mttkrp/edge", "sparsemap", s.workloads[0], s.architectures[0], 300, 2));
        s.runs.push_back(makeRun("random mttkrp/edge", "random", s.workloads[0], s.architectures[0], 200, 3));
        const GenomeLayout layout(s.workloads[0], s.architectures[0]);
        QCOMPARE(layout.size(), 68);
        int largestSg = 0;
        const auto sg = layout.segment(GeneSegment::SkipGate);
        const auto& points = s.runs[1].result.points;
        for (std::size_t i = 0; i < points.size(); ++i)
            for (int g = sg.begin; g < sg.end; ++g)
                largestSg = std::max(largestSg, points[i].genome[static_cast<std::size_t>(g)]);
        QVERIFY(largestSg > 6); // beyond the two-input values
        const QTemporaryDir dir;
        const std::string path = (fs::path(dir.path().toStdString()) / "mttkrp.session.yaml").string();
        saveSessionFile(s, path);
        const Session loaded = loadSessionFile(path);
        compareSessions(s, loaded);
        QCOMPARE(sessionToYaml(loaded), fileText(path));
    }

    void aRunKeepsItsModelOptions()
    {
        // A run scored at the 0.9 occupancy quantile with nearest formats keeps them (its designs are
        // re-scored with them); a run under Sparseloop's rules writes no `model` key, as older files.
        Session session = sampleSession();
        session.runs[1].modelOptions.occupancyConfidence = 0.9;
        session.runs[1].modelOptions.formatSpace = model::FormatSpace::SparseloopNearest;
        const std::string text = sessionToYaml(session);
        QCOMPARE(count(text, "model: {occupancy_confidence: 0.9, format_space: nearest}"), 1);
        const QTemporaryDir dir;
        const std::string path = (fs::path(dir.path().toStdString()) / "options.session.yaml").string();
        saveSessionFile(session, path);
        const Session loaded = loadSessionFile(path);
        compareSessions(session, loaded);
        QVERIFY(loaded.runs[0].modelOptions.occupancyConfidence == 1.0);
        QVERIFY(loaded.runs[0].modelOptions.formatSpace == model::FormatSpace::SparseloopDead);
    }

    void olderFilesStillOpen()
    {
        // Written by the program before runs were held as columns in memory (tests/data/session/
        // README.md): a 300-point sparsemap run of mm3 on cloud and a 120-point es-direct run (designs
        // without a genome), as compact and as CSV point logs.
        const fs::path data = fs::path(SPARSEMAP_SOURCE_DIR) / "tests/data/session";
        const Session compact = loadSessionFile((data / "mm3-compact-530c05a.session.yaml").string());
        const Session csv = loadSessionFile((data / "mm3-csv-530c05a.session.yaml").string());
        QCOMPARE(compact.runs.size(), std::size_t(2));
        QCOMPARE(csv.runs.size(), std::size_t(2));
        for (std::size_t r = 0; r < 2; ++r)
            comparePoints(compact.runs[r].result.points, csv.runs[r].result.points);

        // Every logged metric is what the model gives the logged genome now.
        const RunRecord& run = compact.runs[0];
        QCOMPARE(run.result.points.size(), std::size_t(300));
        const GenomeLayout layout(run.workload, run.architecture, run.genomeOptions);
        QCOMPARE(layout.size(), 32);
        model::GenomeEvaluator evaluator(layout, run.modelOptions);
        std::int64_t best = -1;
        int valid = 0;
        for (std::size_t i = 0; i < run.result.points.size(); ++i) {
            const auto p = run.result.points[i];
            QCOMPARE(p.genome.size(), std::size_t(32));
            const auto& expected = evaluator.evaluate(p.genome.toGenome());
            QCOMPARE(p.valid, expected.valid);
            QCOMPARE(std::string(p.reason), expected.reason);
            // The file was written at 530c05a; since f2d67fc a level's cycles sum each tensor's words
            // per compute cycle as Timeloop does, which moves a ceil by one cycle on a few designs
            // (one of these 300), and since the floor of data accesses under metadata takes
            // Sparseloop's expected density bit for bit, a data access count can move by a word
            // (one of these 300: 1.9e-8 of its energy).
            QVERIFY(loggedMetricsMatch(p, expected));
            QVERIFY(p.objective == (p.valid ? p.edp : std::numeric_limits<double>::infinity()));
            valid += p.valid;
            if (p.valid && (best < 0 || p.objective < run.result.points[std::size_t(best)].objective))
                best = std::int64_t(i);
        }
        QVERIFY(valid > 0);
        QCOMPARE(run.result.bestIndex, best);
        // Written before runs had colours: each gets the palette's colour for its place.
        QCOMPARE(compact.runs[0].color, std::string("#1f77b4"));
        QCOMPARE(compact.runs[1].color, std::string("#d62728"));
        QCOMPARE(compact.pinned.size(), std::size_t(1));
        QCOMPARE(compact.pinned[0].run, 0);
        QCOMPARE(compact.pinned[0].pointIndex, best);

        // es-direct: no genomes; nothing valid in 120 evaluations, each with its reason.
        const auto& direct = compact.runs[1].result;
        QCOMPARE(direct.points.size(), std::size_t(120));
        QCOMPARE(direct.bestIndex, std::int64_t(-1));
        QCOMPARE(direct.validCount(), std::int64_t(0));
        for (const auto& p : direct.points)
            QVERIFY(p.genome.empty() && !p.reason.empty());
    }

    void layoutOneFilesOfTheColumnLogStillOpen()
    {
        // Written by `sparsemap search --out` of main at 284fbca (the column PointLog, point logs as one
        // zstd frame, `zstd-columns-1`; tests/data/session/README.md): a 400-point sparsemap run and a
        // 150-point es-direct run of mm3 on cloud. Every logged metric is what the model gives the
        // logged genome; saved again they are written as layout 2 and read back the same.
        const fs::path data = fs::path(SPARSEMAP_SOURCE_DIR) / "tests/data/session";
        const std::string sparsemapFile = (data / "mm3-sparsemap-284fbca.session.yaml").string();
        QVERIFY(fileText(sparsemapFile).find("encoding: zstd-columns-1") != std::string::npos);
        const Session sm = loadSessionFile(sparsemapFile);
        const Session es = loadSessionFile((data / "mm3-es-direct-284fbca.session.yaml").string());
        QCOMPARE(sm.runs.size(), std::size_t(1));
        QCOMPARE(es.runs.size(), std::size_t(1));
        const RunRecord& run = sm.runs[0];
        QCOMPARE(run.result.points.size(), std::size_t(400));
        const GenomeLayout layout(run.workload, run.architecture, run.genomeOptions);
        model::GenomeEvaluator evaluator(layout, run.modelOptions);
        int valid = 0;
        for (const auto p : run.result.points) {
            const auto& expected = evaluator.evaluate(p.genome.toGenome());
            QCOMPARE(p.valid, expected.valid);
            QCOMPARE(std::string(p.reason), expected.reason);
            // Logged at 284fbca: the floor of data accesses under metadata since then moves the
            // energy of most of these designs by a word or two at the DRAM (at most 2.3e-7 of it;
            // the whole tensor's expected density in Sparseloop's sum is a little below r / N) and
            // one design by a cycle.
            QVERIFY(loggedMetricsMatch(p, expected));
            valid += p.valid;
        }
        QVERIFY(valid > 0);
        QVERIFY(run.result.bestIndex >= 0 && run.result.points[std::size_t(run.result.bestIndex)].valid);
        QCOMPARE(es.runs[0].result.points.size(), std::size_t(150));
        for (const auto& p : es.runs[0].result.points)
            QVERIFY(p.genome.empty());

        Session both;
        both.runs = {sm.runs[0], es.runs[0]};
        const std::string again = sessionToYaml(both);
        QVERIFY(again.find("encoding: " + std::string(kPointLogEncoding)) != std::string::npos);
        compareSessions(both, parseSessionYaml(again, "again.yaml"));
    }

    // A run of a method this version no longer has (sparsemap-random-init became sparsemap's start)
    // still opens under its name; a name no version had is an error naming the field.
    void runsOfRetiredMethodsStillOpen()
    {
        Session s;
        s.runs.push_back(toyRun("old ablation", "sparsemap-random-init"));
        const std::string yaml = sessionToYaml(s);
        const Session loaded = parseSessionYaml(yaml, "mem");
        compareSessions(s, loaded);
        QCOMPARE(loaded.runs[0].method, std::string("sparsemap-random-init"));
        std::string unknown = yaml;
        const auto at = unknown.find("sparsemap-random-init");
        QVERIFY(at != std::string::npos);
        unknown.replace(at, std::string("sparsemap-random-init").size(), "sparsemap-never-was");
        try {
            parseSessionYaml(unknown, "mem");
            QFAIL("an unknown method was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("search method") != std::string::npos, e.what());
        }
    }

    // Re-running the same settings three times: three names and three colours from the start.
    void runsJoinUnderUniqueNamesAndDistinctColours()
    {
        Session s;
        for (int i = 0; i < 3; ++i)
            QCOMPARE(addRunToSession(s, toyRun("sparsemap mm3/cloud s1", "sparsemap")), std::size_t(i));
        QCOMPARE(s.runs[0].name, std::string("sparsemap mm3/cloud s1"));
        QCOMPARE(s.runs[1].name, std::string("sparsemap mm3/cloud s1 (2)"));
        QCOMPARE(s.runs[2].name, std::string("sparsemap mm3/cloud s1 (3)"));
        // The palette's first three (blue, red, green): none shared.
        QCOMPARE(s.runs[0].color, std::string("#1f77b4"));
        QCOMPARE(s.runs[1].color, std::string("#d62728"));
        QCOMPARE(s.runs[2].color, std::string("#2ca02c"));
        // The first run removed: its colour is free again, and the next run takes it (not a 4th hue).
        s.runs.erase(s.runs.begin());
        addRunToSession(s, toyRun("sparsemap mm3/cloud s1", "sparsemap"));
        QCOMPARE(s.runs.back().name, std::string("sparsemap mm3/cloud s1"));
        QCOMPARE(s.runs.back().color, std::string("#1f77b4"));
        // A run bringing a colour no other run has keeps it; one bringing a taken colour gets a free one.
        RunRecord own = toyRun("own", "random");
        own.color = "#123456";
        addRunToSession(s, own);
        QCOMPARE(s.runs.back().color, std::string("#123456"));
        RunRecord taken = toyRun("taken", "random");
        taken.color = "#1f77b4";
        addRunToSession(s, taken);
        QCOMPARE(s.runs.back().color, std::string("#ff7f0e"));

        // Colours and names survive save -> load, whatever the order of the palette.
        const Session loaded = parseSessionYaml(sessionToYaml(s), "mem");
        QCOMPARE(loaded.runs.size(), s.runs.size());
        for (std::size_t r = 0; r < s.runs.size(); ++r) {
            QCOMPARE(loaded.runs[r].name, s.runs[r].name);
            QCOMPARE(loaded.runs[r].color, s.runs[r].color);
        }
    }

    // An edited "spmm" and a session "spmm" of other sizes never share a name.
    void workloadNamesNeverCollide()
    {
        Session s;
        Workload big = test::toyWorkload();
        big.name = "spmm";
        big.dims[0].size = 1000000000000;
        s.workloads.push_back(big);
        Workload small = big;
        small.dims[0].size = 32;
        QCOMPARE(distinctWorkloadName(s, small), std::string("spmm (2)"));
        QCOMPARE(distinctWorkloadName(s, big), std::string("spmm"));    // the same content: its own name
        QCOMPARE(distinctWorkloadName(s, big, 0), std::string("spmm")); // itself left out
        // A run's snapshot counts as well.
        Session runs;
        RunRecord run = toyRun("r", "random");
        run.workload = big;
        runs.runs.push_back(run);
        QCOMPARE(distinctWorkloadName(runs, small), std::string("spmm (2)"));
    }

    // What the Exploration view searched last is kept by name and read back; a name that is no
    // session entry is not written.
    void explorationSelectionRoundTrips()
    {
        Session s;
        s.architectures = {test::toyArchitecture()};
        s.workloads = {test::toyWorkload()};
        s.selection = {s.workloads[0].name, s.architectures[0].name};
        const std::string text = sessionToYaml(s);
        QVERIFY2(text.find("exploration: {workload: " + s.workloads[0].name +
                           ", architecture: " + s.architectures[0].name + "}") != std::string::npos,
                 text.c_str());
        const Session loaded = parseSessionYaml(text, "mem");
        QCOMPARE(loaded.selection.workload, s.workloads[0].name);
        QCOMPARE(loaded.selection.architecture, s.architectures[0].name);
        s.selection.workload = "gone";
        const Session partial = parseSessionYaml(sessionToYaml(s), "mem");
        QCOMPARE(partial.selection.workload, std::string());
        QCOMPARE(partial.selection.architecture, s.architectures[0].name);
    }

    // A compact point log written with NaN and negative metrics (its checksums are the encoder's, so
    // valid) is refused, naming the file, the run and the point; so is a convergence row with NaN.
    void craftedPointMetricsAreRefused_data()
    {
        QTest::addColumn<int>("field"); // 0 cycles, 1 energy, 2 edp, 3 objective
        QTest::addColumn<double>("value");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("expected");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("nan cycles") << 0 << nan << true << "point 1: cycles is nan";
        QTest::newRow("negative cycles") << 0 << -5.0 << true << "point 1: cycles is -5";
        QTest::newRow("negative energy") << 1 << -1.5 << true << "point 1: energy_pj is -1.5";
        QTest::newRow("infinite edp") << 2 << inf << true << "point 1: edp is inf";
        QTest::newRow("nan objective") << 3 << nan << true << "point 1: objective is nan";
        QTest::newRow("invalid, nan energy") << 1 << nan << false << "point 1: energy_pj is nan";
        QTest::newRow("invalid, negative edp") << 2 << -1.0 << false << "point 1: edp is -1";
    }
    void craftedPointMetricsAreRefused()
    {
        QFETCH(int, field);
        QFETCH(double, value);
        QFETCH(bool, valid);
        QFETCH(QString, expected);
        Session s;
        RunRecord run = toyRun("crafted run", "es-direct");
        search::EvaluatedPoint p;
        p.valid = true;
        p.cycles = 10;
        p.energyPj = 20;
        p.objective = p.edp = 200;
        run.result.points.push_back(p); // point 0: fine
        p.valid = valid;
        if (!valid) {
            p.reason = "crafted";
            p.objective = std::numeric_limits<double>::infinity();
            p.cycles = p.energyPj = p.edp = 0;
        }
        (field == 0 ? p.cycles : field == 1 ? p.energyPj : field == 2 ? p.edp : p.objective) = value;
        run.result.points.push_back(p);
        run.result.bestIndex = 0;
        s.runs.push_back(run);
        for (const auto encoding : {PointLogEncoding::Compact, PointLogEncoding::Csv}) {
            const std::string text = sessionToYaml(s, encoding);
            try {
                parseSessionYaml(text, "crafted.session.yaml");
                QFAIL("a point with a metric no design has was read");
            } catch (const InputError& e) {
                const std::string what = e.what();
                QVERIFY2(what.find("crafted.session.yaml:") != std::string::npos, e.what());
                QVERIFY2(what.find(expected.toStdString()) != std::string::npos, e.what());
                QVERIFY2(what.find("(run `crafted run`)") != std::string::npos, e.what());
                QVERIFY2(what.find("point 0") == std::string::npos, e.what());
            }
        }
    }

    void awkwardValuesRoundTrip()
    {
        // Reasons with commas, backslashes and newlines; infinities; doubles that need 17 digits;
        // an empty genome (methods without one); a run with no points at all; a cancelled run.
        Session s;
        RunRecord run = toyRun("odd: \"quoted\", # not a comment", "es-direct");
        run.settings.seed = 18446744073709551615ull;
        run.result.cancelled = true;
        run.result.seconds = 0.1 + 0.2;
        search::EvaluatedPoint p;
        p.reason = "a, b \\ c\nd";
        p.valid = false;
        run.result.points.push_back(p);
        p.valid = true;
        p.reason.clear();
        p.objective = p.edp = 1.0 / 3.0;
        p.cycles = 123456789012345.0;
        p.energyPj = 5e-324; // the smallest subnormal
        p.generation = 4;
        run.result.points.push_back(p);
        run.result.bestIndex = 1;
        run.result.convergence.push_back(
            {0, 1, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), 0.0});
        run.result.convergence.push_back({1, 2, 1.0 / 3.0, 1.0 / 3.0, 0.5});
        s.runs.push_back(run);
        RunRecord empty = run;
        empty.name = "empty";
        empty.result.points.clear();
        empty.result.convergence.clear();
        empty.result.bestIndex = -1;
        s.runs.push_back(empty);
        const Session loaded = parseSessionYaml(sessionToYaml(s), "mem");
        compareSessions(s, loaded);
        QCOMPARE(loaded.runs[0].result.points[0].reason, std::string_view("a, b \\ c\nd"));
        QVERIFY(loaded.runs[0].result.points[1].energyPj == 5e-324);
        QVERIFY(std::isinf(loaded.runs[0].result.convergence[0].best));
    }

    void actualDensityFilesStillResolve()
    {
        // A workload whose P is the pattern of tests/data/actual/small.mtx, named relative to its
        // workload file there; the session is saved in another folder and must still find it.
        const fs::path dataDir = fs::path(SPARSEMAP_SOURCE_DIR) / "tests" / "data" / "actual";
        const Workload w =
            parseWorkloadYaml("version: 1\nworkload:\n  name: real\n  type: spmm\n  M: 6\n"
                              "  K: 8\n  N: 4\n  density: {P: {model: actual, file: small.mtx}, "
                              "Q: 0.5}\n",
                              "w.yaml", dataDir.string());
        const std::string resolved = (dataDir / "small.mtx").lexically_normal().string();
        QCOMPARE(w.tensors[0].density.resolvedFile, resolved);
        Session s;
        s.workloads = {w};
        const QTemporaryDir dir;
        const std::string path = (fs::path(dir.path().toStdString()) / "elsewhere.session.yaml").string();
        saveSessionFile(s, path);
        const Session loaded = loadSessionFile(path);
        const DensitySpec& d = loaded.workloads[0].tensors[0].density;
        QCOMPARE(d.resolvedFile, resolved);
        QCOMPARE(d.file, resolved); // the session names the file by its resolved path
        QVERIFY(d.density == w.tensors[0].density.density);
        QVERIFY(d.data); // the session's reader read the pattern too
        QCOMPARE(d.actualPattern().nonzeros.size(), std::size_t{12});
    }

    void embeddedProblemNamesTheSessionLine()
    {
        // An embedded architecture is read by the architecture parser; its error comes back with the
        // session's file, line and path.
        Session s;
        s.architectures = {test::toyArchitecture()};
        std::string text = sessionToYaml(s);
        const std::string needle = "instances: 4";
        const auto at = text.find(needle);
        QVERIFY(at != std::string::npos);
        text.replace(at, needle.size(), "instances: -4");
        const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
        try {
            parseSessionYaml(text, "s.yaml");
            QFAIL("accepted a negative instance count");
        } catch (const InputError& e) {
            QCOMPARE(e.diagnostics().size(), std::size_t(1));
            const Diagnostic& d = e.diagnostics()[0];
            QCOMPARE(d.file, std::string("s.yaml"));
            QCOMPARE(d.line, line);
            QVERIFY2(d.path.starts_with("session.architectures[0].levels[2]"), d.path.c_str());
        }
    }

    void badFilesNameTheLine_data()
    {
        QTest::addColumn<QString>("file");
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(kBadSessions))
            if (entry.path().extension() == ".yaml")
                files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        QVERIFY(files.size() >= 8);
        for (const auto& f : files)
            QTest::newRow(f.filename().string().c_str()) << QString::fromStdString(f.string());
    }
    void badFilesNameTheLine()
    {
        QFETCH(QString, file);
        const std::string path = file.toStdString();
        const auto [line, fragment] = expectation(path);
        QVERIFY2(line >= 0, "first line must be `# expect: line N: fragment`");
        try {
            loadSessionFile(path);
        } catch (const InputError& e) {
            bool found = false;
            for (const auto& d : e.diagnostics()) {
                QCOMPARE(d.file, path);
                found = found || (d.line == line && d.message.find(fragment) != std::string::npos);
            }
            QVERIFY2(found, (std::string("expected line ") + std::to_string(line) + ": " + fragment +
                             "; got:\n" + e.what())
                                .c_str());
            return;
        }
        QFAIL("the file was accepted");
    }

    void failedSaveKeepsTheOldFile()
    {
        const QTemporaryDir dir;
        const std::string path = (fs::path(dir.path().toStdString()) / "kept.session.yaml").string();
        Session good;
        good.architectures = {test::toyArchitecture()};
        saveSessionFile(good, path);
        const std::string before = fileText(path);
        // A session that cannot be written (two runs with one name could not be loaded again).
        Session bad;
        RunRecord run;
        run.name = "twin";
        run.method = "random";
        bad.runs = {run, run};
        QVERIFY_THROWS_EXCEPTION(InputError, saveSessionFile(bad, path));
        QCOMPARE(fileText(path), before);
        QCOMPARE(loadSessionFile(path).architectures.size(), std::size_t(1));
    }

    void unwritableFolderKeepsTheOldFile()
    {
        const QTemporaryDir dir;
        const fs::path sub = fs::path(dir.path().toStdString()) / "locked";
        fs::create_directory(sub);
        const std::string path = (sub / "kept.session.yaml").string();
        Session good;
        good.workloads = {test::toyWorkload()};
        saveSessionFile(good, path);
        const std::string before = fileText(path);
        ::chmod(sub.c_str(), 0555);
        const bool root = ::access(sub.c_str(), W_OK) == 0;
        if (!root)
            QVERIFY_THROWS_EXCEPTION(InputError, saveSessionFile(sampleSession(), path));
        ::chmod(sub.c_str(), 0755);
        if (root)
            QSKIP("running with permission to write anywhere (root): cannot make a folder unwritable");
        QCOMPARE(fileText(path), before);
    }

    void csvPointLogsStillRead()
    {
        // The first format (points as CSV literal blocks) is still written on request and read.
        const Session s = sampleSession();
        const std::string csv = sessionToYaml(s, PointLogEncoding::Csv);
        QVERIFY(csv.find("points: |") != std::string::npos);
        QVERIFY(csv.find("\n...\n") == std::string::npos);
        compareSessions(s, parseSessionYaml(csv, "old.yaml"));
        const std::string compact = sessionToYaml(s);
        QVERIFY(compact.find("encoding: zstd-columns-2") != std::string::npos);
        QVERIFY(compact.find("\n...\n") != std::string::npos);
        // Both logs hold the same 420 points; the compact one in well under half the bytes.
        QVERIFY2(compact.size() * 2 < csv.size(),
                 (std::to_string(compact.size()) + " vs " + std::to_string(csv.size())).c_str());
    }

    void damagedCompactLogNamesTheLine()
    {
        const Session s = sampleSession();
        const std::string text = sessionToYaml(s);
        const auto separator = text.find("\n...\n");
        const auto firstPoints = text.find("points: {");
        QVERIFY(separator != std::string::npos && firstPoints < separator);
        const int pointsLine =
            1 + static_cast<int>(std::count(text.begin(), text.begin() + firstPoints, '\n'));
        const auto expectError = [&](const std::string& damaged, int line, const std::string& fragment) {
            try {
                parseSessionYaml(damaged, "d.yaml");
                QFAIL(("accepted a damaged point log; expected " + fragment).c_str());
            } catch (const InputError& e) {
                bool found = false;
                for (const auto& d : e.diagnostics())
                    found = found || (d.line == line && d.message.find(fragment) != std::string::npos);
                QVERIFY2(found, (std::string("expected line ") + std::to_string(line) + ": " + fragment +
                                 "; got\n" + e.what())
                                    .c_str());
            }
        };
        // Cut short: the second run's log lies beyond the end.
        const int secondPointsLine =
            1 + static_cast<int>(
                    std::count(text.begin(), text.begin() + text.find("points: {", firstPoints + 1), '\n'));
        expectError(text.substr(0, text.size() - 20), secondPointsLine, "the file is truncated");
        // One byte of the first run's compressed columns changed: zstd's checksum (or the frame) objects.
        std::string flipped = text;
        flipped[separator + 5 + 200] = static_cast<char>(flipped[separator + 5 + 200] ^ 0x5a);
        expectError(flipped, pointsLine, "the point log");
        // The YAML says a different number of points than the log holds.
        std::string recount = text;
        const std::string count = "count: 300";
        QVERIFY(recount.find(count) != std::string::npos);
        recount.replace(recount.find(count), count.size(), "count: 301");
        expectError(recount, pointsLine, "holds 300 points but `count` says 301");
    }

    void cancelledSaveKeepsTheFileAndProgressReachesTheEnd()
    {
        const Session s = sampleSession();
        const QTemporaryDir dir;
        const std::string path = (fs::path(dir.path().toStdString()) / "c.session.yaml").string();
        Session small;
        small.architectures = {test::toyArchitecture()};
        saveSessionFile(small, path);
        const std::string before = fileText(path);
        search::CancelToken cancel;
        cancel.cancel();
        IoControl control;
        control.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(OperationCancelled,
                                 saveSessionFile(s, path, PointLogEncoding::Compact, &control));
        QCOMPARE(fileText(path), before);
        QVERIFY_THROWS_EXCEPTION(OperationCancelled, loadSessionFile(path, &control));

        std::vector<double> seen;
        IoControl watch;
        watch.progress = [&](double f) { seen.push_back(f); };
        saveSessionFile(s, path, PointLogEncoding::Compact, &watch);
        QVERIFY(!seen.empty());
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0);
        seen.clear();
        compareSessions(s, loadSessionFile(path, &watch));
        QVERIFY(!seen.empty() && std::is_sorted(seen.begin(), seen.end()) && seen.back() == 1.0);
    }

    void pointLogSizeOfARealRun()
    {
        // A real 20,000-evaluation SparseMap run (conv4 on cloud): bytes per point of the two formats.
        const Workload w = loadWorkloadFile((kSamples / "conv4.yaml").string());
        Session s;
        s.runs.push_back(makeRun("sparsemap conv4/cloud", "sparsemap", w, loadPreset("cloud"), 20000, 1));
        const auto t0 = std::chrono::steady_clock::now();
        const std::string compact = sessionToYaml(s);
        const auto t1 = std::chrono::steady_clock::now();
        const std::string csv = sessionToYaml(s, PointLogEncoding::Csv);
        const auto t2 = std::chrono::steady_clock::now();
        const Session back = parseSessionYaml(compact, "mem");
        const auto t3 = std::chrono::steady_clock::now();
        const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
        const double n = double(s.runs[0].result.points.size());
        qInfo("real run, %d genes, %.0f points: compact %.1f bytes per point (%.1f MB per million; written "
              "in %.0f ms, "
              "read in %.0f ms), CSV %.1f bytes per point (%.1f MB per million; written in %.0f ms)",
              GenomeLayout(w, loadPreset("cloud")).size(), n, double(compact.size()) / n,
              double(compact.size()) / n, ms(t1 - t0), ms(t3 - t2), double(csv.size()) / n,
              double(csv.size()) / n, ms(t2 - t1));
        comparePoints(s.runs[0].result.points, back.runs[0].result.points);
        QVERIFY(compact.size() * 4 < csv.size());
    }

    void largeLogIsFast()
    {
        // 20,000 points of a ~50-gene genome: the size of a full paper run. The sample with the
        // longest genome on the cloud preset (a convolution: seven dims, many prime factors).
        const Architecture a = loadPreset("cloud");
        Workload w;
        int genes = 0;
        for (const auto& entry : fs::directory_iterator(kSamples)) {
            if (!entry.is_regular_file() || entry.path().extension() != ".yaml")
                continue; // e.g. the mindmappings/ folder of samples
            const Workload candidate = loadWorkloadFile(entry.path().string());
            try {
                const int size = GenomeLayout(candidate, a).size();
                if (size > genes) {
                    genes = size;
                    w = candidate;
                }
            } catch (const InputError&) { // a workload the genome cannot encode
            }
        }
        QVERIFY(genes >= 45);
        const GenomeLayout layout(w, a);
        Session s;
        RunRecord run;
        run.name = "big";
        run.method = "random";
        run.workload = w;
        run.architecture = a;
        run.settings.budget = 20000;
        std::mt19937_64 rng(5);
        for (int i = 0; i < 20000; ++i) {
            search::EvaluatedPoint p;
            for (const auto& g : layout.genes())
                p.genome.push_back(std::uniform_int_distribution<int>(g.lower, g.upper)(rng));
            p.valid = i % 3 != 0;
            p.reason = p.valid ? "" : "tile of P exceeds GLB capacity";
            p.cycles = std::uniform_real_distribution<double>(1e5, 1e9)(rng);
            p.energyPj = std::uniform_real_distribution<double>(1e6, 1e12)(rng);
            p.edp = p.cycles * p.energyPj;
            p.objective = p.valid ? p.edp : std::numeric_limits<double>::infinity();
            p.generation = i / 100;
            run.result.points.push_back(std::move(p));
        }
        run.result.bestIndex = 1;
        for (int g = 0; g < 200; ++g)
            run.result.convergence.push_back({g, (g + 1) * 100, 1e15, 2e15, 0.66});
        s.runs.push_back(std::move(run));

        const QTemporaryDir dir;
        const std::string path = (fs::path(dir.path().toStdString()) / "big.session.yaml").string();
        const auto t0 = std::chrono::steady_clock::now();
        saveSessionFile(s, path);
        const auto t1 = std::chrono::steady_clock::now();
        const Session loaded = loadSessionFile(path);
        const auto t2 = std::chrono::steady_clock::now();
        const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
        qInfo("%d genes x 20000 points: save %.0f ms, load %.0f ms, %.2f MB (%.1f bytes per point; as CSV "
              "%.1f)",
              layout.size(), ms(t1 - t0), ms(t2 - t1), static_cast<double>(fs::file_size(path)) / 1e6,
              static_cast<double>(fs::file_size(path)) / 20000.0,
              static_cast<double>(sessionToYaml(s, PointLogEncoding::Csv).size()) / 20000.0);
        comparePoints(s.runs[0].result.points, loaded.runs[0].result.points);
        QVERIFY(ms(t2 - t0) < 10000); // generous for a loaded machine; typically well under a second
    }
};

QTEST_APPLESS_MAIN(TestSessionIo)
#include "test_session_io.moc"
