#include "model/density/gauss_rule.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sparsemap::model::detail {

namespace {

using Nodes = std::array<double, kMaxGaussNodes>;

// Golub-Welsch: eigenvalues of the symmetric tridiagonal Jacobi matrix (diagonal d, off-diagonal e[0..n-2])
// and the squared first components of its normalized eigenvectors, by the implicit QL algorithm with
// Wilkinson shifts, applying the rotations to the first row of the eigenvector matrix only. On return d
// holds the eigenvalues (unsorted) and z the first components. Double precision is plenty: the nodes are
// rounded to integers and the weights recomputed in long double.
void jacobiEigen(int n, Nodes& d, Nodes& e, Nodes& z)
{
    z.fill(0);
    z[0] = 1;
    e[n - 1] = 0;
    // Deflate against the norm of the matrix: the diagonal of a symmetric measure's Jacobi matrix is ~0,
    // so a test relative to neighbouring diagonal entries would never be met.
    double norm = 0;
    for (int i = 0; i < n; ++i)
        norm = std::max(norm, std::fabs(d[i]) + std::fabs(e[i]) + (i > 0 ? std::fabs(e[i - 1]) : 0.0));
    for (int l = 0; l < n; ++l) {
        for (int iteration = 0; iteration < 60; ++iteration) {
            int m = l;
            for (; m < n - 1; ++m)
                if (std::fabs(e[m]) <= 1e-16 * norm)
                    break;
            if (m == l)
                break;
            double g = (d[l + 1] - d[l]) / (2 * e[l]);
            double r = std::sqrt(g * g + 1);
            g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
            double s = 1, c = 1, p = 0;
            int i = m - 1;
            for (; i >= l; --i) {
                const double f = s * e[i], b = c * e[i];
                e[i + 1] = r = std::sqrt(f * f + g * g);
                if (r == 0) {
                    d[i + 1] -= p;
                    e[m] = 0;
                    break;
                }
                s = f / r;
                c = g / r;
                g = d[i + 1] - p;
                r = (d[i] - g) * s + 2 * c * b;
                p = s * r;
                d[i + 1] = g + p;
                g = c * r - b;
                const double zi = z[i + 1];
                z[i + 1] = s * z[i] + c * zi;
                z[i] = c * z[i] - s * zi;
            }
            if (r == 0 && i >= l)
                continue;
            d[l] -= p;
            e[l] = g;
            e[m] = 0;
        }
    }
}

} // namespace

OrthogonalRecurrence stieltjes(const std::vector<OccupancyPoint>& measure, int nodes)
{
    // Double is enough here (n <= 16 on a normalized, standardized measure) and much faster than x87.
    thread_local std::vector<double> t, w, previous, current;
    const std::size_t m = measure.size();
    t.resize(m);
    w.resize(m);
    OrthogonalRecurrence rec;
    long double total = 0, mean = 0;
    for (const OccupancyPoint& p : measure) {
        total += p.probability;
        mean += p.probability * static_cast<long double>(p.occupancy);
    }
    rec.mean = mean / total;
    long double variance = 0;
    for (std::size_t j = 0; j < m; ++j) {
        const long double d = static_cast<long double>(measure[j].occupancy) - rec.mean;
        w[j] = static_cast<double>(measure[j].probability / total);
        variance += w[j] * d * d;
    }
    rec.sigma = std::sqrt(variance);
    for (std::size_t j = 0; j < m; ++j)
        t[j] = static_cast<double>((static_cast<long double>(measure[j].occupancy) - rec.mean) / rec.sigma);
    previous.assign(m, 0);
    current.assign(m, 1);
    double bk = 0;
    for (int k = 0; k < nodes; ++k) {
        double a = 0;
        for (std::size_t j = 0; j < m; ++j)
            a += w[j] * t[j] * current[j] * current[j];
        rec.alpha[k] = a;
        rec.size = k + 1;
        if (k == nodes - 1)
            break;
        double norm = 0;
        for (std::size_t j = 0; j < m; ++j) {
            const double next = (t[j] - a) * current[j] - bk * previous[j];
            previous[j] = current[j];
            current[j] = next;
            norm += w[j] * next * next;
        }
        bk = std::sqrt(norm);
        if (bk < 1e-9) // the measure has only k + 1 points: a smaller rule is already exact
            break;
        rec.b[k + 1] = bk;
        const double inverse = 1 / bk;
        for (std::size_t j = 0; j < m; ++j)
            current[j] *= inverse;
    }
    return rec;
}

void gaussNodes(const OrthogonalRecurrence& rec, int n, Nodes& nodes, Nodes& weights)
{
    Nodes d{}, e{}, first{};
    for (int j = 0; j < n; ++j) {
        d[j] = static_cast<double>(rec.alpha[j]);
        e[j] = j + 1 < n ? static_cast<double>(rec.b[j + 1]) : 0.0;
    }
    jacobiEigen(n, d, e, first);
    std::array<int, kMaxGaussNodes> order{};
    std::iota(order.begin(), order.begin() + n, 0);
    std::sort(order.begin(), order.begin() + n, [&](int x, int y) { return d[x] < d[y]; });
    for (int i = 0; i < n; ++i) {
        nodes[i] = d[order[i]];
        weights[i] = first[order[i]] * first[order[i]];
    }
}

} // namespace sparsemap::model::detail
