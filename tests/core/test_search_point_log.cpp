// The compact point log (core/search/point_log.hpp): every field of a small log written by hand comes
// back, through the views, the columns, a copy of a range, the session codec (both layouts), and
// fromColumns; gene widths grow as wider genes arrive; genomes of different lengths; reasons interned
// once each; inconsistent columns are refused; layout 2 gives the same bytes on one thread as on many
// and names a damaged group.
#include "io/point_log_codec.hpp"
#include "search/point_log.hpp"
#include "search/search_types.hpp"

#include <QtTest>

#include <tbb/global_control.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace sparsemap;
using search::EvaluatedPoint;
using search::PointLog;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

EvaluatedPoint point(Genome genome, bool valid, double cycles, double energyPj, int generation,
                     std::string reason = {})
{
    EvaluatedPoint p;
    p.genome = std::move(genome);
    p.valid = valid;
    p.cycles = cycles;
    p.energyPj = energyPj;
    p.edp = cycles * energyPj;
    p.objective = valid ? p.edp : kInf;
    p.generation = generation;
    p.reason = std::move(reason);
    return p;
}

// Five points: two invalid with the same reason, one with another reason, genes 0..255 except the
// fourth point's 300 (two bytes) and the fifth's -70000 (four bytes).
std::vector<EvaluatedPoint> handMade()
{
    return {point({1, 2, 3}, true, 10, 2.5, 0), point({0, 0, 255}, false, 0, 0, 0, "GLB overflows"),
            point({4, 5, 6}, false, 0, 0, 1, "GLB overflows"), point({7, 300, 9}, true, 20, 0.5, 1),
            point({-70000, 1, 2}, false, 0, 0, 2, "fan-out 2048 > 1024")};
}

void compareWith(const PointLog& log, const std::vector<EvaluatedPoint>& expected)
{
    QCOMPARE(log.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const search::PointView p = log[i];
        const EvaluatedPoint& e = expected[i];
        QVERIFY2(p.genome == e.genome, qPrintable(QString("point %1").arg(i)));
        QCOMPARE(p.genome.toGenome(), e.genome);
        QCOMPARE(p.valid, e.valid);
        QCOMPARE(std::string(p.reason), e.reason);
        QCOMPARE(p.generation, e.generation);
        QVERIFY(p.cycles == e.cycles && p.energyPj == e.energyPj && p.edp == e.edp);
        QVERIFY(p.objective == e.objective);
    }
}

} // namespace

class TestSearchPointLog : public QObject {
    Q_OBJECT
private slots:
    // Copies share the columns (a run shown or saved is not copied point by point); changing either
    // copy first takes its own columns, the other keeps what it had.
    void copiesShareColumnsUntilChanged()
    {
        const auto points = handMade();
        PointLog log;
        for (const auto& p : points)
            log.push_back(p);
        PointLog copy = log;
        QVERIFY(copy.sharesColumnsWith(log));
        QCOMPARE(copy.objectives().data(), log.objectives().data());
        copy.push_back(point({1, 1, 1}, true, 1, 1, 3, "new reason"));
        QVERIFY(!copy.sharesColumnsWith(log));
        compareWith(log, points); // the original is as it was
        QCOMPARE(copy.size(), points.size() + 1);
        PointLog other = log;
        other.setResult(0, false, 0, 0, 0, kInf);
        compareWith(log, points);
        QVERIFY(!other[0].valid);
        const PointLog moved = std::move(other);
        QVERIFY(other.empty()); // NOLINT(bugprone-use-after-move): a moved-from log is empty
        other.push_back(points[0]);
        QCOMPARE(other.size(), std::size_t(1));
        QVERIFY(!PointLog().sharesColumnsWith(PointLog()));
    }

    void everyFieldComesBack()
    {
        const auto points = handMade();
        PointLog log;
        for (const auto& p : points)
            log.push_back(p);
        compareWith(log, points);
        // The columns, by hand.
        QCOMPARE(std::vector<double>(log.objectives().begin(), log.objectives().end()),
                 (std::vector<double>{25, kInf, kInf, 10, kInf}));
        QCOMPARE(std::vector<std::int32_t>(log.generations().begin(), log.generations().end()),
                 (std::vector<std::int32_t>{0, 0, 1, 1, 2}));
        QCOMPARE(log.validCount(), std::int64_t(2));
        // Two distinct reasons, each stored once; point 0 and 3 have none.
        QCOMPARE(log.reasonTable(), (std::vector<std::string>{"GLB overflows", "fan-out 2048 > 1024"}));
        QCOMPARE(std::vector<std::uint32_t>(log.reasonIndices().begin(), log.reasonIndices().end()),
                 (std::vector<std::uint32_t>{0, 1, 1, 0, 2}));
        // -70000 needs four bytes a gene.
        QCOMPARE(log.geneWidth(), 4);
        QCOMPARE(log.genomeLength(), std::uint32_t(3));
        QCOMPARE(log.gene(4, 0), -70000);
        QCOMPARE(log.at(3).toPoint().genome, (Genome{7, 300, 9}));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, log.at(5));
        // Iteration visits the points in order.
        int generations = 0;
        for (const auto& p : log)
            generations += p.generation;
        QCOMPARE(generations, 0 + 0 + 1 + 1 + 2);
    }

    // Counted by hand: objectives 5, 7, 5, inf (invalid), 7, 5, 6 and an invalid point that carries 8
    // (an invalid point never counts, nor makes a later one a repeat) - of the valid points 5, 7, 5, 7,
    // 5, 6 the third, fourth and fifth repeat an earlier one.
    void repeatedObjectivesAreCountedAmongValidPoints()
    {
        PointLog log;
        QCOMPARE(log.repeatedObjectiveCount(), std::int64_t(0));
        const std::vector<std::pair<bool, double>> points = {{true, 5}, {true, 7}, {true, 5}, {false, kInf},
                                                             {true, 7}, {true, 5}, {true, 6}, {false, 8}};
        for (const auto& [valid, objective] : points) {
            EvaluatedPoint p;
            p.valid = valid;
            p.objective = objective;
            log.push_back(p);
        }
        QCOMPARE(log.repeatedObjectiveCount(), std::int64_t(3));
        EvaluatedPoint late;
        late.valid = true;
        late.objective = 8; // the invalid 8 above does not make it a repeat
        log.push_back(late);
        QCOMPARE(log.repeatedObjectiveCount(), std::int64_t(3));
        late.objective = 6;
        log.push_back(late);
        QCOMPARE(log.repeatedObjectiveCount(), std::int64_t(4));
    }

    void genesWidenOnlyWhenNeeded()
    {
        PointLog log;
        log.append(Genome{0, 255}, 0);
        QCOMPARE(log.geneWidth(), 1);
        log.append(Genome{256, -1}, 0);
        QCOMPARE(log.geneWidth(), 2);
        log.append(Genome{32767, -32768}, 0);
        QCOMPARE(log.geneWidth(), 2);
        log.append(Genome{32768, 0}, 0);
        QCOMPARE(log.geneWidth(), 4);
        log.append(Genome{std::numeric_limits<int>::min(), std::numeric_limits<int>::max()}, 0);
        QCOMPARE(log.genome(0).toGenome(), (Genome{0, 255}));
        QCOMPARE(log.genome(1).toGenome(), (Genome{256, -1}));
        QCOMPARE(log.genome(2).toGenome(), (Genome{32767, -32768}));
        QCOMPARE(log.genome(3).toGenome(), (Genome{32768, 0}));
        QCOMPARE(log.genome(4).toGenome(),
                 (Genome{std::numeric_limits<int>::min(), std::numeric_limits<int>::max()}));
        // A new point is unevaluated: invalid, objective +inf, no reason.
        QVERIFY(!log[4].valid && std::isinf(log[4].objective) && log[4].reason.empty());
    }

    void genomesOfDifferentLengths()
    {
        // A method logging some designs without a genome: lengths 2, 0, 3, 0.
        const std::vector<EvaluatedPoint> points{point({1, 2}, true, 1, 1, 0),
                                                 point({}, false, 0, 0, 0, "no genome"),
                                                 point({3, 4, 5}, true, 2, 2, 1), point({}, true, 3, 3, 1)};
        PointLog log;
        for (const auto& p : points)
            log.push_back(p);
        QCOMPARE(log.genomeLength(), PointLog::kVaryingLength);
        compareWith(log, points);
        QVERIFY(log[1].genome.empty());
    }

    void rangesAreCopiedWithTheirReasons()
    {
        const auto points = handMade();
        PointLog source;
        for (const auto& p : points)
            source.push_back(p);
        // A log with a reason of its own first: the copied reasons get this log's indices.
        PointLog log;
        log.push_back(point({9, 9, 9}, false, 0, 0, 7, "fan-out 2048 > 1024"));
        log.append(source, 2, 5);
        compareWith(
            log, {point({9, 9, 9}, false, 0, 0, 7, "fan-out 2048 > 1024"), points[2], points[3], points[4]});
        QCOMPARE(log.reasonTable(), (std::vector<std::string>{"fan-out 2048 > 1024", "GLB overflows"}));
        PointLog all;
        all.append(source);
        compareWith(all, points);
        all.clear();
        QVERIFY(all.empty());
        QCOMPARE(all.reasonTable().size(), std::size_t(0));
    }

    void theCodecKeepsEveryField()
    {
        const auto points = handMade();
        PointLog log;
        for (const auto& p : points)
            log.push_back(p);
        std::string error;
        const auto back = decodePointLog(encodePointLog(log), std::int64_t(points.size()), error);
        QVERIFY2(back, error.c_str());
        compareWith(*back, points);
        // Narrow genes come back narrow: 0..9 fit a byte.
        PointLog narrow;
        narrow.push_back(point({0, 9}, true, 1, 1, 0));
        narrow.push_back(point({5, 1}, false, 0, 0, 0, "x"));
        const auto narrowBack = decodePointLog(encodePointLog(narrow), 2, error);
        QVERIFY2(narrowBack, error.c_str());
        QCOMPARE(narrowBack->geneWidth(), 1);
        compareWith(*narrowBack, {point({0, 9}, true, 1, 1, 0), point({5, 1}, false, 0, 0, 0, "x")});
        // Different lengths, and an empty log.
        PointLog varying;
        varying.push_back(point({1, 2}, true, 1, 1, 0));
        varying.push_back(point({}, false, 0, 0, 0, "none"));
        const auto varyingBack = decodePointLog(encodePointLog(varying), 2, error);
        QVERIFY2(varyingBack, error.c_str());
        compareWith(*varyingBack, {point({1, 2}, true, 1, 1, 0), point({}, false, 0, 0, 0, "none")});
        const auto empty = decodePointLog(encodePointLog(PointLog{}), 0, error);
        QVERIFY2(empty && empty->empty(), error.c_str());
        // The first layout (files written before layout 2) is still read, and is not taken for layout 2.
        const auto layout1 = encodePointLogLayout1(log);
        const auto back1 =
            decodePointLog(layout1, std::int64_t(points.size()), error, nullptr, kPointLogEncodingLayout1);
        QVERIFY2(back1, error.c_str());
        compareWith(*back1, points);
        QVERIFY(!decodePointLog(layout1, std::int64_t(points.size()), error));
        QVERIFY2(error.find("layout 1") != std::string::npos, error.c_str());
        const auto varying1 =
            decodePointLog(encodePointLogLayout1(varying), 2, error, nullptr, kPointLogEncodingLayout1);
        QVERIFY2(varying1, error.c_str());
        QVERIFY(!decodePointLog(encodePointLog(log), std::int64_t(points.size()), error, nullptr,
                                kPointLogEncodingLayout1));
    }

    void groupsGiveTheSameBytesOnAnyNumberOfThreads()
    {
        // 150,000 points: three groups of layout 2 (65,536 points each), decoded in parallel. Objectives
        // follow each of the three metrics in turn (a group's objective source), some not at all; NaN
        // and denormal metrics; genes of 1..4 bytes; reasons.
        std::mt19937_64 rng(3);
        std::vector<EvaluatedPoint> points;
        const int n = 150000;
        for (int i = 0; i < n; ++i) {
            Genome genome(5);
            for (int g = 0; g < 5; ++g)
                genome[std::size_t(g)] = std::uniform_int_distribution<int>(0, g == 4 ? 100000 : 9)(rng);
            if (i == 777)
                genome[2] = -300;
            const bool valid = i % 3 != 0;
            auto p = point(genome, valid, std::floor(std::uniform_real_distribution<double>(1e3, 1e9)(rng)),
                           std::uniform_real_distribution<double>(1e6, 1e12)(rng), i / 100,
                           valid ? std::string() : "reason " + std::to_string(i % 5));
            if (!valid)
                p.cycles = p.energyPj = p.edp = 0;
            const int group = i / 65536;
            if (valid && group == 1)
                p.objective = p.energyPj;
            if (valid && group == 2)
                p.objective = i % 2 ? p.cycles : std::uniform_real_distribution<double>(0, 1)(rng);
            if (i == 1000)
                p.cycles = std::numeric_limits<double>::quiet_NaN();
            if (i == 1001)
                p.energyPj = std::numeric_limits<double>::denorm_min();
            if (i == 1002)
                p.edp = 12345; // not cycles x energy
            points.push_back(p);
        }
        PointLog log;
        for (const auto& p : points)
            log.push_back(p);
        const std::string parallel = encodePointLog(log);
        std::string serial;
        {
            const tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
            serial = encodePointLog(log);
        }
        QVERIFY(parallel == serial);
        std::string error;
        GeneBounds bounds;
        const auto back = decodePointLog(parallel, n, error, nullptr, kPointLogEncoding, &bounds);
        QVERIFY2(back, error.c_str());
        QCOMPARE(back->geneWidth(), 4);
        for (int i = 0; i < n; ++i) {
            const auto p = (*back)[std::size_t(i)];
            const auto& e = points[std::size_t(i)];
            QVERIFY(p.genome == e.genome && p.valid == e.valid && p.reason == e.reason &&
                    p.generation == e.generation);
            // Bit for bit (NaN included).
            QVERIFY(std::memcmp(&p.cycles, &e.cycles, 8) == 0 &&
                    std::memcmp(&p.energyPj, &e.energyPj, 8) == 0 && std::memcmp(&p.edp, &e.edp, 8) == 0 &&
                    std::memcmp(&p.objective, &e.objective, 8) == 0);
        }
        std::vector<int> low, high;
        log.geneBounds(low, high);
        QCOMPARE(bounds.low, low);
        QCOMPARE(bounds.high, high);

        // Genomes of different lengths across groups.
        PointLog varying;
        for (int i = 0; i < 70000; ++i)
            varying.push_back(point(i % 2 ? Genome{i % 7, 1} : Genome{}, true, 1, 2, i));
        const auto varyingBack = decodePointLog(encodePointLog(varying), 70000, error);
        QVERIFY2(varyingBack, error.c_str());
        QCOMPARE(varyingBack->genomeLength(), PointLog::kVaryingLength);
        for (std::size_t i = 0; i < 70000; i += 999)
            QVERIFY((*varyingBack)[i].genome == varying[i].genome);
    }

    void damagedGroupsAreNamed()
    {
        PointLog log;
        for (int i = 0; i < 140000; ++i)
            log.push_back(point({i % 5, i % 3}, i % 2 == 0, i, 2, i / 10, i % 2 ? "r" : ""));
        const std::string bytes = encodePointLog(log);
        std::string error;
        QVERIFY(decodePointLog(bytes, 140000, error));
        // A byte near the end (the third group) changed: zstd's checksum objects, in that group.
        std::string flipped = bytes;
        flipped[flipped.size() - 40] = static_cast<char>(flipped[flipped.size() - 40] ^ 0x21);
        QVERIFY(!decodePointLog(flipped, 140000, error));
        QVERIFY2(error.find("group 3 of 3 (points 131072..139999)") != std::string::npos, error.c_str());
        // Cut short, or with bytes added: the header's group sizes disagree.
        QVERIFY(!decodePointLog(std::string_view(bytes).substr(0, bytes.size() - 1), 140000, error));
        QVERIFY2(error.find("truncated") != std::string::npos, error.c_str());
        QVERIFY(!decodePointLog(bytes + "x", 140000, error));
        QVERIFY2(error.find("1 bytes after its last group") != std::string::npos, error.c_str());
        QVERIFY(!decodePointLog(bytes, 140001, error));
        QVERIFY2(error.find("holds 140000 points but `count` says 140001") != std::string::npos,
                 error.c_str());
        QVERIFY(!decodePointLog(std::string_view(bytes).substr(0, 5), 140000, error));
        QVERIFY2(error.find("header") != std::string::npos, error.c_str());
        QVERIFY(!decodePointLog({}, 0, error));
    }

    void inconsistentColumnsAreRefused()
    {
        const auto make = [] {
            PointLog::Columns c;
            c.generation = {0, 1};
            c.valid = {1, 0};
            c.objective = {2, kInf};
            c.cycles = {1, 0};
            c.energyPj = {2, 0};
            c.edp = {2, 0};
            c.genomeLength = 1;
            c.geneWidth = 1;
            c.genes = {std::byte{3}, std::byte{4}};
            c.reasonTable = {"r"};
            c.reason = {0, 1};
            return c;
        };
        const PointLog good = PointLog::fromColumns(make());
        compareWith(good, {point({3}, true, 1, 2, 0), point({4}, false, 0, 0, 1, "r")});
        auto shortColumn = make();
        shortColumn.edp.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PointLog::fromColumns(shortColumn));
        auto badReason = make();
        badReason.reason[1] = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PointLog::fromColumns(badReason));
        auto badValid = make();
        badValid.valid[0] = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PointLog::fromColumns(badValid));
        auto missingGene = make();
        missingGene.genes.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PointLog::fromColumns(missingGene));
        auto badWidth = make();
        badWidth.geneWidth = 3;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PointLog::fromColumns(badWidth));
    }
};

QTEST_MAIN(TestSearchPointLog)
#include "test_search_point_log.moc"
