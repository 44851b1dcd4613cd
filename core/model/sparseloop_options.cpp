#include "model/sparseloop_options.hpp"

namespace sparsemap::model {

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
    return design;
}

} // namespace sparsemap::model
