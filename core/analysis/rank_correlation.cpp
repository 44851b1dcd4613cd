#include "analysis/rank_correlation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sparsemap::analysis {

std::vector<double> ranks(const std::vector<double>& values)
{
    const std::size_t n = values.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](std::size_t i, std::size_t j) { return values[i] < values[j]; });
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j + 1 < n && values[order[j + 1]] == values[order[i]])
            ++j;
        const double average = 0.5 * static_cast<double>(i + j) + 1.0;
        for (std::size_t k = i; k <= j; ++k)
            out[order[k]] = average;
        i = j + 1;
    }
    return out;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b)
{
    const std::size_t n = std::min(a.size(), b.size());
    if (n < 2)
        return 0;
    const auto ra = ranks(std::vector<double>(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n)));
    const auto rb = ranks(std::vector<double>(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n)));
    const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / static_cast<double>(n);
    const double mb = std::accumulate(rb.begin(), rb.end(), 0.0) / static_cast<double>(n);
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sab += (ra[i] - ma) * (rb[i] - mb);
        saa += (ra[i] - ma) * (ra[i] - ma);
        sbb += (rb[i] - mb) * (rb[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

} // namespace sparsemap::analysis
