#include "model/density/hypergeometric_math.hpp"

#include "util/hash.hpp"

#include <boost/math/special_functions/erf.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace sparsemap::model::detail {

namespace {

using Real = long double;
constexpr Real kLog2Pi = 1.8378770664093454835606594728112353L;
constexpr Real kNegInf = -std::numeric_limits<Real>::infinity();

// log(n!) - log(sqrt(2 pi n) (n / e)^n) for integer n >= 1: a table below 31 (lgammal is accurate there,
// its value is < 75), Stirling's series above (the first omitted term is < 1.2e-19 at n = 31).
template <typename T> T stirlingError(T n)
{
    static const std::array<Real, 31> kSmall = [] {
        std::array<Real, 31> t{};
        for (int i = 1; i < 31; ++i) {
            const Real x = i;
            t[i] = std::lgamma(x + 1) - (x + 0.5L) * std::log(x) + x - 0.5L * kLog2Pi;
        }
        return t;
    }();
    if (n < 31)
        return static_cast<T>(kSmall[static_cast<int>(n)]);
    const T inverse = 1 / n, inverse2 = inverse * inverse;
    return inverse *
           (T(1) / 12 -
            inverse2 * (T(1) / 360 - inverse2 * (T(1) / 1260 - inverse2 * (T(1) / 1680 - inverse2 / 1188))));
}

// log1p(y) - y, by its series where the difference cancels (|y| < 0.1; 17 terms reach 1e-18).
double log1pMinusX(double y)
{
    if (std::fabs(y) >= 0.1)
        return std::log1p(y) - y;
    double sum = 0;
    for (int k = 18; k >= 2; --k)
        sum = y * (sum + ((k & 1) ? 1.0 : -1.0) / k);
    return y * sum;
}

// log P(0) = log[a! / (a - m)!] - log[N! / (N - m)!] (q = N - a) through log x! = (x + 1/2) log x - x +
// log(2 pi) / 2 + c(x), with log1p(-x) = -x + L(-x) so that the O(m) parts cancel analytically:
//   m log1p(-q / N) - (m - 1/2) m q / (N a) - (a - m + 1/2) L(-m / a) + (N - m + 1/2) L(-m / N)
//   + c(a) - c(a - m) - c(N) + c(N - m).
// The terms are O(|log P(0)| + m^2 / a), so double gives ~1e-14 absolute wherever P(0) is not tiny.
double logEmpty(double m, double q, double a, double total)
{
    return m * std::log1p(-q / total) - (m - 0.5) * m * (q / total) / a -
           (a - m + 0.5) * log1pMinusX(-m / a) + (total - m + 0.5) * log1pMinusX(-m / total) +
           stirlingError(a) - stirlingError(a - m) - stirlingError(total) + stirlingError(total - m);
}

// Loader's deviance x log(x / np) + np - x, by a series when x is close to np (where the closed form
// cancels). x > 0.
Real deviance(Real x, Real np)
{
    const Real d = x - np;
    if (std::fabs(d) >= 0.1L * (x + np))
        return x * std::log(x / np) + np - x;
    Real v = d / (x + np);
    Real s = d * v;
    Real term = 2 * x * v;
    v *= v;
    for (int j = 1; j < 400; ++j) {
        term *= v;
        const Real next = s + term / (2 * j + 1);
        if (next == s)
            break;
        s = next;
    }
    return s;
}

// log of C(n, x) p^x q^(n - x) with q = 1 - p given separately (Loader 2000).
Real logBinomial(Real x, Real n, Real p, Real q)
{
    if (x == 0)
        return p < 0.1L ? -deviance(n, n * q) - n * p : n * std::log(q);
    if (x == n)
        return q < 0.1L ? -deviance(n, n * p) - n * q : n * std::log(p);
    const Real lc = stirlingError(n) - stirlingError(x) - stirlingError(n - x) - deviance(x, n * p) -
                    deviance(n - x, n * q);
    return lc - 0.5L * (kLog2Pi + std::log(x) + std::log1p(-x / n));
}

std::int64_t mode(std::int64_t n, std::int64_t r, std::int64_t N)
{
    const Real m = std::floor((Real(n) + 1) * (Real(r) + 1) / (Real(N) + 2));
    return std::clamp(static_cast<std::int64_t>(m), hypergeometricMin(n, r, N), hypergeometricMax(n, r, N));
}

// p(k + 1) / p(k) and p(k - 1) / p(k).
Real ratioUp(std::int64_t k, std::int64_t n, std::int64_t r, std::int64_t N)
{
    return Real(r - k) * Real(n - k) / (Real(k + 1) * Real(N - r - n + k + 1));
}

Real ratioDown(std::int64_t k, std::int64_t n, std::int64_t r, std::int64_t N)
{
    return Real(k) * Real(N - r - n + k) / (Real(r - k + 1) * Real(n - k + 1));
}

// Starting point of a tail summation: far enough out that the mass beyond is negligible, near enough
// that the pmf there is representable.
std::int64_t tailStart(std::int64_t from, std::int64_t to, std::int64_t n, std::int64_t r, std::int64_t N,
                       Real& p)
{
    std::int64_t k = to;
    p = std::exp(hypergeometricLogPmf(k, n, r, N));
    while (p == 0 && k != from) {
        k = from + (k - from) / 2;
        p = std::exp(hypergeometricLogPmf(k, n, r, N));
    }
    return k;
}

std::int64_t cornishFisherQuantile(double c, std::int64_t n, std::int64_t r, std::int64_t N)
{
    const double mu = hypergeometricMean(n, r, N);
    const double sigma = std::sqrt(hypergeometricVariance(n, r, N));
    const double z = -std::sqrt(2.0) * boost::math::erfc_inv(2.0 * c);
    const double nn = double(n), rr = double(r), big = double(N);
    const double skew = (big - 2 * rr) * std::sqrt(big - 1) * (big - 2 * nn) /
                        (std::sqrt(nn * rr * (big - rr) * (big - nn)) * (big - 2));
    const double w = z + (z * z - 1) * skew / 6;
    const auto k = static_cast<std::int64_t>(std::ceil(mu + sigma * w - 0.5));
    return std::clamp(k, hypergeometricMin(n, r, N), hypergeometricMax(n, r, N));
}

} // namespace

std::int64_t hypergeometricMin(std::int64_t n, std::int64_t r, std::int64_t N)
{
    return std::max<std::int64_t>(0, n + r - N);
}

std::int64_t hypergeometricMax(std::int64_t n, std::int64_t r, std::int64_t)
{
    return std::min(n, r);
}

double hypergeometricMean(std::int64_t n, std::int64_t r, std::int64_t N)
{
    return static_cast<double>(Real(n) * Real(r) / Real(N));
}

double hypergeometricVariance(std::int64_t n, std::int64_t r, std::int64_t N)
{
    if (N <= 1)
        return 0;
    const Real p = Real(r) / Real(N);
    return static_cast<double>(Real(n) * p * (1 - p) * Real(N - n) / Real(N - 1));
}

long double hypergeometricLogPmf(std::int64_t k, std::int64_t n, std::int64_t r, std::int64_t N)
{
    const std::int64_t lo = hypergeometricMin(n, r, N), hi = hypergeometricMax(n, r, N);
    if (k < lo || k > hi)
        return kNegInf;
    if (lo == hi)
        return 0;
    // p1 * p2 / p3 of three binomials with p = n / N: the p-dependence cancels exactly.
    const Real p = Real(n) / Real(N), q = Real(N - n) / Real(N);
    return logBinomial(Real(k), Real(r), p, q) + logBinomial(Real(n - k), Real(N - r), p, q) -
           logBinomial(Real(n), Real(N), p, q);
}

double hypergeometricPmf(std::int64_t k, std::int64_t n, std::int64_t r, std::int64_t N)
{
    if (k == 0)
        return hypergeometricEmpty(n, r, N);
    return static_cast<double>(std::exp(hypergeometricLogPmf(k, n, r, N)));
}

namespace {

// P(0) of a tile with more than one coordinate and nonzero: the work of hypergeometricEmpty.
double emptyProbability(std::int64_t n, std::int64_t r, std::int64_t N)
{
    const std::int64_t m = std::min(n, r), q = std::max(n, r), a = N - q;
    if (m <= 16) { // both products stay below 1e4932 for N < 1e300
        Real numerator = 1, denominator = 1;
        for (std::int64_t i = 0; i < m; ++i) {
            numerator *= Real(a - i);
            denominator *= Real(N - i);
        }
        return static_cast<double>(numerator / denominator);
    }
    if (a == m) // 1 / C(N, m) with m > 16: astronomically small, plain lgamma is enough
        return static_cast<double>(
            std::exp(std::lgamma(Real(m) + 1) + std::lgamma(Real(N - m) + 1) - std::lgamma(Real(N) + 1)));
    return std::exp(logEmpty(double(m), double(q), double(a), double(N)));
}

// The last value of emptyProbability for each slot of a per-thread table (direct-mapped by the arguments,
// on the heap: the thread's static TLS stays small). A search asks for the same (tile, nonzeros,
// population) triples again and again: a polish evaluates neighbours of one design. A pure function's
// memo: a hit returns the bits a computation would.
struct EmptyMemoEntry {
    std::int64_t n = -1, r = -1, N = -1;
    double value = 0;
};
// 2^18 slots (8 MB a thread): a search's triples outgrow 2^14 slots, and each miss costs an exp and
// log1p's. Against 2^14 at 2 threads: mm7 / mobile 2.14 -> 1.61 s, conv8 / edge 2.24 -> 1.92 s; 2^20 slots
// (32 MB) gained a few per cent more.
constexpr std::size_t kEmptyMemoSize = 1 << 18;

} // namespace

double hypergeometricEmpty(std::int64_t n, std::int64_t r, std::int64_t N)
{
    if (n <= 0 || r <= 0)
        return 1;
    if (n + r > N)
        return 0;
    if (n == 1 || r == 1)
        return static_cast<double>(Real(N - n - r + 1) / Real(N));
    thread_local std::vector<EmptyMemoEntry> memo;
    if (memo.empty())
        memo.resize(kEmptyMemoSize);
    // One mix of the three arguments, each spread by its own odd constant first.
    const std::uint64_t h =
        splitmix64(static_cast<std::uint64_t>(n) * 0x9E3779B97F4A7C15ull ^
                   static_cast<std::uint64_t>(r) * 0xC2B2AE3D27D4EB4Full ^ static_cast<std::uint64_t>(N));
    auto& e = memo[h & (kEmptyMemoSize - 1)];
    if (e.n != n || e.r != r || e.N != N)
        e = {n, r, N, emptyProbability(n, r, N)};
    return e.value;
}

std::int64_t hypergeometricQuantile(double confidence, std::int64_t n, std::int64_t r, std::int64_t N)
{
    const std::int64_t lo = hypergeometricMin(n, r, N), hi = hypergeometricMax(n, r, N);
    if (confidence >= 1 || lo == hi)
        return confidence >= 1 ? hi : lo;
    if (!(confidence > 0))
        return lo;
    const double sigma = std::sqrt(hypergeometricVariance(n, r, N));
    if (sigma > 300)
        return cornishFisherQuantile(confidence, n, r, N);
    const std::int64_t m = mode(n, r, N);
    const auto reach = static_cast<std::int64_t>(std::ceil(12 * sigma)) + 30;
    Real p = 0;
    if (confidence >= 0.5) { // smallest k whose upper tail P(K > k) is <= 1 - c
        std::int64_t k = tailStart(m, std::min(hi, m + reach), n, r, N, p);
        const Real allowed = 1 - Real(confidence);
        Real tail = 0;
        while (k > lo && tail + p <= allowed) {
            tail += p;
            p *= ratioDown(k, n, r, N);
            --k;
        }
        return k;
    }
    std::int64_t k = tailStart(m, std::max(lo, m - reach), n, r, N, p);
    Real cdf = 0;
    while (k < hi && cdf + p < Real(confidence)) {
        cdf += p;
        p *= ratioUp(k, n, r, N);
        ++k;
    }
    return k;
}

bool appendHypergeometricMeasure(std::int64_t n, std::int64_t r, std::int64_t N, double weight,
                                 int exactLimit, std::vector<OccupancyPoint>& out)
{
    const std::int64_t lo = hypergeometricMin(n, r, N), hi = hypergeometricMax(n, r, N);
    if (lo == hi) {
        out.push_back({lo, weight});
        return true;
    }
    const double sigma = std::sqrt(hypergeometricVariance(n, r, N));
    const bool exact = sigma < 16 || 22 * sigma + 10 <= exactLimit;
    // Thinned to every sigma / 2 (weights p * stride) when not exact: smooth on that scale, see the header.
    const std::int64_t stride = exact ? 1 : std::max<std::int64_t>(1, static_cast<std::int64_t>(sigma / 2));
    const std::size_t first = out.size();
    if (exact || sigma < 256) {
        // Walk out of the mode with the ratio recurrence until p is negligible.
        const std::int64_t m = mode(n, r, N);
        const double pm = static_cast<double>(std::exp(hypergeometricLogPmf(m, n, r, N)));
        double p = pm;
        for (std::int64_t k = m - 1; k >= lo; --k) {
            p *= static_cast<double>(k + 1) * double(N - r - n + k + 1) / (double(r - k) * double(n - k));
            if (p <= kNegligibleProbability)
                break;
            if ((m - k) % stride == 0)
                out.push_back({k, p * weight});
        }
        std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
        out.push_back({m, pm * weight});
        p = pm;
        for (std::int64_t k = m + 1; k <= hi; ++k) {
            p *= double(r - k + 1) * double(n - k + 1) / (double(k) * double(N - r - n + k));
            if (p <= kNegligibleProbability)
                break;
            if ((k - m) % stride == 0)
                out.push_back({k, p * weight});
        }
    } else { // too wide to walk: evaluate the pmf at the thinned points directly
        const double mu = hypergeometricMean(n, r, N);
        const std::int64_t a = std::max(lo, static_cast<std::int64_t>(std::floor(mu - 13 * sigma)));
        const std::int64_t b = std::min(hi, static_cast<std::int64_t>(std::ceil(mu + 13 * sigma)));
        for (std::int64_t k = a; k <= b; k += stride)
            out.push_back({k, static_cast<double>(std::exp(hypergeometricLogPmf(k, n, r, N)))});
    }
    if (exact)
        return true;
    double sum = 0;
    for (std::size_t i = first; i < out.size(); ++i)
        sum += out[i].probability;
    for (std::size_t i = first; i < out.size(); ++i)
        out[i].probability *= weight / sum;
    return false;
}

} // namespace sparsemap::model::detail
