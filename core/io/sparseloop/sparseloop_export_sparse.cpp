// `sparse_optimizations` from a SparseStrategy (the inverse of sparseloop_sparse_reader.cpp).
#include "io/sparseloop/sparseloop_export.hpp"

#include "io/sparseloop/sparseloop_writers.hpp"

#include <algorithm>

namespace sparsemap::detail {

namespace {

SgKind kindOf(SparseloopSafType type)
{
    return type == SparseloopSafType::Gating            ? SgKind::Gate
           : type == SparseloopSafType::SkippingSpatial ? SgKind::SpatialSkip
                                                        : SgKind::Skip;
}

// The Sparseloop type of an action: the imported one when the case has it, else from the S/G kind
// (a skip without a condition skips the target's own empty positions: position-skipping).
SparseloopSafType safType(const SparseloopCase& c, int level, const SgAction& a)
{
    for (const auto& saf : c.actionOptimizations)
        if (saf.storageLevel == level && saf.target == a.target && saf.conditionOn == a.conditionOn &&
            kindOf(saf.type) == a.kind)
            return saf.type;
    if (a.kind == SgKind::Gate)
        return SparseloopSafType::Gating;
    if (a.kind == SgKind::SpatialSkip)
        return SparseloopSafType::SkippingSpatial;
    return a.conditionOn.empty() ? SparseloopSafType::PositionSkipping : SparseloopSafType::Skipping;
}

std::string computeType(const SparseloopCase& c, const std::vector<SgAction>& actions)
{
    if (c.computeOptimization != SparseloopComputeOptimization::None)
        return c.computeOptimization == SparseloopComputeOptimization::Gating ? "gating" : "skipping";
    const bool gate = actions.front().kind == SgKind::Gate;
    if (std::any_of(actions.begin(), actions.end(),
                    [](const SgAction& a) { return a.kind == SgKind::SpatialSkip; }))
        sparseloopExportError("spatial skipping at the compute: Sparseloop has it only at storage levels");
    if (std::any_of(actions.begin(), actions.end(),
                    [&](const SgAction& a) { return (a.kind == SgKind::Gate) != gate; }))
        sparseloopExportError("the compute S/G site mixes gating and skipping; Sparseloop's compute "
                              "optimization is one of them");
    return gate ? "gating" : "skipping";
}

void emitFormats(YAML::Emitter& out, const SparseloopCase& c, int level)
{
    const Workload& w = c.workload;
    out << YAML::Key << "representation-format" << YAML::Value << YAML::BeginMap << YAML::Key << "data-spaces"
        << YAML::Value << YAML::BeginSeq;
    for (std::size_t t = 0; t < w.tensors.size(); ++t) {
        const auto& ranks = c.sparse.formats[level][t].ranks;
        if (ranks.empty())
            continue;
        out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << w.tensors[t].name;
        const auto& orders = c.levels.size() > static_cast<std::size_t>(level)
                                 ? c.levels[level].rankApplicationOrder
                                 : std::vector<std::string>{};
        if (t < orders.size() && !orders[t].empty())
            out << YAML::Key << "rank-application-order" << YAML::Value << orders[t];
        out << YAML::Key << "ranks" << YAML::Value << YAML::BeginSeq;
        for (const auto& rank : ranks) { // Sparseloop has no `U`: an uncompressed rank is UOP
            out << YAML::BeginMap << YAML::Key << "format" << YAML::Value
                << std::string(rankFormatName(rank.format == RankFormat::U ? RankFormat::UOP : rank.format));
            if (rank.metadataBits >= 0)
                out << YAML::Key << "metadata-word-bits" << YAML::Value << rank.metadataBits;
            if (rank.payloadBits >= 0)
                out << YAML::Key << "payload-word-bits" << YAML::Value << rank.payloadBits;
            if (!rank.flattenedDims.empty()) { // the spelling of the reference inputs
                out << YAML::Key << "flattened_rankIDs" << YAML::Value << YAML::Flow << YAML::BeginSeq
                    << YAML::BeginSeq;
                for (int d : rank.flattenedDims)
                    out << w.dims.at(d).name;
                out << YAML::EndSeq << YAML::EndSeq;
            }
            out << YAML::EndMap;
        }
        out << YAML::EndSeq << YAML::EndMap;
    }
    out << YAML::EndSeq << YAML::EndMap;
}

void emitActions(YAML::Emitter& out, const SparseloopCase& c, int level, const std::vector<SgAction>& actions)
{
    const Workload& w = c.workload;
    out << YAML::Key << "action-optimization" << YAML::Value << YAML::BeginSeq;
    for (const auto& a : actions) {
        out << YAML::BeginMap << YAML::Key << "type" << YAML::Value
            << std::string(sparseloopSafTypeName(safType(c, level, a)));
        out << YAML::Key << "target" << YAML::Value << w.tensors.at(a.target).name;
        out << YAML::Key << "condition-on" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (int t : a.conditionOn)
            out << w.tensors.at(t).name;
        out << YAML::EndSeq << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

} // namespace

void emitSparseloopSparse(YAML::Emitter& out, const SparseloopCase& c)
{
    const Architecture& arch = c.architecture;
    const std::size_t levels = arch.levels.size(), tensors = c.workload.tensors.size();
    const auto& formats = c.sparse.formats;
    if (!formats.empty() &&
        (formats.size() != levels ||
         std::any_of(formats.begin(), formats.end(), [&](const auto& row) { return row.size() != tensors; })))
        sparseloopExportError("the formats are not given per storage level and tensor");
    std::vector<const std::vector<SgAction>*> sites(levels + 1, nullptr); // the last one is the compute
    for (const auto& site : c.sparse.sites) {
        const std::size_t slot =
            site.storageLevel == kComputeSite ? levels : static_cast<std::size_t>(site.storageLevel);
        if (site.storageLevel < kComputeSite || slot > levels || sites[slot])
            sparseloopExportError("an S/G site is given twice or names no storage level");
        for (const auto& a : site.actions)
            if (a.target < 0 || a.target >= static_cast<int>(tensors) ||
                std::any_of(a.conditionOn.begin(), a.conditionOn.end(),
                            [&](int t) { return t < 0 || t >= static_cast<int>(tensors); }))
                sparseloopExportError("an S/G action names a tensor the workload does not have");
        sites[slot] = &site.actions;
    }
    const auto hasFormats = [&](std::size_t s) {
        return !formats.empty() && std::any_of(formats[s].begin(), formats[s].end(),
                                               [](const TensorFormat& f) { return !f.ranks.empty(); });
    };
    const auto hasActions = [&](std::size_t s) { return sites[s] && !sites[s]->empty(); };
    bool any = hasActions(levels);
    for (std::size_t s = 0; s < levels; ++s)
        any = any || hasFormats(s) || hasActions(s);
    if (!any)
        return;
    out << YAML::Key << "sparse_optimizations" << YAML::Value << YAML::BeginMap << YAML::Key << "targets"
        << YAML::Value << YAML::BeginSeq;
    for (std::size_t s = 0; s < levels; ++s) {
        if (!hasFormats(s) && !hasActions(s))
            continue;
        out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << arch.levels[s].name;
        if (hasFormats(s))
            emitFormats(out, c, static_cast<int>(s));
        if (hasActions(s))
            emitActions(out, c, static_cast<int>(s), *sites[s]);
        out << YAML::EndMap;
    }
    if (hasActions(levels))
        out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << arch.compute.name << YAML::Key
            << "compute-optimization" << YAML::Value << YAML::BeginSeq << YAML::Flow << YAML::BeginMap
            << YAML::Key << "type" << YAML::Value << computeType(c, *sites[levels]) << YAML::EndMap
            << YAML::EndSeq << YAML::EndMap;
    out << YAML::EndSeq << YAML::EndMap;
}

} // namespace sparsemap::detail
