#pragma once
// Counts the model computes as doubles (accesses x densities, products of tile sizes) are integers in
// exact arithmetic but reach the rounding a few ulps off: 3 * (1 / 3) * 3 is not 3. One slack for all
// of them, so a count that is an integer up to rounding error rounds to that integer, and one rule for
// comparing such a count with an integer limit.
#include <cmath>

namespace sparsemap {

// Far above the error of a few products of doubles below 2^53, far below any real fraction of a word.
inline constexpr double kCountSlack = 1e-9;

// ceil(x), with x within kCountSlack above an integer taken as that integer.
inline double ceilCount(double x)
{
    return std::ceil(x - kCountSlack);
}

// floor(x), with x within kCountSlack below an integer taken as that integer.
inline double floorCount(double x)
{
    return std::floor(x + kCountSlack);
}

// A count held as a double (instances, fan-out) above an integer limit by at least one: integers
// differ by at least 1, so half of it separates "equal up to rounding" from "more".
inline bool countExceeds(double count, double limit)
{
    return count > limit + 0.5;
}

} // namespace sparsemap
