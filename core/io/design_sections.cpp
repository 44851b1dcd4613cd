#include "io/design_sections.hpp"

#include "design/loop_nest_text.hpp"
#include "genome/sg_gene.hpp"
#include "io/sg_text.hpp"

#include <algorithm>

namespace sparsemap::detail {

namespace {

std::vector<std::string> dimNames(const Workload& w)
{
    return w.dimNames();
}

int indexOf(const std::vector<std::string>& names, const std::string& name)
{
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

void readOrder(const YamlReader& node, const Workload& w, std::vector<int>& order)
{
    const auto dims = dimNames(w);
    const std::string rule = "a permutation of the dimensions " + joinNames(dims) + ", outer to inner";
    if (!node.expectSequence(rule))
        return;
    std::vector<int> read;
    for (const auto& item : node.items()) {
        const auto name = item.choice("dimension", dims);
        if (!name)
            return;
        read.push_back(indexOf(dims, *name));
    }
    std::vector<int> sorted = read;
    std::sort(sorted.begin(), sorted.end());
    if (read.size() != dims.size() || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        node.error("order must list every dimension exactly once: " + rule);
        return;
    }
    order = read;
}

void readBounds(const YamlReader& node, const GenomeLayout& layout, std::vector<std::int64_t>& bounds)
{
    const Workload& w = layout.workload();
    const auto dims = dimNames(w);
    if (!node.expectMap("a map {dim: bound}; dims " + joinNames(dims) + ", a missing dim has bound 1"))
        return;
    for (const auto& [dimName, value] : node.entries()) {
        const int d = indexOf(dims, dimName);
        if (d < 0) {
            node.keyNode(dimName)->error("`" + dimName + "` is not a dimension; the dims are " +
                                         joinNames(dims));
            continue;
        }
        const auto bound = value.integerAtLeast(1, "a positive integer (the loop bound)");
        if (bound && *bound > layout.paddedSize(d))
            value.error("bound " + std::to_string(*bound) + " of " + dimName + " exceeds its padded size " +
                        std::to_string(layout.paddedSize(d)) +
                        "; the bounds of a dim multiply to its padded size");
        else if (bound)
            bounds[d] = *bound;
    }
}

std::vector<std::string> formatNames()
{
    std::vector<std::string> out;
    for (int f = 0; f < kRankFormatCount; ++f)
        out.emplace_back(rankFormatName(static_cast<RankFormat>(f)));
    return out;
}

} // namespace

std::string formatListText(const std::vector<RankFormat>& formats)
{
    std::string out;
    for (auto f : formats)
        out += (out.empty() ? "" : ", ") + std::string(rankFormatName(f));
    return "[" + out + "]";
}

std::optional<MappingSection> readMappingSection(const YamlReader& reader, const GenomeLayout& layout)
{
    const auto& slots = layout.mappingLevels();
    std::vector<std::string> slotNames;
    for (const auto& slot : slots)
        slotNames.push_back(slot.name);
    if (!reader.expectSequence("a list of {level, order, bounds}, one per mapping level " +
                               joinNames(slotNames)))
        return std::nullopt;
    const std::size_t errorsBefore = reader.sink().count();
    MappingSection section{trivialMapping(layout.architecture(), layout.workload()), {}};
    section.entries.resize(slots.size());
    for (const auto& item : reader.items()) {
        if (!item.expectMap("a mapping level {level: L2_T, order: [M, K, N], bounds: {M: 1, K: 2, N: 4}}"))
            continue;
        item.checkKeys({"level", "order", "bounds"});
        const auto levelNode = item.require("level", "one of " + joinNames(slotNames));
        const auto name = levelNode ? levelNode->choice("mapping level", slotNames) : std::nullopt;
        if (!name)
            continue;
        const int l = indexOf(slotNames, *name);
        if (section.entries[l]) {
            levelNode->error("mapping level " + *name + " is given twice; give each level once");
            continue;
        }
        section.entries[l].emplace(item);
        if (const auto order = item.get("order"))
            readOrder(*order, layout.workload(), section.mapping.levels[l].order);
        if (const auto bounds = item.get("bounds"))
            readBounds(*bounds, layout, section.mapping.levels[l].bounds);
    }
    for (std::size_t l = 0; l < slots.size(); ++l)
        if (!section.entries[l])
            reader.error("mapping level " + slots[l].name +
                         " is missing; list every level: " + joinNames(slotNames));
    if (reader.sink().count() != errorsBefore)
        return std::nullopt;
    return section;
}

std::optional<FormatsSection> readFormatsSection(const YamlReader& reader, const GenomeLayout& layout)
{
    const Workload& w = layout.workload();
    const Architecture& arch = layout.architecture();
    std::vector<std::string> levels, tensors;
    for (const auto& l : arch.levels)
        levels.push_back(l.name);
    for (const auto& t : w.tensors)
        tensors.push_back(t.name);
    const auto allowed = formatNames();
    if (!reader.expectMap("a map {storage level: {tensor: [per-rank formats]}}"))
        return std::nullopt;
    const std::size_t errorsBefore = reader.sink().count();
    FormatsSection section{std::vector<std::vector<std::optional<FormatEntry>>>(
        levels.size(), std::vector<std::optional<FormatEntry>>(tensors.size()))};
    for (const auto& [levelName, perTensor] : reader.entries()) {
        const int s = indexOf(levels, levelName);
        if (s < 0) {
            reader.keyNode(levelName)->error("`" + levelName +
                                             "` is not a storage level; levels: " + joinNames(levels));
            continue;
        }
        if (!perTensor.expectMap("a map {tensor: [per-rank formats, outer to inner]}; tensors " +
                                 joinNames(tensors)))
            continue;
        for (const auto& [tensorName, list] : perTensor.entries()) {
            const int t = indexOf(tensors, tensorName);
            if (t < 0) {
                perTensor.keyNode(tensorName)
                    ->error("`" + tensorName + "` is not a tensor; tensors: " + joinNames(tensors));
                continue;
            }
            if (!list.expectSequence("a list of per-rank formats, outer to inner (e.g. [B, CP]); formats " +
                                     joinNames(allowed)))
                continue;
            std::vector<RankFormat> formats;
            for (const auto& item : list.items()) {
                const auto text = item.text();
                const auto format = text ? parseRankFormat(*text) : std::nullopt;
                if (text && !format)
                    item.error("unknown format `" + *text + "`; allowed: " + joinNames(allowed) +
                               " (or uncompressed, bitmask, run-length-encoding, coordinate-payload, "
                               "uncompressed-offset-pairs)");
                formats.push_back(format.value_or(RankFormat::U));
            }
            section.entries[s][t].emplace(FormatEntry{formats, list});
        }
    }
    if (reader.sink().count() != errorsBefore)
        return std::nullopt;
    return section;
}

std::optional<SgSection> readSgSection(const YamlReader& reader, const GenomeLayout& layout)
{
    const Workload& w = layout.workload();
    std::vector<std::string> sites, choices;
    for (int site : layout.sgSites())
        sites.push_back(sgSiteName(layout.architecture(), SgSite{site, {}}));
    for (int gene = 0; gene < layout.sgGeneCount(); ++gene)
        choices.push_back(sgText(w, SgSite{kComputeSite, sgActionsFromGene(gene, layout.inputTensors())}));
    if (!reader.expectMap("a map {site: S/G}; sites " + joinNames(sites)))
        return std::nullopt;
    const std::size_t errorsBefore = reader.sink().count();
    SgSection section{std::vector<std::optional<SgEntry>>(sites.size())};
    for (const auto& [siteName, value] : reader.entries()) {
        const int i = indexOf(sites, siteName);
        if (i < 0) {
            reader.keyNode(siteName)->error("`" + siteName + "` is not an S/G site; sites: " +
                                            joinNames(sites) + " (the outermost level has none)");
            continue;
        }
        const auto text = value.text();
        if (!text)
            continue;
        const auto parsed = parseSgText(*text, w);
        if (!parsed.value) {
            value.error(parsed.error);
            continue;
        }
        const auto gene = sgGeneFromActions(*parsed.value, layout.inputTensors());
        if (!gene) {
            value.error("S/G `" + *text + "` has no SparseMap gene; allowed: " + joinNames(choices));
            continue;
        }
        section.entries[i].emplace(SgEntry{*gene, value});
    }
    if (reader.sink().count() != errorsBefore)
        return std::nullopt;
    return section;
}

} // namespace sparsemap::detail
