// Cantor code of loop orders (SparseMap paper, formula (1)).
#include "genome/cantor.hpp"
#include "util/error.hpp"

#include <QtTest>

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>

using namespace sparsemap;

class TestGenomeCantor : public QObject {
    Q_OBJECT
private slots:
    void everyPermutationRoundTrips_data()
    {
        QTest::addColumn<int>("dims");
        QTest::newRow("3 dims") << 3;
        QTest::newRow("4 dims") << 4;
        QTest::newRow("6 dims") << 6;
        QTest::newRow("7 dims") << 7;
    }
    void everyPermutationRoundTrips()
    {
        QFETCH(int, dims);
        std::vector<int> order(dims);
        std::iota(order.begin(), order.end(), 0);
        std::set<std::int64_t> codes;
        do {
            const auto code = cantorEncode(order);
            QVERIFY(code >= 1 && code <= factorial(dims));
            QCOMPARE(cantorDecode(code, dims), order);
            codes.insert(code);
        } while (std::next_permutation(order.begin(), order.end()));
        // A bijection onto [1, D!]: D! distinct codes.
        QCOMPARE(static_cast<std::int64_t>(codes.size()), factorial(dims));
    }

    // Known values (0! = 1, 12! = 479,001,600, 20! = 2,432,902,008,176,640,000, the largest in an
    // int64); beyond 20! it would overflow, so it throws.
    void factorialsUpToTwentyAndNoFurther()
    {
        QCOMPARE(factorial(0), std::int64_t{1});
        QCOMPARE(factorial(1), std::int64_t{1});
        QCOMPARE(factorial(5), std::int64_t{120});
        QCOMPARE(factorial(12), std::int64_t{479001600});
        QCOMPARE(factorial(20), std::int64_t{2432902008176640000});
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, factorial(21));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, factorial(-1));
    }

    void codeOneIsTheWorkloadOrder()
    {
        QCOMPARE(cantorDecode(1, 3), (std::vector<int>{0, 1, 2}));
        QCOMPARE(cantorDecode(1, 4), (std::vector<int>{0, 1, 2, 3}));
    }

    // Worked by hand from formula (1): code = sum (a_i - 1) (D - i)! + 1 with M=0, K=1, N=2.
    void handComputedCodes_data()
    {
        QTest::addColumn<std::vector<int>>("order");
        QTest::addColumn<qint64>("code");
        QTest::newRow("MKN: a=(1,1,1)") << std::vector<int>{0, 1, 2} << qint64(1);
        QTest::newRow("MNK: a=(1,2,1)") << std::vector<int>{0, 2, 1} << qint64(2);
        QTest::newRow("KMN: a=(2,1,1)") << std::vector<int>{1, 0, 2} << qint64(3);
        QTest::newRow("KNM: a=(2,2,1)") << std::vector<int>{1, 2, 0} << qint64(4);
        QTest::newRow("NMK: a=(3,1,1)") << std::vector<int>{2, 0, 1} << qint64(5);
        QTest::newRow("NKM: a=(3,2,1)") << std::vector<int>{2, 1, 0} << qint64(6);
        // 4 dims: (1,0,3,2) has a = (2,1,2,1): 1*3! + 0*2! + 1*1! + 0 + 1 = 8.
        QTest::newRow("4 dims BADC") << std::vector<int>{1, 0, 3, 2} << qint64(8);
        // Reversed order, a = (4,3,2,1): 3*6 + 2*2 + 1*1 + 1 = 24 = 4!.
        QTest::newRow("4 dims DCBA") << std::vector<int>{3, 2, 1, 0} << qint64(24);
    }
    void handComputedCodes()
    {
        QFETCH(std::vector<int>, order);
        QFETCH(qint64, code);
        QCOMPARE(cantorEncode(order), code);
        QCOMPARE(cantorDecode(code, static_cast<int>(order.size())), order);
    }

    void outOfRangeCodesAreErrors()
    {
        QVERIFY_THROWS_EXCEPTION(GenomeError, cantorDecode(0, 3));
        QVERIFY_THROWS_EXCEPTION(GenomeError, cantorDecode(7, 3));
        QVERIFY_THROWS_EXCEPTION(InputError, cantorEncode(std::vector<int>{0, 0, 1}));
        QVERIFY_THROWS_EXCEPTION(InputError, cantorEncode(std::vector<int>{0, 1, 3}));
    }
};

QTEST_APPLESS_MAIN(TestGenomeCantor)
#include "test_genome_cantor.moc"
