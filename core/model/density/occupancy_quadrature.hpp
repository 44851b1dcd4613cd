#pragma once
// Bounded-size occupancy distributions (DensityModel::distribution): a discrete measure over tile
// occupancies is either returned as it is (the exact support, few points) or reduced to a quadrature on
// integer occupancies, so that format walks, which need an integer occupancy, can be evaluated at every
// point.
#include "model/density/density_model.hpp"

#include <vector>

namespace sparsemap::model::detail {

// `measure`: occupancies with nonnegative weights (any order and total > 0; repeats allowed); `exact`:
// whether it is the true support. Fills `out` (cleared) with at most max(maxPoints, 2) points, ascending,
// probabilities summing to 1:
//  * the measure itself when it is exact and its points with weight > kNegligibleProbability fit;
//  * else a rule on n <= min(maxPoints, 16) integers: the n Gauss nodes of the measure (discretized
//    Stieltjes procedure, implicit-QL eigenvalues of the Jacobi matrix; gauss_rule.hpp) rounded to
//    integers, with interpolatory weights solved in long double from the orthonormal polynomials. It is
//    exact for every polynomial of degree < n under the measure, with nonnegative weights and no
//    interpolation error. n starts at 16 for sigma > 100 and at 12 below (more nodes put ~1e-12 weights
//    on the outermost nodes, which the rounding turns negative) and shrinks by a quarter while two nodes
//    round to the same integer or a weight comes out below -1e-9 (narrow distributions end at 7-12);
//  * as a last resort, Gauss nodes split onto floor(x) and floor(x) + 1 with weights (1 - t, t) (mean
//    exact, variance + < 1/4).
void reduceDistribution(std::vector<OccupancyPoint>& measure, bool exact, int maxPoints,
                        std::vector<OccupancyPoint>& out);

} // namespace sparsemap::model::detail
