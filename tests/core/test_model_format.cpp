// The fibertree format walk (core/model/format/) against the spec's worked examples
// (docs/model-notes-sparse.md §7, numbers printed by Sparseloop) and against fibers worked by hand.
#include "model/density/density_model_factory.hpp"
#include "model/format/format_walk.hpp"
#include "model/format/rank_format_model.hpp"

#include <QtTest>

#include <array>
#include <cmath>
#include <tuple>

using namespace sparsemap;
using namespace sparsemap::model;

namespace {

using Shape = std::vector<std::int64_t>;
using Occupancies = std::vector<std::pair<double, double>>; // (metadata, payload) per rank, rank 0 first

DensitySpec spec(DensityModelKind kind, double d, int n = 0, int m = 0)
{
    DensitySpec s;
    s.model = kind;
    s.density = d;
    s.structuredN = n;
    s.structuredM = m;
    return s;
}

// Ranks from (format, fiber shape) inner -> outer, with s_r and maxfib_r derived for a plain projection.
std::vector<WalkRank> ranks(std::vector<std::pair<RankFormat, std::int64_t>> formats, int metadataBits = 0,
                            int payloadBits = 0)
{
    std::vector<WalkRank> out;
    std::int64_t below = 1;
    for (const auto& [format, fiber] : formats) {
        out.push_back({format, fiber, below, 1, metadataBits, payloadBits, fiber == 1});
        below *= fiber;
    }
    for (std::size_t r = 0; r < out.size(); ++r)
        for (std::size_t q = r + 1; q < out.size(); ++q)
            out[r].maxFibers *= out[q].fiberShape;
    return out;
}

void expectOccupancy(const std::array<RankOccupancy, kMaxWalkRanks>& got, const Occupancies& expected,
                     double tolerance = 1e-9)
{
    for (std::size_t r = 0; r < expected.size(); ++r) {
        const auto [md, pl] = expected[r];
        QVERIFY2(std::fabs(got[r].metadata - md) <= tolerance * std::max(1.0, md) &&
                     std::fabs(got[r].payload - pl) <= tolerance * std::max(1.0, pl),
                 qPrintable(QString("rank %1: (%2, %3), expected (%4, %5)")
                                .arg(r)
                                .arg(got[r].metadata, 0, 'g', 12)
                                .arg(got[r].payload, 0, 'g', 12)
                                .arg(md)
                                .arg(pl)));
    }
}

bool close(double a, double b, double tolerance)
{
    return std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b));
}

using F = RankFormat;

} // namespace

class TestModelFormat : public QObject {
    Q_OBJECT
private slots:
    void stcSmemA();
    void stcLrfA();
    void flexibleSmemB();
    void dstcLrfA();
    void formulasOnTinyFibers();
    void emptyRanksFollowTheBindingOrder();
    void expectationOverOccupancy();
    void ceilAsSparseloopRoundsIt();
    void nearDenseTileDropsItsLowestOccupancy();
    void distributionQuadrature();
    void quadratureMatchesExactSum();
    void rejectsTooManyRanks();
};

// §7.1: A 512 x 128, 2:4 fixed-structured, SMEM tile = all 65536; ranks CP K32, UOP M16, K4, M4, M8.
void TestModelFormat::stcSmemA()
{
    const auto a = makeDensityModel(spec(DensityModelKind::FixedStructured, 0.5, 2, 4), {512, 128});
    const auto smem = ranks({{F::CP, 32}, {F::UOP, 16}, {F::UOP, 4}, {F::UOP, 4}, {F::UOP, 8}}, 2, 16);
    std::array<RankOccupancy, kMaxWalkRanks> got{};
    QCOMPARE(maxFormatOccupancy(*a, smem, Shape{512, 128}, got), 32768);
    expectOccupancy(got, {{32768, 0}, {0, 2176}, {0, 160}, {0, 40}, {0, 9}}, 0);
    // Bits: 32768 CP coordinates of 2 bits + (2176 + 160 + 40 + 9) offsets of 16 bits.
    QCOMPARE(formatBits(smem, std::span(got).first(smem.size())), 32768.0 * 2 + 2385.0 * 16);
    // The distribution is a point mass, so the expectation is the same walk (format reads x8, §3.6).
    std::vector<OccupancyPoint> scratch;
    const auto e = expectedFormatOccupancy(*a, smem, Shape{512, 128}, true, got, scratch);
    expectOccupancy(got, {{32768, 0}, {0, 2176}, {0, 160}, {0, 40}, {0, 9}});
    QCOMPARE(e.data, 32768.0);
    QCOMPARE(e.nonEmptyProbability, 1.0);
}

// §7.1 LRF A: a scalar tile, CP rank 0 with f = 1, parent with metadata -> conditioned on non-empty.
void TestModelFormat::stcLrfA()
{
    const auto a = makeDensityModel(spec(DensityModelKind::FixedStructured, 0.5, 2, 4), {512, 128});
    const auto lrf = ranks({{F::CP, 1}}, 2);
    std::array<RankOccupancy, kMaxWalkRanks> got{};
    QCOMPARE(maxFormatOccupancy(*a, lrf, Shape{1, 1}, got), 1);
    expectOccupancy(got, {{1, 0}});
    std::vector<OccupancyPoint> scratch;
    auto e = expectedFormatOccupancy(*a, lrf, Shape{1, 1}, true, got, scratch);
    expectOccupancy(got, {{1, 0}}); // P(0) = P(1) = 1/2, conditioned P(1) = 1 -> rho = 1
    QCOMPARE(e.data, 1.0);
    QCOMPARE(e.nonEmptyProbability, 0.5);
    e = expectedFormatOccupancy(*a, lrf, Shape{1, 1}, false, got, scratch);
    expectOccupancy(got, {{0.5, 0}}); // the 2021 behaviour: 0.5 units
    QCOMPARE(e.data, 0.5);
}

// §7.2 SMEM B: uniform 0.44 of 1152 x 1024 (r = 519046), tile K1152 x N128 = 147456 coordinates;
// ranks B N128 (1 bit), B K32 (0 bits), UOP K36, three dummies.
void TestModelFormat::flexibleSmemB()
{
    const auto b = makeDensityModel(spec(DensityModelKind::Uniform, 0.44), {1152, 1024});
    auto smem = ranks({{F::B, 128}, {F::B, 32}, {F::UOP, 36}, {F::UOP, 1}, {F::UOP, 1}, {F::UOP, 1}});
    smem[0].metadataBits = 1;
    std::array<RankOccupancy, kMaxWalkRanks> got{};
    QCOMPARE(maxFormatOccupancy(*b, smem, Shape{1152, 128}, got), 147456); // min(147456, 519046)
    expectOccupancy(got, {{147456, 0}, {1152, 1152}, {0, 37}, {0, 0}, {0, 0}, {0, 0}}, 0);
    // Expected: P(0 | 128 of 147456) ~ 0.56^128 ~ 1e-32, so fibers are all non-empty: the same numbers
    // (format reads x16: 2359296, (18432, 18432), (0, 592)); rho = 519046 / 1179648 = 0.4400007.
    std::vector<OccupancyPoint> scratch;
    const auto e = expectedFormatOccupancy(*b, smem, Shape{1152, 128}, true, got, scratch);
    expectOccupancy(got, {{147456, 0}, {1152, 1152}, {0, 37}, {0, 0}, {0, 0}, {0, 0}}, 1e-12);
    QVERIFY(std::fabs(e.data / 147456 - 519046.0 / 1179648) < 1e-15);
}

// §7.3 DSTC LRF A: uniform 0.5 of 512 x 128 (r = 32768), tile M32 (S = 32): B M16 (1 bit), B M2 (0 bits).
void TestModelFormat::dstcLrfA()
{
    const auto a = makeDensityModel(spec(DensityModelKind::Uniform, 0.5), {512, 128});
    auto lrf = ranks({{F::B, 16}, {F::B, 2}});
    std::array<RankOccupancy, kMaxWalkRanks> got{};
    QCOMPARE(maxFormatOccupancy(*a, lrf, Shape{32, 1}, got), 32);
    expectOccupancy(got, {{32, 0}, {2, 2}}, 0);
    // Sparseloop's stats: rank-0 format reads ceil(E[md_0] * 32768) = 1048561 and fills
    // 262144 - floor(262144 (1 - rho)) = 131073, conditioned on non-empty tiles (exact support, 33 points).
    std::vector<OccupancyPoint> scratch;
    const auto e = expectedFormatOccupancy(*a, lrf, Shape{32, 1}, true, got, scratch);
    QCOMPARE(std::ceil(got[0].metadata * 32768), 1048561.0);
    QCOMPARE(262144 - std::floor(262144 * (1 - e.data / 32)), 131073.0);
    // E[md_0 | K > 0] = 32 (1 - P(0|16)) / (1 - P(0|32)) by total probability, P(0|n) by the product rule.
    long double p16 = 1, p32 = 1;
    for (int i = 0; i < 32; ++i) {
        p32 *= (32768.0L - i) / (65536.0L - i);
        if (i == 15)
            p16 = p32;
    }
    QVERIFY(std::fabs(got[0].metadata - static_cast<double>(32 * (1 - p16) / (1 - p32))) < 1e-12);
}

// A tile of S = 8 coordinates of a tensor of 8 with r = 4 nonzeros (so K = 4), ranks f0 = 4, f1 = 2:
//   P(0 | 4; 8, 4) = C(4,4) / C(8,4) = 1/70, P(0 | 1; 8, 4) = 1/2.
//   rank 1 (top, maxfib 1): fibers = 1; elements non-empty 2 (1 - 1/70) = 138/70
//     UOP (0, 1 (2 + 1) = 3); CP (2, 2) [ceil 1.97]; RLE (138/70, 138/70); B (2, 2)
//   rank 0 (maxfib 2): fibers = 2 (1 - 1/70) = 138/70; elements non-empty 4 / 2 = 2; payload -> 0
//     UOP (0, 0); CP (138/70 * 2, 0); RLE (138/70 * 2, 0); B (138/70 * 4, 0)
void TestModelFormat::formulasOnTinyFibers()
{
    const auto t = makeDensityModel(spec(DensityModelKind::Uniform, 0.5), {8});
    const double fib = 138.0 / 70;
    const std::vector<std::pair<RankFormat, Occupancies>> cases{{F::UOP, {{0, 0}, {0, 3}}},
                                                                {F::CP, {{fib * 2, 0}, {2, 2}}},
                                                                {F::RLE, {{fib * 2, 0}, {fib, fib}}},
                                                                {F::B, {{fib * 4, 0}, {2, 2}}},
                                                                {F::U, {{0, 0}, {0, 0}}}};
    std::array<RankOccupancy, kMaxWalkRanks> got{};
    for (const auto& [format, expected] : cases) {
        walkFormat(*t, ranks({{format, 4}, {format, 2}}), 8, 4, got);
        expectOccupancy(got, expected, 1e-15);
    }
    // A trivial rank above rank 0 is (0, 0); rank 0 with f = 1 is evaluated (§3.4).
    walkFormat(*t, ranks({{F::CP, 1}, {F::CP, 8}, {F::UOP, 1}}), 8, 4, got);
    expectOccupancy(got, {{4, 0}, {4, 4}, {0, 0}}, 1e-15); // rank 1: ceil(8 (1 - 1/2)) = 4
}

// Sparseloop's metadata walk (tiling-tile-info.cpp): a rank of fiber 1 is empty unless it is where the
// binding starts (rank 0 inner-to-outer, the top rank outer-to-inner), and the innermost rank left has
// no payload. 16 elements, 8 nonzero; UOP ranks of fibers 1, 1, 8, 2 (inner to outer): rank 2 has
// 2 (1 - C(8,8) / C(16,8)) = 2 (1 - 1/12870) non-empty fibers of 9 offsets, the top one fiber of 3.
void TestModelFormat::emptyRanksFollowTheBindingOrder()
{
    const auto t = makeDensityModel(spec(DensityModelKind::Uniform, 0.5), {16});
    const auto uop = ranks({{F::UOP, 1}, {F::UOP, 1}, {F::UOP, 8}, {F::UOP, 2}});
    std::array<RankOccupancy, kMaxWalkRanks> got{};
    walkFormat(*t, uop, 16, 8, got, RankOrder::InnerToOuter);
    expectOccupancy(got, {{0, 0}, {0, 0}, {0, 2 * (1 - 1.0 / 12870) * 9}, {0, 3}}, 1e-12);
    walkFormat(*t, uop, 16, 8, got, RankOrder::OuterToInner);
    expectOccupancy(got, {{0, 0}, {0, 0}, {0, 0}, {0, 3}}, 1e-12);
}

// Tile of 4 of the same tensor: K = 0..4 with C(4,k) C(4,4-k) / 70 = 1, 16, 36, 16, 1 (/70). One CP rank
// f = 4 holds K coordinates, so E = 2 unconditioned and 2 / (1 - 1/70) = 140/69 given non-empty.
void TestModelFormat::expectationOverOccupancy()
{
    const auto t = makeDensityModel(spec(DensityModelKind::Uniform, 0.5), {8});
    std::array<RankOccupancy, kMaxWalkRanks> got{};
    std::vector<OccupancyPoint> scratch;
    auto e = expectedFormatOccupancy(*t, ranks({{F::CP, 4}}), Shape{4}, false, got, scratch);
    expectOccupancy(got, {{2, 0}}, 1e-14);
    QVERIFY(std::fabs(e.data - 2) < 1e-14);
    e = expectedFormatOccupancy(*t, ranks({{F::CP, 4}}), Shape{4}, true, got, scratch);
    expectOccupancy(got, {{140.0 / 69, 0}}, 1e-14);
    QVERIFY(std::fabs(e.nonEmptyProbability - 69.0 / 70) < 1e-15);
}

// Sparseloop takes a CP or B fiber's nonzeros as ceil(f (1 - P(element empty))) in plain double: a
// fiber of 31 in a tile of 31 holding k has P = (31 - k) / 31, and 31 (1 - 28/31) = 3.0000000000000009
// rounds up to 4, while k = 4 gives exactly 4 (worked in double by hand; the oracle's format reads on
// corpus design r0012, PE buffer Z: 298152 for 267178 data reads, come from exactly this). RLE is not
// rounded.
void TestModelFormat::ceilAsSparseloopRoundsIt()
{
    const double elementEmpty3 = 28.0 / 31, elementEmpty4 = 27.0 / 31;
    QCOMPARE(31 * (1 - elementEmpty3), 3.0000000000000009);
    QCOMPARE(rankFormatOccupancy(F::CP, 31, 1, 0, elementEmpty3).metadata, 4.0);
    QCOMPARE(rankFormatOccupancy(F::B, 31, 1, 0, elementEmpty3).payload, 4.0);
    QCOMPARE(rankFormatOccupancy(F::CP, 31, 1, 0, elementEmpty4).metadata, 4.0);
    QCOMPARE(rankFormatOccupancy(F::RLE, 31, 1, 0, elementEmpty3).metadata, 31 * (1 - elementEmpty3));
}

// A tile that cannot be empty: 8 coordinates holding 7 nonzeros, tile of 4 holds 3 (P = C(7,3) C(1,1)
// / C(8,4) = 35/70) or 4 (35/70). Under a parent with metadata Sparseloop drops the lowest occupancy as
// "empty" all the same (its minimum density (n - N + r) / n wraps around in unsigned arithmetic and
// the minimum occupancy comes out 0): the conditioned tile holds 4, non-empty w.p. 1/2 (oracle corpus
// r1384: a GLB output tile of 32768 from 65535 nonzeros in 65536, 0.50 utilized instances). The whole
// tensor as the tile drops nothing; a tile that can be empty drops occupancy 0, P = 1/70 at 4 of 8.
void TestModelFormat::nearDenseTileDropsItsLowestOccupancy()
{
    const auto t = makeDensityModel(spec(DensityModelKind::Uniform, 0.875), {8});
    std::array<RankOccupancy, kMaxWalkRanks> got{};
    std::vector<OccupancyPoint> scratch;
    auto e = expectedFormatOccupancy(*t, ranks({{F::CP, 4}}), Shape{4}, true, got, scratch);
    QVERIFY(std::fabs(e.nonEmptyProbability - 0.5) < 1e-15);
    QVERIFY(std::fabs(e.data - 4) < 1e-14);
    expectOccupancy(got, {{4, 0}}, 1e-14);
    e = expectedFormatOccupancy(*t, ranks({{F::CP, 8}}), Shape{8}, true, got, scratch);
    QCOMPARE(e.nonEmptyProbability, 1.0);
    QVERIFY(std::fabs(e.data - 7) < 1e-14);
    const auto half = makeDensityModel(spec(DensityModelKind::Uniform, 0.5), {8});
    const std::int64_t four = 4;
    const auto dropped = half->droppedAsEmpty(TileShape(&four, 1));
    QCOMPARE(dropped.occupancy, std::int64_t{0});
    QVERIFY(std::fabs(dropped.probability - 1.0 / 70) < 1e-16);
}

// The bounded expectation (default 33 points) against the exact sum over the whole support for the
// smooth parts of a 3-rank walk (RLE and B metadata, UOP offsets); sigma of K = 39, 14 and 10.
void TestModelFormat::quadratureMatchesExactSum()
{
    const auto b = makeDensityModel(spec(DensityModelKind::Uniform, 0.05), {4096, 1024});
    std::array<RankOccupancy, kMaxWalkRanks> fast{}, exact{};
    std::vector<OccupancyPoint> scratch;
    for (const Shape& tile : {Shape{1024, 32}, Shape{256, 16}, Shape{64, 32}}) {
        const auto walk = ranks({{F::RLE, 16}, {F::B, 64}, {F::UOP, tile[0] * tile[1] / 1024}});
        expectedFormatOccupancy(*b, walk, tile, true, fast, scratch);
        QVERIFY(scratch.size() <= 16);
        expectedFormatOccupancy(*b, walk, tile, true, exact, scratch, 1 << 20);
        QVERIFY(scratch.size() > 100);
        for (const auto& [quadrature, sum] :
             {std::pair{fast[0].metadata, exact[0].metadata}, std::pair{fast[1].metadata, exact[1].metadata},
              std::pair{fast[2].payload, exact[2].payload}})
            QVERIFY2(std::fabs(quadrature - sum) <= 1e-9 * sum,
                     qPrintable(QString::number(quadrature / sum - 1)));
    }
}

// DensityModel::distribution's quadrature, which bounds the cost of the expectation: wide (sigma 65,
// sampled pmf), medium (sigma 20) and narrow (sigma 4, exact support of ~60 points) tiles; mean and
// variance exact, a steep smooth function (1 - K/n)^16 to the documented accuracy.
void TestModelFormat::distributionQuadrature()
{
    for (const auto& [n, tile, tolerance] : std::vector<std::tuple<std::int64_t, std::int64_t, double>>{
             {1000000, 20000, 1e-12}, {100000, 2000, 1e-12}, {10000, 80, 1e-5}}) {
        const auto model = makeDensityModel(spec(DensityModelKind::Uniform, 0.3), {n});
        const std::int64_t r = model->nnz();
        long double z = 0, m1 = 0, m2 = 0, smooth = 0; // exact, from a normalized lgamma pmf
        for (std::int64_t k = 0; k <= tile; ++k) {
            const long double p =
                std::exp(std::lgamma(r + 1.0L) - std::lgamma(k + 1.0L) - std::lgamma(r - k + 1.0L) +
                         std::lgamma(n - r + 1.0L) - std::lgamma(tile - k + 1.0L) -
                         std::lgamma(n - r - tile + k + 1.0L) - std::lgamma(n + 1.0L) +
                         std::lgamma(tile + 1.0L) + std::lgamma(n - tile + 1.0L));
            z += p, m1 += p * k, m2 += p * k * k, smooth += p * std::pow(1 - k / (long double)tile, 16);
        }
        std::vector<OccupancyPoint> points;
        model->distribution(Shape{tile}, points);
        QVERIFY(points.size() <= 16);
        double q[4] = {};
        for (const auto& p : points) {
            QVERIFY(p.probability >= 0);
            q[0] += p.probability, q[1] += p.probability * p.occupancy;
            q[2] += p.probability * p.occupancy * p.occupancy;
            q[3] += p.probability * std::pow(1 - p.occupancy / (double)tile, 16);
        }
        QVERIFY(close(q[0], 1, 1e-12));
        QVERIFY(close(q[1], static_cast<double>(m1 / z), 1e-12));
        QVERIFY(close(q[2] - q[1] * q[1], static_cast<double>(m2 / z - (m1 / z) * (m1 / z)), 1e-9));
        QVERIFY(close(q[3], static_cast<double>(smooth / z), tolerance));
    }
}

void TestModelFormat::rejectsTooManyRanks()
{
    const auto t = makeDensityModel(spec(DensityModelKind::Uniform, 0.5), {8});
    std::vector<WalkRank> many(kMaxWalkRanks + 1);
    std::array<RankOccupancy, kMaxWalkRanks + 1> out{};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, walkFormat(*t, many, 8, 4, out));
}

QTEST_APPLESS_MAIN(TestModelFormat)
#include "test_model_format.moc"
