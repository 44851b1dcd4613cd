// The energy-delay Pareto front (analysis/pareto_front.hpp) of a hand-made point set, worked out by
// hand below, and against a brute-force dominance check on random points.
#include "analysis/pareto_front.hpp"

#include "test_support.hpp"

#include <QtTest>

#include <random>

using namespace sparsemap;

class TestAnalysisPareto : public QObject {
    Q_OBJECT
private slots:
    void handMadeFront()
    {
        // index: 0 A(10,100) 1 B(20,50) 2 C(15,80) 3 D(20,60): B is as fast and cheaper
        // 4 E(30,50): B is faster at the same energy  5 F(40,10)  6 G(5,5) invalid
        // 7 H(10,100): the same as A, evaluated later  8 I(12,100): A is faster at the same energy
        // 9 J(50,10): F is faster at the same energy.  Front, fastest first: A, C, B, F.
        const search::PointLog points{test::evaluatedPoint(10, 100),     test::evaluatedPoint(20, 50),
                                      test::evaluatedPoint(15, 80),      test::evaluatedPoint(20, 60),
                                      test::evaluatedPoint(30, 50),      test::evaluatedPoint(40, 10),
                                      test::evaluatedPoint(5, 5, false), test::evaluatedPoint(10, 100),
                                      test::evaluatedPoint(12, 100),     test::evaluatedPoint(50, 10)};
        const auto front = analysis::paretoFront(points);
        QCOMPARE(front, (std::vector<std::int64_t>{0, 2, 1, 5}));
        // The fastest design under an energy budget walks the front from the fastest.
        QCOMPARE(analysis::fastestUnderEnergy(points, front, 1000), std::int64_t(0));
        QCOMPARE(analysis::fastestUnderEnergy(points, front, 80), std::int64_t(2));
        QCOMPARE(analysis::fastestUnderEnergy(points, front, 79.9), std::int64_t(1));
        QCOMPARE(analysis::fastestUnderEnergy(points, front, 10), std::int64_t(5));
        QCOMPARE(analysis::fastestUnderEnergy(points, front, 9.9), std::int64_t(-1));
        QVERIFY(analysis::paretoFront({}).empty());
        QVERIFY(analysis::paretoFront({test::evaluatedPoint(1, 1, false)}).empty());
    }

    void matchesBruteForce()
    {
        std::mt19937_64 rng(3);
        search::PointLog points;
        for (int i = 0; i < 2000; ++i) // coarse values, so that ties happen
            points.push_back(test::evaluatedPoint(std::uniform_int_distribution<int>(1, 60)(rng),
                                                  std::uniform_int_distribution<int>(1, 60)(rng),
                                                  i % 7 != 0));
        std::vector<std::int64_t> expected;
        for (std::size_t i = 0; i < points.size(); ++i) {
            if (!points[i].valid)
                continue;
            bool dominated = false;
            for (std::size_t j = 0; j < points.size() && !dominated; ++j) {
                if (!points[j].valid || j == i)
                    continue;
                const bool noWorse =
                    points[j].cycles <= points[i].cycles && points[j].energyPj <= points[i].energyPj;
                const bool better =
                    points[j].cycles < points[i].cycles || points[j].energyPj < points[i].energyPj;
                const bool earlierTwin = !better && noWorse && j < i;
                dominated = (noWorse && better) || earlierTwin;
            }
            if (!dominated)
                expected.push_back(static_cast<std::int64_t>(i));
        }
        std::sort(expected.begin(), expected.end(),
                  [&](auto a, auto b) { return points[a].cycles < points[b].cycles; });
        QCOMPARE(analysis::paretoFront(points), expected);
    }
};

QTEST_APPLESS_MAIN(TestAnalysisPareto)
#include "test_analysis_pareto.moc"
