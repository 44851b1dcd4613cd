#include "analysis/pareto_front.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap::analysis {

std::vector<std::int64_t> paretoFront(const std::vector<search::EvaluatedPoint>& points)
{
    std::vector<std::int64_t> order;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        if (p.valid && std::isfinite(p.cycles) && std::isfinite(p.energyPj) && p.cycles >= 0 &&
            p.energyPj >= 0)
            order.push_back(static_cast<std::int64_t>(i));
    }
    // By cycles, then energy, then evaluation order: a sweep keeps each point that uses strictly less
    // energy than every faster (or equally fast) point before it.
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        const auto& pa = points[static_cast<std::size_t>(a)];
        const auto& pb = points[static_cast<std::size_t>(b)];
        if (pa.cycles != pb.cycles)
            return pa.cycles < pb.cycles;
        if (pa.energyPj != pb.energyPj)
            return pa.energyPj < pb.energyPj;
        return a < b;
    });
    std::vector<std::int64_t> front;
    for (const std::int64_t i : order) {
        const double energy = points[static_cast<std::size_t>(i)].energyPj;
        if (front.empty() || energy < points[static_cast<std::size_t>(front.back())].energyPj)
            front.push_back(i);
    }
    return front;
}

std::int64_t fastestUnderEnergy(const std::vector<search::EvaluatedPoint>& points,
                                const std::vector<std::int64_t>& front, double maxEnergyPj)
{
    for (const std::int64_t i : front) // fastest first: the first that fits is the answer
        if (points[static_cast<std::size_t>(i)].energyPj <= maxEnergyPj)
            return i;
    return -1;
}

} // namespace sparsemap::analysis
