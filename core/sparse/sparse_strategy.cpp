#include "sparse/sparse_strategy.hpp"

#include <algorithm>

namespace sparsemap {

bool TensorFormat::compressed() const
{
    return std::any_of(ranks.begin(), ranks.end(),
                       [](const FormatRank& r) { return r.format != RankFormat::U; });
}

bool TensorFormat::hasMetadata() const
{
    return compressed() || (ranks.size() >= 2 && ranks.front().mappingLevel < 0);
}

bool representableInSparseloop(const TensorFormat& format)
{
    if (!format.compressed())
        return true;
    bool seenCompressed = false; // outer to inner: once compressed, every inner rank must be too
    for (const auto& r : format.ranks) {
        if (isCompressedRankFormat(r.format))
            seenCompressed = true;
        else if (seenCompressed)
            return false;
    }
    return true;
}

FormatSite firstUnrepresentableFormat(const SparseStrategy& sparse)
{
    for (std::size_t s = 0; s < sparse.formats.size(); ++s)
        for (std::size_t t = 0; t < sparse.formats[s].size(); ++t)
            if (!representableInSparseloop(sparse.formats[s][t]))
                return {static_cast<int>(s), static_cast<int>(t)};
    return {};
}

std::string formatRanksText(const TensorFormat& format, const std::vector<std::string>& rankNames)
{
    std::string text;
    for (std::size_t i = 0; i < format.ranks.size(); ++i) {
        text += (i ? " " : "") + std::string(rankFormatName(format.ranks[i].format));
        if (i < rankNames.size() && !rankNames[i].empty())
            text += "(" + rankNames[i] + ")";
    }
    return text;
}

bool makeRepresentableInSparseloop(TensorFormat& format)
{
    if (representableInSparseloop(format))
        return false;
    auto& ranks = format.ranks;
    const int n = static_cast<int>(ranks.size());
    // split k: ranks [0, k) uncompressed, [k, n) compressed; k = n keeps none compressed.
    int bestSplit = n, bestCost = n + 1;
    for (int k = 0; k <= n; ++k) {
        int cost = 0;
        for (int i = 0; i < n; ++i)
            cost += (i < k) == isCompressedRankFormat(ranks[i].format);
        if (cost < bestCost) { // the first minimum: the smallest k, the most compressed ranks
            bestCost = cost;
            bestSplit = k;
        }
    }
    const int k = bestSplit;
    for (int i = 0; i < k; ++i)
        if (isCompressedRankFormat(ranks[i].format))
            ranks[i].format = RankFormat::U;
    for (int i = n - 1; i >= k; --i) {
        if (isCompressedRankFormat(ranks[i].format))
            continue;
        RankFormat take = RankFormat::B;
        bool found = false;
        for (int j = i + 1; j < n && !found; ++j)
            if (isCompressedRankFormat(ranks[j].format)) {
                take = ranks[j].format;
                found = true;
            }
        for (int j = i - 1; j >= 0 && !found; --j)
            if (isCompressedRankFormat(ranks[j].format)) {
                take = ranks[j].format;
                found = true;
            }
        ranks[i].format = take;
    }
    return true;
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
