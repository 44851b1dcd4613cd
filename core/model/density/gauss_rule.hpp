#pragma once
// Gauss quadrature of a discrete measure (Golub-Welsch): the three-term recurrence of the measure's
// orthonormal polynomials by the discretized Stieltjes procedure, and the nodes and weights of the
// n-point Gauss rule from the eigen-decomposition of its Jacobi matrix. Used by occupancy_quadrature.
#include "model/density/density_model.hpp"

#include <array>
#include <vector>

namespace sparsemap::model::detail {

inline constexpr int kMaxGaussNodes = 16;

// p_{j+1}(t) = ((t - alpha_j) p_j - b_j p_{j-1}) / b_{j+1}, p_0 = 1, for the standardized variable
// t = (k - mean) / sigma of the measure.
struct OrthogonalRecurrence {
    long double mean = 0, sigma = 1;
    int size = 0; // alpha_0 .. alpha_{size-1} and b_1 .. b_{size-1} are known
    std::array<long double, kMaxGaussNodes> alpha{}, b{}; // b[0] = 0
};

// Up to `nodes` (<= kMaxGaussNodes) recurrence terms of a measure with ascending distinct occupancies
// and positive weights; fewer when the measure has fewer points. In double (n <= 16 on a normalized,
// standardized measure), which is much faster than x87 and accurate to ~1e-15.
OrthogonalRecurrence stieltjes(const std::vector<OccupancyPoint>& measure, int nodes);

// Nodes (standardized, ascending) and weights (summing to 1) of the n-point Gauss rule, n <= size.
void gaussNodes(const OrthogonalRecurrence& rec, int n, std::array<double, kMaxGaussNodes>& nodes,
                std::array<double, kMaxGaussNodes>& weights);

} // namespace sparsemap::model::detail
