#include "io/sparseloop/sparseloop_options.hpp"

#include <algorithm>

namespace sparsemap::model {

namespace {

// Sparseloop's AdjustFormatWordBits (2022 sparse-optimization-parser.cpp): a width the rank does not
// give is the level's `metadata_datawidth` (0 when absent), and a width that does not divide
// `metadata_storage_width` is rounded up to the next one that does (below twice the width) to avoid
// fragmentation. A bitmask's metadata width defaults to 1 bit in its format model (bitmask.cpp) before
// this adjustment.
int adjustWordBits(int given, const SparseloopLevelExtras& extras)
{
    const int bits = given >= 0 ? given : std::max(0, extras.defaultMetadataWordBits);
    const int width = extras.metadataStorageWidthBits;
    if (bits == 0 || width == 0 || width % bits == 0)
        return bits;
    for (int b = bits; b < 2 * bits; ++b)
        if (width % b == 0)
            return b;
    return 2 * bits;
}

} // namespace

ModelOptions sparseloopModelOptions(const SparseloopCase& c)
{
    ModelOptions options;
    options.occupancyConfidence = 1.0; // Sparseloop checks the largest tile (no overbooking)
    // Sparseloop's default order is outer-to-inner; the references say inner-to-outer.
    bool innerToOuter = false;
    for (const auto& level : c.levels)
        for (const auto& order : level.rankApplicationOrder)
            innerToOuter |= order == "inner-to-outer";
    options.bindRanksInnerToOuter = innerToOuter;
    options.skipNeedsLeaderMetadata = false;
    for (const auto& level : c.levels)
        options.metadataStorageWidthBits.push_back(level.metadataStorageWidthBits);
    return options;
}

Design sparseloopDesign(const SparseloopCase& c)
{
    Design design = c.design();
    // Rebuild the storage sites from the typed action list.
    std::vector<SgSite> sites;
    for (const auto& site : design.sparse.sites)
        if (site.storageLevel == kComputeSite)
            sites.push_back(site);
    for (const auto& a : c.actionOptimizations) {
        SgAction action;
        action.target = a.target;
        switch (a.type) {
        case SparseloopSafType::Gating:
            action.kind = SgKind::Gate;
            action.conditionOn = a.conditionOn;
            break;
        case SparseloopSafType::Skipping:
            action.kind = SgKind::Skip;
            action.conditionOn = a.conditionOn;
            break;
        case SparseloopSafType::SkippingSpatial:
            action.kind = SgKind::SpatialSkip;
            action.conditionOn = a.conditionOn;
            break;
        case SparseloopSafType::PositionSkipping:
            action.kind = SgKind::Skip;
            action.conditionOn.clear();
            break;
        }
        SgSite* site = nullptr;
        for (auto& s : sites)
            if (s.storageLevel == a.storageLevel)
                site = &s;
        if (!site) {
            sites.push_back(SgSite{a.storageLevel, {}});
            site = &sites.back();
        }
        site->actions.push_back(action);
    }
    design.sparse.sites = std::move(sites);
    // Word bits as Sparseloop resolves them (the import keeps absent widths as -1).
    for (std::size_t level = 0; level < design.sparse.formats.size() && level < c.levels.size(); ++level)
        for (auto& format : design.sparse.formats[level])
            for (auto& rank : format.ranks) {
                rank.metadataBits = adjustWordBits(
                    rank.metadataBits < 0 && rank.format == RankFormat::B ? 1 : rank.metadataBits,
                    c.levels[level]);
                rank.payloadBits = adjustWordBits(rank.payloadBits, c.levels[level]);
            }
    return design;
}

} // namespace sparsemap::model
