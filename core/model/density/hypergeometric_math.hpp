#pragma once
// The hypergeometric distribution to ~1e-13 relative accuracy for populations up to ~1e12: a tile of
// n coordinates drawn without replacement from N coordinates of which r are nonzero (spec §2.1). Counts
// are later floor'ed/ceil'ed after multiplying by up to ~1e8, so plain lgamma differences (off by 1e-8
// relative at N = 1e9) are not good enough:
//  * P(0) = prod_{i<m} (N - q - i) / (N - i) with m = min(n, r), q = max(n, r) (symmetric in n and r):
//    a direct long double product for m <= 16, else the same ratio of falling factorials through
//    Stirling's series rearranged so that the O(m) terms cancel analytically (hypergeometric_math.cpp):
//    double then suffices, ~1e-14 absolute error in log P(0), ~60 ns; each thread remembers the
//    last values it computed (hypergeometric_math.cpp);
//  * P(k) by Loader's saddle-point form (deviance bd0 + Stirling error), in long double;
//  * quantiles exactly by summing the pmf from the nearer end while that takes < ~4000 terms, else
//    by the Cornish-Fisher expansion (within +-1 of the exact quantile for sigma > ~300).
// Every function is O(1) except hypergeometricQuantile (bounded) and the measure builders.
#include "model/density/density_model.hpp"

#include <cstdint>
#include <vector>

namespace sparsemap::model::detail {

std::int64_t hypergeometricMin(std::int64_t n, std::int64_t r, std::int64_t N);
std::int64_t hypergeometricMax(std::int64_t n, std::int64_t r, std::int64_t N);
double hypergeometricMean(std::int64_t n, std::int64_t r, std::int64_t N);
double hypergeometricVariance(std::int64_t n, std::int64_t r, std::int64_t N);

long double hypergeometricLogPmf(std::int64_t k, std::int64_t n, std::int64_t r, std::int64_t N);
double hypergeometricPmf(std::int64_t k, std::int64_t n, std::int64_t r, std::int64_t N);
// P(0); exactly (N - r) / N for a scalar tile.
double hypergeometricEmpty(std::int64_t n, std::int64_t r, std::int64_t N);
std::int64_t hypergeometricQuantile(double confidence, std::int64_t n, std::int64_t r, std::int64_t N);

// Appends a discrete measure of the distribution, scaled by `weight`, to `out` (ascending). Returns
// true when it is the exact support (every point with p > kNegligibleProbability), produced when
// sigma < 16 or when the support is expected to fit in `exactLimit` points; otherwise every
// floor(sigma / 2)-th point of it, weights normalized to `weight`, which reproduces expectations of smooth
// functions to ~1e-30 because the pmf is smooth on that scale (aliasing ~ exp(-2 pi^2 sigma^2 / stride^2)
// = exp(-8 pi^2)). The points come from the ratio recurrence out of the mode for sigma < 256 (O(sigma))
// and from the pmf over mean +- 13 sigma beyond (O(1): ~53 evaluations).
bool appendHypergeometricMeasure(std::int64_t n, std::int64_t r, std::int64_t N, double weight,
                                 int exactLimit, std::vector<OccupancyPoint>& out);

} // namespace sparsemap::model::detail
