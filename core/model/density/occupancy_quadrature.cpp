#include "model/density/occupancy_quadrature.hpp"

#include "model/density/gauss_rule.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace sparsemap::model::detail {

namespace {

using Real = long double;
using Column = std::array<Real, kMaxGaussNodes>;
using Nodes = std::array<double, kMaxGaussNodes>;

// Sorts by occupancy and merges equal occupancies; drops points of zero weight.
void normalizeMeasure(std::vector<OccupancyPoint>& measure)
{
    std::sort(measure.begin(), measure.end(),
              [](const OccupancyPoint& a, const OccupancyPoint& b) { return a.occupancy < b.occupancy; });
    std::size_t kept = 0;
    for (const OccupancyPoint& p : measure) {
        if (!(p.probability > 0))
            continue;
        if (kept > 0 && measure[kept - 1].occupancy == p.occupancy)
            measure[kept - 1].probability += p.probability;
        else
            measure[kept++] = p;
    }
    measure.resize(kept);
}

void appendPoint(std::vector<OccupancyPoint>& out, std::int64_t k, double p)
{
    if (!(p > 0))
        return;
    if (!out.empty() && out.back().occupancy == k)
        out.back().probability += p;
    else
        out.push_back({k, p});
}

// Gauss nodes rounded to integers with interpolatory weights: the rule is exact for every polynomial of
// degree < n under the measure (sum_i w_i p_j(k_i) = [j = 0]). False when two nodes round to the same
// integer or a weight comes out below -1e-9 (distributions only a few integers wide); weights in
// [-1e-9, 0) are set to 0.
bool integerRule(const OrthogonalRecurrence& rec, int n, Real lo, Real hi, std::vector<OccupancyPoint>& out)
{
    Nodes nodes{}, weights{};
    gaussNodes(rec, n, nodes, weights);
    std::array<std::array<Real, kMaxGaussNodes + 1>, kMaxGaussNodes> a{}; // [p_j(k_i) | rhs]
    Column k{}, inverseB{};
    for (int j = 1; j < n; ++j)
        inverseB[j] = 1 / rec.b[j];
    for (int i = 0; i < n; ++i) {
        k[i] = std::clamp(std::round(rec.mean + rec.sigma * Real(nodes[i])), lo, hi);
        if (i > 0 && k[i] <= k[i - 1])
            return false;
        const Real t = (k[i] - rec.mean) / rec.sigma;
        Real previous = 0, current = 1;
        a[0][i] = 1;
        for (int j = 0; j + 1 < n; ++j) {
            const Real next = ((t - rec.alpha[j]) * current - rec.b[j] * previous) * inverseB[j + 1];
            previous = current;
            current = next;
            a[j + 1][i] = next;
        }
    }
    a[0][n] = 1;
    for (int c = 0; c < n; ++c) { // Gaussian elimination with partial pivoting
        int pivot = c;
        for (int r = c + 1; r < n; ++r)
            if (std::fabs(a[r][c]) > std::fabs(a[pivot][c]))
                pivot = r;
        std::swap(a[c], a[pivot]);
        if (a[c][c] == 0)
            return false;
        const Real inversePivot = 1 / a[c][c];
        for (int r = c + 1; r < n; ++r) {
            const Real f = a[r][c] * inversePivot;
            for (int q = c; q <= n; ++q)
                a[r][q] -= f * a[c][q];
        }
    }
    Column w{};
    for (int c = n - 1; c >= 0; --c) {
        Real v = a[c][n];
        for (int q = c + 1; q < n; ++q)
            v -= a[c][q] * w[q];
        w[c] = v / a[c][c];
        if (w[c] < -1e-9L) // outer Gauss weights are ~1e-12: rounding can make them slightly negative
            return false;
    }
    for (int i = 0; i < n; ++i)
        out.push_back({static_cast<std::int64_t>(k[i]), static_cast<double>(std::max(w[i], Real(0)))});
    return true;
}

// Fallback: every Gauss node x split onto floor(x) and floor(x) + 1 with weights (1 - t, t).
void splitRule(const OrthogonalRecurrence& rec, int n, Real lo, Real hi, std::vector<OccupancyPoint>& out)
{
    Nodes nodes{}, weights{};
    gaussNodes(rec, n, nodes, weights);
    for (int i = 0; i < n; ++i) {
        const Real x = std::clamp(rec.mean + rec.sigma * Real(nodes[i]), lo, hi);
        const Real f = std::floor(x);
        appendPoint(out, static_cast<std::int64_t>(f), weights[i] * static_cast<double>(1 - (x - f)));
        appendPoint(out, static_cast<std::int64_t>(f) + 1, weights[i] * static_cast<double>(x - f));
    }
}

void quadrature(const std::vector<OccupancyPoint>& measure, int maxPoints, std::vector<OccupancyPoint>& out)
{
    const int largest = std::min({maxPoints, kMaxGaussNodes, static_cast<int>(measure.size()) - 1});
    const OrthogonalRecurrence rec = stieltjes(measure, largest);
    const Real lo = Real(measure.front().occupancy), hi = Real(measure.back().occupancy);
    // Central Gauss nodes are ~pi sigma / sqrt(2 n) apart: start where they are >= ~1.5 apart. Below
    // sigma ~ 100 rounding makes the outermost weights of 16 nodes negative, so start at 12 there.
    const int start = std::min({rec.size, std::max(static_cast<int>(2 * rec.sigma * rec.sigma), 2),
                                rec.sigma > 100 ? kMaxGaussNodes : 12});
    for (int n = start; n >= 2; n -= std::max(1, n / 4)) {
        out.clear();
        if (integerRule(rec, n, lo, hi, out))
            return;
    }
    out.clear();
    splitRule(rec, std::min(rec.size, std::max(1, maxPoints / 2)), lo, hi, out);
}

} // namespace

void reduceDistribution(std::vector<OccupancyPoint>& measure, bool exact, int maxPoints,
                        std::vector<OccupancyPoint>& out)
{
    out.clear();
    maxPoints = std::max(maxPoints, 2);
    normalizeMeasure(measure);
    if (measure.empty())
        return;
    double total = 0;
    for (const OccupancyPoint& p : measure)
        total += p.probability;
    std::size_t significant = 0;
    for (const OccupancyPoint& p : measure)
        significant += !exact || p.probability / total > kNegligibleProbability;
    if (significant <= static_cast<std::size_t>(maxPoints)) {
        double kept = 0;
        for (const OccupancyPoint& p : measure)
            if (!exact || p.probability / total > kNegligibleProbability) {
                out.push_back({p.occupancy, p.probability});
                kept += p.probability;
            }
        for (OccupancyPoint& p : out)
            p.probability /= kept;
        return;
    }
    quadrature(measure, maxPoints, out);
    double sum = 0;
    for (const OccupancyPoint& p : out)
        sum += p.probability;
    for (OccupancyPoint& p : out)
        p.probability /= sum;
}

} // namespace sparsemap::model::detail
