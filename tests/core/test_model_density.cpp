// Density models (core/model/density/) against brute force: every expected value is computed here from
// first principles (enumerating placements, tiles or subsets) or taken from the spec's worked examples
// (docs/model-notes-sparse.md §2, §7), never from the models themselves.
#include "io/nonzero_pattern_io.hpp"
#include "model/density/actual_model.hpp"
#include "model/density/banded_model.hpp"
#include "model/density/density_model_factory.hpp"
#include "util/error.hpp"

#include <QtTest>

#include <cmath>
#include <functional>
#include <map>
#include <thread>
#include <tuple>

using namespace sparsemap;
using namespace sparsemap::model;

namespace {

using Shape = std::vector<std::int64_t>;
using Histogram = std::map<std::int64_t, double>; // occupancy -> probability
using Matrix = std::vector<std::vector<int>>;

const std::string kDataDir = std::string(SPARSEMAP_SOURCE_DIR) + "/tests/data/actual/";

DensitySpec spec(DensityModelKind kind, double d, int n = 0, int m = 0, std::int64_t bandwidth = 0)
{
    DensitySpec s;
    std::tie(s.model, s.density, s.structuredN, s.structuredM, s.bandwidth) =
        std::tuple(kind, d, n, m, bandwidth);
    return s;
}

DensitySpec uniform(double d)
{
    return spec(DensityModelKind::Uniform, d);
}
DensitySpec banded(int bandwidth, double d = 1)
{
    return spec(DensityModelKind::Banded, d, 0, 0, bandwidth);
}

bool close(double a, double b, double tolerance = 1e-12)
{
    return std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b));
}

double at(const Histogram& h, std::int64_t k)
{
    const auto it = h.find(k);
    return it == h.end() ? 0.0 : it->second;
}

Histogram normalized(const std::map<std::int64_t, std::int64_t>& counts)
{
    std::int64_t total = 0;
    for (const auto& [k, n] : counts)
        total += n;
    Histogram h;
    for (const auto& [k, n] : counts)
        h[k] = static_cast<double>(n) / static_cast<double>(total);
    return h;
}

// Calls f(subset bitmask) for every r-subset of n positions.
void forEachSubset(int n, int r, const std::function<void(unsigned)>& f)
{
    for (unsigned mask = 0; mask < (1u << n); ++mask)
        if (std::popcount(mask) == r)
            f(mask);
}

// Occupancies of the grid of h x w tiles (edge tiles padded) of a 0/1 matrix, added to `counts`.
void countTiles(const Matrix& m, std::int64_t h, std::int64_t w, std::map<std::int64_t, std::int64_t>& counts)
{
    const auto rows = static_cast<std::int64_t>(m.size()), cols = static_cast<std::int64_t>(m[0].size());
    for (std::int64_t ti = 0; ti < rows; ti += h)
        for (std::int64_t tj = 0; tj < cols; tj += w) {
            std::int64_t k = 0;
            for (std::int64_t i = ti; i < std::min(rows, ti + h); ++i)
                for (std::int64_t j = tj; j < std::min(cols, tj + w); ++j)
                    k += m[i][j];
            ++counts[k];
        }
}

Histogram tiles(const Matrix& m, std::int64_t h, std::int64_t w)
{
    std::map<std::int64_t, std::int64_t> counts;
    countTiles(m, h, w, counts);
    return normalized(counts);
}

Matrix bandMatrix(int rows, int cols, int b)
{
    Matrix m(rows, std::vector<int>(cols));
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            m[i][j] = std::abs(i - j) <= b;
    return m;
}

// Every query of a model for one tile shape against a brute-force histogram. The confidences are chosen
// so that c * (number of cases) is never an integer: no ties between the CDF and c.
void checkAgainst(const DensityModel& model, const Shape& shape, const Histogram& h)
{
    std::int64_t volume = 1;
    for (const std::int64_t e : shape)
        volume *= e;
    double mean = 0, cdf = 0;
    for (std::int64_t k = 0; k <= volume; ++k) {
        mean += static_cast<double>(k) * at(h, k);
        QVERIFY(close(model.probability(k, shape), at(h, k)));
    }
    QVERIFY(close(model.probabilityEmpty(shape), at(h, 0)));
    QCOMPARE(model.minOccupancy(shape), h.begin()->first);
    QCOMPARE(model.maxOccupancy(shape), h.rbegin()->first);
    auto it = h.begin();
    for (const double c : {0.0123, 0.3719, 0.9137, 0.99917}) { // brute-force quantile: first CDF >= c
        while ((cdf + it->second) < c)
            cdf += (it++)->second;
        QCOMPARE(model.maxOccupancy(shape, c), it->first);
    }
    QVERIFY(close(model.expectedOccupancy(shape), mean));
    std::vector<OccupancyPoint> points;
    model.distribution(shape, points, 1000);
    QCOMPARE(points.size(), h.size());
    for (const auto& p : points)
        QVERIFY(close(p.probability, at(h, p.occupancy)));
}

void expectInputError(const std::string& fragment, const std::function<void()>& f)
{
    try {
        f();
        QFAIL(("no InputError, expected " + fragment).c_str());
    } catch (const InputError& e) {
        QVERIFY2(std::string(e.what()).find(fragment) != std::string::npos, e.what());
    }
}

} // namespace

class TestModelDensity : public QObject {
    Q_OBJECT
private slots:
    void hypergeometricMatchesEnumeration();
    void hypergeometricScalarsAndCounts();
    void hypergeometricEmptyIsAccurateAtScale();
    void hypergeometricEmptyIsExactWhenRemembered();
    void hypergeometricSparseloopSum();
    void fixedStructured();
    void bandedMatchesBruteForce();
    void bandedInBandDensity();
    void actualData();
    void actualDataErrors();
    void cachesAreThreadSafe();
};

void TestModelDensity::hypergeometricMatchesEnumeration()
{
    // Every placement of r nonzeros among n coordinates; by symmetry the tile is the first `tile` ones.
    const auto outer = makeDensityModel(uniform(0.3), {1000}); // constrained queries
    for (int n = 10; n <= 12; ++n)
        for (int r = 3; r <= 5; ++r) {
            const auto model = makeDensityModel(uniform(r / double(n)), {n});
            QCOMPARE(model->nnz(), r);
            for (int tile = 1; tile <= n; ++tile) {
                std::map<std::int64_t, std::int64_t> counts;
                forEachSubset(n, r, [&](unsigned m) { ++counts[std::popcount(m & ((1u << tile) - 1))]; });
                const Histogram h = normalized(counts);
                checkAgainst(*model, {tile}, h);
                for (std::int64_t k = 0; k <= tile; ++k)
                    QVERIFY(close(outer->probabilityGiven(k, tile, n, r), at(h, k)));
                QVERIFY(close(outer->probabilityEmptyGiven(tile, n, r), at(h, 0)));
            }
        }
}

void TestModelDensity::hypergeometricScalarsAndCounts()
{
    // Spec §2.1: B 1024 x 128 at 0.56 -> r = ceil(73400.32) = 73401; a scalar is empty with 1 - r/N.
    const auto b = makeDensityModel(uniform(0.56), {1024, 128});
    QCOMPARE(b->nnz(), 73401);
    QCOMPARE(b->name(), std::string_view("hypergeometric"));
    QCOMPARE(b->probabilityEmpty(Shape{1, 1}), static_cast<double>((131072.0L - 73401) / 131072));
    QVERIFY(close(b->density(), 73401.0 / 131072));
    // §7.2: 0.44 of 1152 x 1024 -> 519046; 0.7 of 10 is exactly 7 despite 0.7's binary representation.
    QCOMPARE(makeDensityModel(uniform(0.44), {1152, 1024})->nnz(), 519046);
    QCOMPARE(makeDensityModel(uniform(0.7), {10})->nnz(), 7);
    // Worst case: the whole tile may be full unless the tensor has fewer nonzeros (§3.5).
    QCOMPARE(b->maxOccupancy(Shape{1024, 64}), 65536);
    QCOMPARE(b->maxOccupancy(Shape{1024, 128}), 73401);
}

void TestModelDensity::hypergeometricSparseloopSum()
{
    // Sparseloop's expected occupancy with its rounding noise (representation-analyzer.cpp,
    // CalculateExpectedOccupancy: boost's pdf x occupancy summed upwards from 0, conditioned by
    // dividing by (1 - the first) / 1). The values come from that loop transcribed alone against
    // boost 1.74, not from this code. r6024's GLB tile of B (docs/oracle.md): 48 of 192 coordinates,
    // 95 nonzeros, not 23.75, so that 192 x (1 - it / 48) floors to 96 as in Sparseloop.
    const auto b = makeDensityModel(uniform(95 / 192.0), {192});
    QCOMPARE(b->nnz(), 95);
    QCOMPARE(b->sparseloopExpectedOccupancy(Shape{48}, false).value(), 23.750000000000004);
    QCOMPARE(std::floor(192 * (1 - *b->sparseloopExpectedOccupancy(Shape{48}, false) / 48)), 96.0);
    // Conditioned on a non-empty tile: 40 of 160 coordinates, 30 nonzeros.
    const auto c = makeDensityModel(uniform(30 / 160.0), {160});
    QCOMPARE(c->sparseloopExpectedOccupancy(Shape{40}, true).value(), 7.5004632154732764);
    // The whole tensor (mm3's A at 0.764): boost's pdf of r is not exactly 1.
    const auto a = makeDensityModel(uniform(0.764), {532900});
    QCOMPARE(a->nnz(), 407136);
    QCOMPARE(a->sparseloopExpectedOccupancy(Shape{532900}, false).value(), 407135.99999999726);
    // Dense tensors (exported fixed-structured) and sums too costly to repeat give nothing.
    QVERIFY(!makeDensityModel(uniform(1.0), {192})->sparseloopExpectedOccupancy(Shape{48}, false));
    QVERIFY(!a->sparseloopExpectedOccupancy(Shape{1460}, true));
    // boost's Lanczos path (N >= 104729) costs up to milliseconds a call: only windows of a few points
    // (whole-tensor tiles) are summed there. mm9's Q (12288 x 49152 at 0.5) in tiles of 64: ~100 points
    // around the mode, skipped (as first merged, such sums made edge mm9's searches 15x slower).
    const auto q = makeDensityModel(uniform(0.5), {12288, 49152});
    QVERIFY(!q->sparseloopExpectedOccupancy(Shape{8, 8}, false));
}

void TestModelDensity::hypergeometricEmptyIsAccurateAtScale()
{
    // P(0 | n) against the product formula in long double, up to 1e9 coordinates (mm10 is 6e8).
    for (const std::int64_t big : {131072LL, 603979776LL, 1000000000LL})
        for (const double d : {1e-5, 1e-3, 0.01, 0.3})
            for (const std::int64_t n : {2LL, 17LL, 100LL, 1000LL, 30000LL}) {
                const auto model = makeDensityModel(uniform(d), {big});
                const std::int64_t r = model->nnz();
                long double product = 1;
                for (std::int64_t i = 0; i < n; ++i)
                    product *= static_cast<long double>(big - r - i) / (big - i);
                if (product < 1e-250L)
                    continue;
                QVERIFY2(close(model->probabilityEmpty(Shape{n}), static_cast<double>(product), 1e-12),
                         qPrintable(QString("N=%1 d=%2 n=%3").arg(big).arg(d).arg(n)));
                // P(k) by the ratio recurrence from P(0) (independent of the saddle-point pmf).
                long double p = product;
                for (std::int64_t k = 0; k < std::min<std::int64_t>(n, 40); ++k) {
                    QVERIFY(close(model->probability(k, Shape{n}), static_cast<double>(p), 1e-11));
                    p *= static_cast<long double>(r - k) * (n - k) / ((k + 1.0L) * (big - r - n + k + 1));
                }
            }
}

void TestModelDensity::hypergeometricEmptyIsExactWhenRemembered()
{
    // P(0) is remembered per thread in a direct-mapped table of 16,384 entries: 3 x 120 x 120 triples
    // (tile, nonzeros, population), more than it holds, asked twice in opposite orders, give the bits
    // of the first ask each time, and the product formula in long double.
    const auto model = makeDensityModel(uniform(0.5), {1 << 20});
    std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>> triples;
    for (const std::int64_t big : {5000LL, 70001LL, 1048576LL})
        for (std::int64_t n = 2; n < 122; ++n)
            for (std::int64_t r = 2; r < 122; ++r)
                triples.emplace_back(n, r, big);
    std::vector<double> first;
    for (const auto& [n, r, big] : triples) {
        first.push_back(model->probabilityEmptyGiven(n, big, r));
        long double product = 1;
        for (std::int64_t i = 0; i < std::min(n, r); ++i)
            product *= static_cast<long double>(big - std::max(n, r) - i) / (big - i);
        QVERIFY2(std::fabs(first.back() - static_cast<double>(product)) <=
                     1e-12 * static_cast<double>(product),
                 qPrintable(QString("n=%1 r=%2 N=%3").arg(n).arg(r).arg(big)));
    }
    for (std::size_t i = triples.size(); i-- > 0;) {
        const auto& [n, r, big] = triples[i];
        QCOMPARE(model->probabilityEmptyGiven(n, big, r), first[i]);
    }
}

void TestModelDensity::fixedStructured()
{
    // Spec §2.2, 2:4 (as n:m and as the number 0.5): a scalar is empty with 1/2, tiles >= 2 never are, a
    // 3-tile holds 1 or 2 with 1/2 each, a 32-fiber exactly 16; constrained: density K / S (§7.1).
    for (const auto& s :
         {spec(DensityModelKind::FixedStructured, 0.5, 2, 4), spec(DensityModelKind::FixedStructured, 0.5)}) {
        const auto a = makeDensityModel(s, {512, 128});
        QCOMPARE(a->name(), std::string_view("fixed-structured"));
        checkAgainst(*a, {1, 1}, {{0, 0.5}, {1, 0.5}});
        checkAgainst(*a, {1, 3}, {{1, 0.5}, {2, 0.5}});
        checkAgainst(*a, {1, 32}, {{16, 1.0}});
        for (std::int64_t n = 2; n <= 64; ++n)
            QCOMPARE(a->probabilityEmpty(Shape{1, n}), 0.0);
        QCOMPARE(a->maxOccupancy(Shape{512, 128}), 32768); // §7.1 SMEM A
        QCOMPARE(a->probabilityEmptyGiven(1, 65536, 32768), 0.5);
        QCOMPARE(a->probabilityEmptyGiven(32, 65536, 32768), 0.0);
        QCOMPARE(a->probabilityEmptyGiven(1, 1, 1), 0.0);
        QCOMPARE(a->probabilityGiven(1, 2, 3, 1), 2.0 / 3);
    }
    checkAgainst(*makeDenseModel({7, 5}), {3, 4}, {{12, 1.0}});
    QCOMPARE(makeDensityModel(spec(DensityModelKind::FixedStructured, 0.3), {10})->nnz(), 3);
}

void TestModelDensity::bandedMatchesBruteForce()
{
    for (int b = 0; b <= 2; ++b) {
        const auto model = makeDensityModel(banded(b), {8, 8});
        const auto m = bandMatrix(8, 8, b);
        QCOMPARE(model->nnz(), 8 + 2 * (8 * b - b * (b + 1) / 2)); // D + 2 sum_{u<=b} (D - u)
        for (const std::int64_t h : {1, 2, 4, 8})
            for (const std::int64_t w : {1, 2, 4, 8})
                checkAgainst(*model, {h, w}, tiles(m, h, w));
    }
    // Non-square, non-dividing shapes and tall matrices, where the periodic shortcut and the edges matter.
    for (const auto& [rows, cols, b] :
         std::vector<std::tuple<int, int, int>>{{300, 280, 5}, {90, 40, 3}, {9, 7, 2}}) {
        const auto model = makeDensityModel(banded(b), {rows, cols});
        const auto m = bandMatrix(rows, cols, b);
        for (const auto& [h, w] :
             std::vector<std::pair<int, int>>{{6, 4}, {7, 3}, {5, 10}, {1, 1}, {4, 6}, {2, 7}})
            checkAgainst(*model, {h, w}, tiles(m, h, w));
    }
    expectInputError("2-rank", [] { makeDensityModel(banded(1), {4, 4, 4}); });
}

void TestModelDensity::bandedInBandDensity()
{
    // 6 x 6, bandwidth 1: 16 band points, half of them (8) nonzero: average over all C(16, 8) subsets.
    const auto model = makeDensityModel(banded(1, 0.5), {6, 6});
    QCOMPARE(model->nnz(), 8);
    std::vector<std::pair<int, int>> band; // the 16 band points
    for (int i = 0; i < 36; ++i)
        if (std::abs(i / 6 - i % 6) <= 1)
            band.push_back({i / 6, i % 6});
    for (const auto& [h, w] : std::vector<std::pair<int, int>>{{2, 2}, {3, 3}, {2, 3}, {1, 6}, {4, 4}}) {
        std::map<std::int64_t, std::int64_t> counts;
        forEachSubset(16, 8, [&](unsigned mask) {
            Matrix m(6, std::vector<int>(6));
            for (int i = 0; i < 16; ++i)
                m[band[i].first][band[i].second] = (mask >> i) & 1;
            countTiles(m, h, w, counts);
        });
        checkAgainst(*model, {h, w}, normalized(counts));
    }
}

void TestModelDensity::actualData()
{
    const Matrix small{{1, 1, 0, 0, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 0, 0, 1}, {0, 0, 0, 1, 1, 0, 0, 0},
                       {1, 0, 0, 0, 0, 1, 0, 0}, {0, 1, 0, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 1, 1, 0, 0}};
    for (const char* file : {"small.mtx", "small_mask.txt"}) {
        DensitySpec actual = spec(DensityModelKind::Actual, 1.0);
        actual.resolvedFile = kDataDir + file;
        loadActualData(actual);
        const auto model = makeDensityModel(actual, {6, 8});
        QCOMPARE(model->nnz(), 12); // explicit zero dropped, duplicate counted once
        QCOMPARE(model->name(), std::string_view("actual"));
        for (const std::int64_t h : {1, 2, 3, 4, 6})
            for (const std::int64_t w : {1, 2, 3, 4, 8})
                checkAgainst(*model, {h, w}, tiles(small, h, w));
    }
    // (1,1) (3,1)+(1,3) (4,2)+(2,4) (4,4)
    const ActualModel symmetric({4, 4}, readNonzeroPattern(kDataDir + "symmetric.mtx"));
    QCOMPARE(symmetric.pattern().nonzeros, (std::vector<std::int64_t>{0, 2, 7, 8, 13, 15}));
    const ActualModel array({2, 3}, readNonzeroPattern(kDataDir + "array.mtx")); // [[1 0 5] [0 2 0]]
    QCOMPARE(array.pattern().nonzeros, (std::vector<std::int64_t>{0, 2, 4}));
    const ActualModel column({6},
                             NonzeroPattern{"column", 6, 1, {1, 4}, 1}); // a 1-D tensor from a 6 x 1 file
    QCOMPARE(column.probability(1, Shape{3}), 1.0);
}

void TestModelDensity::actualDataErrors()
{
    const auto fails = [](const std::string& file, std::vector<std::int64_t> extents,
                          const std::string& what) {
        // As the model sees a file: read once by io, errors kept until the model needs the pattern.
        DensitySpec actual = spec(DensityModelKind::Actual, 1.0);
        actual.resolvedFile = kDataDir + file;
        loadActualData(actual);
        expectInputError(what, [=] { makeDensityModel(actual, extents); });
    };
    fails("missing.mtx", {3, 3}, "missing.mtx: cannot open");
    fails("bad_line.mtx", {3, 3}, "bad_line.mtx:4:3: expected `row column value`");
    fails("bad_range.mtx", {3, 3}, "bad_range.mtx:4:1: entry (4, 2) is outside");
    fails("short.mtx", {3, 3}, "short.mtx:4: the file ends after 2 of 3 entries");
    fails("small.mtx", {8, 6}, "small.mtx:4: the file holds a 6 x 8 matrix");
    fails("small_mask.txt", {5, 8}, "small_mask.txt:2: the file holds a 6 x 8 matrix");
    fails("bad_token_mask.txt", {2, 3}, "bad_token_mask.txt:2:5: mask entries must be 0 or 1");
    fails("ragged_mask.txt", {3, 3}, "ragged_mask.txt:3: mask row has 2 entries");
    fails("small.mtx", {6, 8, 1}, "1 or 2 ranks");
}

void TestModelDensity::cachesAreThreadSafe()
{
    const auto model = makeDensityModel(banded(3), {96, 96});
    const auto m = bandMatrix(96, 96, 3);
    std::vector<std::thread> threads;
    std::vector<int> failures(4, 0);
    for (int t = 0; t < 4; ++t) // every thread builds shapes the others are building or reading
        threads.emplace_back([&, t] {
            for (std::int64_t h = 1; h <= 12; ++h)
                for (std::int64_t w = 1 + t; w <= 12; ++w)
                    failures[t] += !close(model->probabilityEmpty(Shape{h, w}), at(tiles(m, h, w), 0));
        });
    for (auto& t : threads)
        t.join();
    QCOMPARE(failures, std::vector<int>(4, 0));
}

QTEST_APPLESS_MAIN(TestModelDensity)
#include "test_model_density.moc"
