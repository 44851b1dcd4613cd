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
    switch (kind) {
    case SgKind::Gate:
        return "Gate";
    case SgKind::Skip:
        return "Skip";
    case SgKind::SpatialSkip:
        return "SpatialSkip";
    }
    return "Gate";
}

} // namespace sparsemap
