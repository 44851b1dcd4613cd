#include "sparse/sparse_strategy.hpp"

#include <algorithm>

namespace sparsemap {

bool TensorFormat::compressed() const
{
    return std::any_of(ranks.begin(), ranks.end(),
                       [](const FormatRank& r) { return r.format != RankFormat::U; });
}

std::string_view sgKindName(SgKind kind)
{
    return kind == SgKind::Gate ? "Gate" : "Skip";
}

} // namespace sparsemap
