#pragma once
// The per-rank format models (Sparseloop's format-models/*.cpp, spec §3.4 table): metadata and payload
// units of one rank given how many of its fibers and of their elements are non-empty.
#include "model/format/walk_rank.hpp"

namespace sparsemap::model {

// `fiberEmpty` = P(one rank-r fiber's whole tile is empty), `elementEmpty` = P(one element of the fiber,
// i.e. one sub-tile of s_r coordinates, is empty). With fib = maxFibers * (1 - fiberEmpty):
//   UOP (0, fib (f + 1))          CP  (fib ceil(f (1 - pe)), same)   RLE (fib f (1 - pe), same)
//   B   (fib f, fib ceil(f (1 - pe)))                                 U   (0, 0)
// The rank-0 and trivial-rank rules are the walk's (format_walk.hpp), not applied here. The ceil is
// a plain one in double, as Sparseloop's: its rounding noise is part of Sparseloop's counts.
RankOccupancy rankFormatOccupancy(RankFormat format, std::int64_t fiberShape, std::int64_t maxFibers,
                                  double fiberEmpty, double elementEmpty);

// ceil(x) that ignores a floating-point excess below 1e-12 relative (e.g. 32 * (1 - 0.5) stays 16 even
// if the probability carries rounding noise); genuine excesses are >= 1 / tile volume.
double ceilTolerant(double x);

} // namespace sparsemap::model
