#pragma once
// Bounded-size occupancy distributions (DensityModel::distribution): a discrete measure over tile
// occupancies is either returned as it is (the exact support, few points) or reduced to a quadrature on
// integer occupancies, so that format walks, which need an integer occupancy, can be evaluated at every
// point.
#include "model/density/density_model.hpp"

#include <span>
#include <vector>

namespace sparsemap::model::detail {

// `measure`: occupancies with nonnegative weights (any order and total > 0; repeats allowed); `exact`:
// whether it is the true support. Fills `out` (cleared) with at most max(maxPoints, 2) points, ascending,
// probabilities summing to 1:
//  * the measure itself when exact and its points with weight > kNegligibleProbability fit;
//  * else n = min(maxPoints, 16) nodes (16 integer nodes are exact to degree 15; with more the
//    outermost Gauss weights, < 1e-12, are swamped by the rounding of the nodes to integers) of the measure's
//    Gauss rule (discretized Stieltjes procedure in double on the standardized variable, implicit-QL
//    eigenvalues of the Jacobi matrix) rounded to integers, with interpolatory weights solved from the
//    orthonormal polynomials: exact for every polynomial of degree < n under the measure, nonnegative, no
//    interpolation error. When the distribution is too narrow for n distinct integers or the weights come out
//    negative (sigma below ~15) n shrinks by a quarter at a time (typically to 7-12 nodes, still exact to
//    degree 6-11);
//  * as a last resort, Gauss nodes split onto floor(x) and floor(x) + 1 with weights (1 - t, t) (mean
//    exact, variance + < 1/4).
void reduceDistribution(std::vector<OccupancyPoint>& measure, bool exact, int maxPoints,
                        std::vector<OccupancyPoint>& out);

} // namespace sparsemap::model::detail
