#pragma once
// Rank index expressions of general workloads: a dim name, or a sum of `coef*dim` terms
// (e.g. `2*P + R`, the input row of a convolution with stride 2).
#include "io/units.hpp"
#include "workload/workload.hpp"

#include <string>
#include <string_view>

namespace sparsemap::detail {

// `dims` are the workload's dimensions (names resolve to indices). The error says what is allowed.
Parsed<RankProjection> parseIndexExpression(std::string_view text, const std::vector<Dimension>& dims);
// "2*P + R"; the inverse of parseIndexExpression.
std::string indexExpressionText(const RankProjection& rank, const std::vector<Dimension>& dims);

} // namespace sparsemap::detail
