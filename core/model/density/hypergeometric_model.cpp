#include "model/density/hypergeometric_model.hpp"

#include "model/density/hypergeometric_math.hpp"
#include "model/density/occupancy_quadrature.hpp"

#include <boost/math/distributions/hypergeometric.hpp>
#include <boost/math/special_functions/binomial.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>

namespace sparsemap::model {

HypergeometricModel::HypergeometricModel(std::vector<std::int64_t> extents, std::int64_t nnz)
    : DensityModel(std::move(extents), nnz)
{
}

double HypergeometricModel::probability(std::int64_t k, TileShape shape) const
{
    return detail::hypergeometricPmf(k, tileVolume(shape), nnz(), volume());
}

double HypergeometricModel::probabilityEmpty(TileShape shape) const
{
    return detail::hypergeometricEmpty(tileVolume(shape), nnz(), volume());
}

namespace {

// Sparseloop's minimum occupancy of a tile of n coordinates (DataMovementInfo::
// GetMinDataTileOccupancy over HypergeometricDistribution::GetMinTileDensity) with its arithmetic:
// n - N in unsigned 64 bits, the rest in double, and the double converted back to uint64 as gcc does
// on x86-64 (subtract 2^63 above it, truncate, flip the top bit: 2^64 and above give 0).
std::uint64_t sparseloopMinOccupancy(std::uint64_t n, std::uint64_t N, double r)
{
    double minDensity = 0;
    if (!(static_cast<double>(n) <= static_cast<double>(N) - r))
        minDensity = (static_cast<double>(n - N) + r) / static_cast<double>(n);
    const double m = std::floor(minDensity * static_cast<double>(n));
    constexpr double kTwo63 = 9223372036854775808.0;
    if (!(m >= 0))
        return 0;
    if (m < kTwo63)
        return static_cast<std::uint64_t>(m);
    const double high = m - kTwo63;
    if (!(high < kTwo63))
        return 0; // the truncation overflows to 0x8000...0, and the top bit flips back to 0
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(high)) ^ (std::uint64_t{1} << 63);
}

// Sparseloop's HypergeometricDistribution::GetProbability(tile n, k): 0 outside the support, else
// boost's pdf of hypergeometric_distribution<double>(r, n, N) (whose constructor takes unsigned),
// and when boost throws, CalculateProbability's ratio of long double binomials.
double sparseloopPdf(std::uint64_t k, std::uint64_t n, std::uint64_t r, std::uint64_t N)
{
    if (((n + r > N) && (k < n + r - N)) || (k > r))
        return 0;
    const boost::math::hypergeometric_distribution<double> distribution(
        static_cast<unsigned>(r), static_cast<unsigned>(n), static_cast<unsigned>(N));
    try {
        return boost::math::pdf(distribution, k);
    } catch (const std::exception&) {
        using boost::math::binomial_coefficient;
        const long double rChooseK =
            binomial_coefficient<long double>(static_cast<unsigned>(r), static_cast<unsigned>(k));
        const long double rest =
            binomial_coefficient<long double>(static_cast<unsigned>(N - r), static_cast<unsigned>(n - k));
        const long double all =
            binomial_coefficient<long double>(static_cast<unsigned>(N), static_cast<unsigned>(n));
        return static_cast<double>(static_cast<double>(rChooseK * rest) / all);
    }
}

// Estimated cost of one boost pdf call, in ~0.1 us: a factorial table up to N = 170, prime
// factorisation below the largest prime of its table (104729; 0.035-0.07 N us measured). Above,
// boost's Lanczos path costs from ~3 us to ~4 ms a call depending on n and N (measured on N = 1e6
// and 6e8), in no way cheap to predict: priced at a quarter of the budget, the sum is attempted
// there only over windows of at most 4 points (sigma <= 1/24: tiles that are (nearly) the whole
// tensor), which a search meets once per tensor, not once per tile volume.
double pdfCost(std::int64_t N)
{
    if (N <= 170)
        return 1;
    if (N < 104729)
        return static_cast<double>(N);
    return 5000;
}

constexpr double kExactSumBudget = 20000;

} // namespace

std::optional<double> HypergeometricModel::sparseloopExpectedOccupancy(TileShape shape,
                                                                       bool conditionOnNonEmpty) const
{
    const DistributionCache::Key key{tileVolume(shape), conditionOnNonEmpty ? 1 : 0, 0};
    thread_local std::vector<OccupancyPoint> memo;
    if (m_sparseloopSums.find(key, memo) && memo.size() == 1)
        return memo[0].occupancy ? std::optional<double>(memo[0].probability) : std::nullopt;
    const auto sum = sparseloopSum(shape, conditionOnNonEmpty);
    m_sparseloopSums.insert(key, {OccupancyPoint{sum ? 1 : 0, sum.value_or(0.0)}});
    return sum;
}

std::optional<double> HypergeometricModel::sparseloopSum(TileShape shape, bool conditionOnNonEmpty) const
{
    // Sparseloop (representation-analyzer.cpp, CalculateExpectedOccupancy) queries every occupancy
    // from its minimum (sparseloopMinOccupancy) to min(n, r), keeps the non-zero probabilities, and,
    // under a parent with metadata and a minimum of 0, divides them by (1 - the first of them) / 1 and
    // drops that first one; then total += p x occupancy in ascending order. Points whose pdf is below
    // e^-72 of the mode's (and all their sum) lie far below half an ulp of the partial sums they meet,
    // so the sum runs over the rest only: it is Sparseloop's double unless a partial sum sits within
    // ~1e-31 relative of a rounding boundary.
    const std::int64_t n = tileVolume(shape), r = nnz(), N = volume();
    if (n <= 0 || r >= N || N >= (std::int64_t{1} << 31))
        return std::nullopt; // a dense tensor is exported fixed-structured; boost takes unsigned
    const std::uint64_t lowest = sparseloopMinOccupancy(
        static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(N), static_cast<double>(r));
    const std::int64_t hi = std::min(n, r);
    if (lowest > static_cast<std::uint64_t>(hi))
        return 0.0; // no occupancy at all
    const std::int64_t first =
        std::max<std::int64_t>(static_cast<std::int64_t>(lowest), std::max<std::int64_t>(0, n + r - N));
    const double cost = pdfCost(N);
    // The significant window around the mode, found with the model's own pmf.
    const double sigma = std::sqrt(detail::hypergeometricVariance(n, r, N));
    if ((24 * sigma + 3) * cost > kExactSumBudget)
        return std::nullopt;
    const std::int64_t mode =
        std::clamp(static_cast<std::int64_t>(std::floor((double(n) + 1) * (double(r) + 1) / (double(N) + 2))),
                   first, hi);
    const long double top = detail::hypergeometricLogPmf(mode, n, r, N);
    constexpr long double kCut = 72;
    std::int64_t from = mode, to = mode;
    while (from > first && detail::hypergeometricLogPmf(from - 1, n, r, N) > top - kCut)
        --from;
    while (to < hi && detail::hypergeometricLogPmf(to + 1, n, r, N) > top - kCut)
        ++to;
    if (static_cast<double>(to - from + 2) * cost > kExactSumBudget)
        return std::nullopt;
    const auto un = static_cast<std::uint64_t>(n), ur = static_cast<std::uint64_t>(r),
               uN = static_cast<std::uint64_t>(N);
    double scale = 1;
    bool dropFirst = false;
    if (conditionOnNonEmpty && lowest == 0) {
        const double p0 = sparseloopPdf(static_cast<std::uint64_t>(first), un, ur, uN);
        scale = (1 - p0) / 1;
        dropFirst = from == first && p0 != 0; // else the first non-zero point lies outside the window
    }
    double total = 0;
    for (std::int64_t k = from; k <= to; ++k) {
        if (dropFirst && k == first)
            continue;
        double p = sparseloopPdf(static_cast<std::uint64_t>(k), un, ur, uN);
        if (p == 0)
            continue;
        if (conditionOnNonEmpty && lowest == 0)
            p /= scale;
        total += p * static_cast<double>(k);
    }
    return total;
}

bool HypergeometricModel::sparseloopSeesNoOccupancy(TileShape shape) const
{
    const std::int64_t n = tileVolume(shape);
    if (n <= 0 || nnz() >= volume())
        return false;
    const auto lowest = sparseloopMinOccupancy(
        static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(volume()), static_cast<double>(nnz()));
    return lowest > static_cast<std::uint64_t>(std::min(n, nnz()));
}

OccupancyPoint HypergeometricModel::droppedAsEmpty(TileShape shape) const
{
    const std::int64_t n = tileVolume(shape);
    if (n >= volume() || nnz() >= volume())
        return {n, 0}; // the whole tensor, or a dense one: Sparseloop's minimum is r, nothing dropped
    if (sparseloopMinOccupancy(static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(volume()),
                               static_cast<double>(nnz())) != 0)
        return {n, 0}; // no minimum of 0: nothing dropped
    const std::int64_t lowest = detail::hypergeometricMin(n, nnz(), volume());
    return {lowest, lowest == 0 ? detail::hypergeometricEmpty(n, nnz(), volume())
                                : detail::hypergeometricPmf(lowest, n, nnz(), volume())};
}

std::int64_t HypergeometricModel::minOccupancy(TileShape shape) const
{
    return detail::hypergeometricMin(tileVolume(shape), nnz(), volume());
}

std::int64_t HypergeometricModel::maxOccupancy(TileShape shape, double confidence) const
{
    return detail::hypergeometricQuantile(confidence, tileVolume(shape), nnz(), volume());
}

double HypergeometricModel::expectedOccupancy(TileShape shape) const
{
    return detail::hypergeometricMean(tileVolume(shape), nnz(), volume());
}

void HypergeometricModel::distribution(TileShape shape, std::vector<OccupancyPoint>& out, int maxPoints) const
{
    const std::int64_t n = tileVolume(shape);
    const DistributionCache::Key key{n, 0, maxPoints};
    if (m_distributions.find(key, out))
        return;
    thread_local std::vector<OccupancyPoint> measure;
    measure.clear();
    const bool exact = detail::appendHypergeometricMeasure(n, nnz(), volume(), 1.0, maxPoints, measure);
    detail::reduceDistribution(measure, exact, maxPoints, out);
    m_distributions.insert(key, out);
}

} // namespace sparsemap::model
