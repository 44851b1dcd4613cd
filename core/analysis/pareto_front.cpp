#include "analysis/pareto_front.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap::analysis {

std::vector<std::int64_t> paretoFront(const search::PointLog& points)
{
    const auto valid = points.validFlags();
    const auto cycles = points.cycles();
    const auto energy = points.energiesPj();
    std::vector<std::int64_t> order;
    for (std::size_t i = 0; i < points.size(); ++i)
        if (valid[i] && std::isfinite(cycles[i]) && std::isfinite(energy[i]) && cycles[i] >= 0 &&
            energy[i] >= 0)
            order.push_back(static_cast<std::int64_t>(i));
    // By cycles, then energy, then evaluation order: a sweep keeps each point that uses strictly less
    // energy than every faster (or equally fast) point before it.
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
        if (cycles[ia] != cycles[ib])
            return cycles[ia] < cycles[ib];
        if (energy[ia] != energy[ib])
            return energy[ia] < energy[ib];
        return a < b;
    });
    std::vector<std::int64_t> front;
    for (const std::int64_t i : order) {
        if (front.empty() ||
            energy[static_cast<std::size_t>(i)] < energy[static_cast<std::size_t>(front.back())])
            front.push_back(i);
    }
    return front;
}

std::int64_t fastestUnderEnergy(const search::PointLog& points, const std::vector<std::int64_t>& front,
                                double maxEnergyPj)
{
    for (const std::int64_t i : front) // fastest first: the first that fits is the answer
        if (points.energiesPj()[static_cast<std::size_t>(i)] <= maxEnergyPj)
            return i;
    return -1;
}

} // namespace sparsemap::analysis
