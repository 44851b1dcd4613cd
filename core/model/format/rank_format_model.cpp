#include "model/format/rank_format_model.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap::model {

double ceilTolerant(double x)
{
    return std::ceil(x - 1e-12 * std::max(1.0, std::fabs(x)));
}

RankOccupancy rankFormatOccupancy(RankFormat format, std::int64_t fiberShape, std::int64_t maxFibers,
                                  double fiberEmpty, double elementEmpty)
{
    const double f = static_cast<double>(fiberShape);
    const double fibers = static_cast<double>(maxFibers) * (1 - fiberEmpty);
    const double nonEmpty = f * (1 - elementEmpty); // expected non-empty elements per fiber
    switch (format) {
    case RankFormat::UOP: // one offset per coordinate plus the end offset
        return {0, fibers * (f + 1)};
    case RankFormat::CP: // one coordinate per non-empty element; payload = pointer to its sub-fiber
    {
        // A plain ceil, as Sparseloop's: where f (1 - P(empty)) is an integer, its rounding in double
        // decides (31 (1 - 28/31) = 3.0000000000000009 -> 4), and Sparseloop's counts carry that.
        const double units = fibers * std::ceil(nonEmpty);
        return {units, units};
    }
    case RankFormat::RLE: // one run length per non-empty element (Sparseloop does not round here)
        return {fibers * nonEmpty, fibers * nonEmpty};
    case RankFormat::B: // one bit per coordinate; payload per non-empty element
        return {fibers * f, fibers * std::ceil(nonEmpty)};
    case RankFormat::U:
        return {0, 0};
    }
    return {0, 0};
}

} // namespace sparsemap::model
