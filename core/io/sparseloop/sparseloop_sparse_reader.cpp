// `sparse_optimizations` -> SparseStrategy (model-notes-sparse §3.1, §4.1). Per target (a storage
// level or the compute): representation formats per tensor (ranks as listed, outermost first, not yet
// bound to loops), action optimizations (gating / skipping / skipping-spatial / position-skipping) and
// the compute optimization.
#include "io/sparseloop/sparseloop_readers.hpp"

#include <algorithm>

namespace sparsemap::detail {

namespace {

const std::vector<std::string> kSafTypes{"gating", "skipping", "skipping-spatial", "position-skipping"};

std::vector<std::string> tensorNames(const Workload& w)
{
    std::vector<std::string> out;
    for (const auto& t : w.tensors)
        out.push_back(t.name);
    return out;
}

std::optional<int> tensorOf(const YamlReader& node, const Workload& w)
{
    const auto name = node.text();
    if (!name)
        return std::nullopt;
    const int t = w.tensorIndex(*name);
    if (t < 0)
        node.error("unknown tensor `" + *name + "`; tensors: " + joinNames(tensorNames(w)));
    return t < 0 ? std::nullopt : std::optional<int>(t);
}

int bitsOf(const std::optional<YamlReader>& node)
{
    if (!node)
        return -1;
    const auto v = node->integerAtLeast(0, "an integer >= 0 (bits)");
    if (v && *v > 4096)
        node->error("at most 4096 bits");
    return v && *v <= 4096 ? static_cast<int>(*v) : -1;
}

FormatRank readRank(const YamlReader& r, SparseloopCase& out)
{
    const Workload& w = out.workload;
    FormatRank rank;
    rank.dim = -1;
    rank.mappingLevel = -1; // declared ranks: the model binds them to the tile's loops
    r.checkKeys(
        {"format", "metadata-word-bits", "payload-word-bits", "flattened_rankIDs", "flattened-rankIDs"});
    if (const auto f = r.require("format", "the rank's format: UOP, CP, RLE, B or U"))
        if (const auto text = f->text()) {
            if (const auto format = parseRankFormat(*text))
                rank.format = *format;
            else
                f->error("unknown rank format `" + *text +
                         "`; allowed: UOP, CP, RLE, B, U (or "
                         "uncompressed-offset-pairs, coordinate-payload, run-length-encoding, bitmask, "
                         "uncompressed)");
        }
    rank.metadataBits = bitsOf(r.get("metadata-word-bits"));
    rank.payloadBits = bitsOf(r.get("payload-word-bits"));
    const bool underscore = !r.has("flattened-rankIDs") && r.has("flattened_rankIDs");
    const auto flattened = r.get(underscore ? "flattened_rankIDs" : "flattened-rankIDs");
    if (underscore)
        addNote(out, "flattened_rankIDs ignored, as Sparseloop (2022) ignores it: it reads only "
                     "`flattened-rankIDs`, so in its runs these ranks were not flattened");
    std::vector<int> dims;
    if (flattened && flattened->expectSequence("lists of dimension names"))
        for (const auto& group : flattened->items())
            for (const auto& item : group.isSequence() ? group.items() : std::vector<YamlReader>{group})
                if (const auto name = item.text()) {
                    const int dim = w.dimIndex(*name);
                    if (dim < 0)
                        item.error("unknown dimension `" + *name + "` in flattened-rankIDs");
                    else
                        dims.push_back(dim);
                }
    if (!underscore && !dims.empty()) {
        rank.flattenedDims = dims;
        rank.dim = dims.front();
    }
    return rank;
}

void readFormats(const YamlReader& rf, int level, SparseloopCase& out)
{
    const Workload& w = out.workload;
    if (!rf.expectMap("{data-spaces: [...]}"))
        return;
    rf.checkKeys({"data-spaces"});
    const auto spaces = rf.require("data-spaces", "the formats per tensor, a list of {name, ranks}");
    if (!spaces || !spaces->expectSequence("the formats per tensor"))
        return;
    std::vector<int> seen;
    for (const auto& space : spaces->items()) {
        if (!space.expectMap("{name, ranks, rank-application-order}"))
            continue;
        space.checkKeys({"name", "ranks", "rank-application-order"});
        const auto name = space.require("name", "the tensor");
        const auto tensor = name ? tensorOf(*name, w) : std::nullopt;
        if (!tensor)
            continue;
        if (std::find(seen.begin(), seen.end(), *tensor) != seen.end()) {
            name->error("tensor `" + w.tensors[*tensor].name + "` has two formats at this level");
            continue;
        }
        seen.push_back(*tensor);
        TensorFormat format;
        if (const auto ranks = space.require("ranks", "the ranks, outermost first"))
            if (ranks->expectSequence("the ranks, outermost first"))
                for (const auto& r : ranks->items())
                    if (r.expectMap("a rank {format, metadata-word-bits, payload-word-bits}"))
                        format.ranks.push_back(readRank(r, out));
        out.sparse.formats[level][*tensor] = std::move(format);
        if (const auto order = space.get("rank-application-order"))
            if (const auto text =
                    order->choice("rank application order", {"inner-to-outer", "outer-to-inner"}))
                out.levels[level].rankApplicationOrder[*tensor] = *text;
    }
}

// One optimization: `type` from `entry`, `target` and `condition-on` from `body` (the entry itself,
// or the single alternative of its `options` group).
void readAction(const YamlReader& entry, const YamlReader& body, int level, std::vector<SgAction>& site,
                SparseloopCase& out)
{
    const Workload& w = out.workload;
    const auto typeNode = entry.require("type", "one of " + joinNames(kSafTypes));
    const auto targetNode = body.require("target", "the tensor whose accesses are gated or skipped");
    const auto type = typeNode ? typeNode->choice("optimization type", kSafTypes) : std::nullopt;
    const int target = targetNode ? tensorOf(*targetNode, w).value_or(-1) : -1;
    SparseloopActionOptimization saf;
    saf.storageLevel = level;
    if (const auto cond = body.get("condition-on"); cond && cond->expectSequence("a list of tensor names"))
        for (const auto& item : cond->items())
            if (const auto t = tensorOf(item, w)) {
                if (*t == target)
                    item.error("`" + w.tensors[*t].name +
                               "` cannot be conditioned on itself; "
                               "condition-on: [] skips its own empty positions");
                saf.conditionOn.push_back(*t);
            }
    if (!type || target < 0)
        return;
    saf.type = static_cast<SparseloopSafType>(std::find(kSafTypes.begin(), kSafTypes.end(), *type) -
                                              kSafTypes.begin());
    saf.target = target;
    const SgKind kind = saf.type == SparseloopSafType::Gating            ? SgKind::Gate
                        : saf.type == SparseloopSafType::SkippingSpatial ? SgKind::SpatialSkip
                                                                         : SgKind::Skip;
    site.push_back(SgAction{kind, saf.target, saf.conditionOn});
    out.actionOptimizations.push_back(std::move(saf));
}

void readActions(const YamlReader& list, int level, std::vector<SgAction>& site, SparseloopCase& out)
{
    if (!list.expectSequence("a list of {type, target, condition-on}"))
        return;
    for (const auto& entry : list.items()) {
        if (!entry.expectMap("{type, target, condition-on}"))
            continue;
        if (!entry.has("options")) {
            entry.checkKeys({"type", "target", "condition-on"});
            readAction(entry, entry, level, site, out);
            continue;
        }
        // Sparseloop's `options` group: alternatives of which its sparse analysis applies the one with
        // the largest expected saving (storage-gs-analyzer.cpp). A group of one is that optimization.
        entry.checkKeys({"type", "options"});
        const auto options = entry.get("options");
        if (!options->expectSequence("a list of {target, condition-on}"))
            continue;
        const auto alternatives = options->items();
        if (alternatives.size() != 1) {
            options->error("an `options` group of " + std::to_string(alternatives.size()) +
                           " alternatives is not supported (Sparseloop picks the one with the largest "
                           "expected saving; the model does not choose); give one alternative");
            continue;
        }
        if (!alternatives[0].expectMap("{target, condition-on}"))
            continue;
        alternatives[0].checkKeys({"target", "condition-on"});
        readAction(entry, alternatives[0], level, site, out);
    }
}

void readComputeOptimization(const YamlReader& list, std::vector<SgAction>& site, SparseloopCase& out)
{
    if (!list.expectSequence("a list with one {type: gating | skipping}"))
        return;
    const auto items = list.items();
    if (items.size() != 1) {
        list.error("give exactly one compute optimization, {type: gating} or {type: skipping}");
        return;
    }
    items[0].checkKeys({"type"});
    const auto typeNode = items[0].require("type", "gating or skipping");
    const auto type =
        typeNode ? typeNode->choice("compute optimization type", {"gating", "skipping"}) : std::nullopt;
    if (!type)
        return;
    const bool gating = *type == "gating";
    out.computeOptimization =
        gating ? SparseloopComputeOptimization::Gating : SparseloopComputeOptimization::Skipping;
    const auto inputs = out.workload.inputTensors();
    for (int t : inputs) {
        SgAction action{gating ? SgKind::Gate : SgKind::Skip, t, {}};
        for (int other : inputs)
            if (other != t)
                action.conditionOn.push_back(other);
        site.push_back(std::move(action));
    }
}

} // namespace

void readSparseloopSparse(const std::optional<YamlReader>& sparse, SparseloopCase& out)
{
    const Architecture& arch = out.architecture;
    const std::size_t levels = arch.levels.size(), tensors = out.workload.tensors.size();
    out.sparse.formats.assign(levels, std::vector<TensorFormat>(tensors));
    for (auto& extras : out.levels)
        extras.rankApplicationOrder.assign(tensors, "");
    std::vector<std::vector<SgAction>> sites(levels + 1); // the last one is the compute
    const auto targets =
        sparse ? sparse->require("targets", "the optimized levels, a list of {name, ...}") : std::nullopt;
    if (sparse && sparse->expectMap("{targets: [...]}"))
        sparse->checkKeys({"targets"});
    std::vector<std::string> seen, names;
    for (const auto& l : arch.levels)
        names.push_back(l.name);
    names.push_back(arch.compute.name);
    for (const auto& target : targets && targets->expectSequence("the optimized levels")
                                  ? targets->items()
                                  : std::vector<YamlReader>{}) {
        if (!target.expectMap("{name, representation-format, action-optimization, compute-optimization}"))
            continue;
        target.checkKeys({"name", "representation-format", "action-optimization", "compute-optimization"});
        const auto nameNode = target.require("name", "a storage level or the compute");
        const auto name = nameNode ? nameNode->text() : std::nullopt;
        if (!name)
            continue;
        const int level = arch.levelIndex(*name);
        const bool compute = level < 0 && *name == arch.compute.name;
        if (level < 0 && !compute) {
            nameNode->error("unknown target `" + *name + "`; levels and compute: " + joinNames(names));
            continue;
        }
        if (std::find(seen.begin(), seen.end(), *name) != seen.end()) {
            nameNode->error("target `" + *name + "` is given twice; merge its optimizations into one entry");
            continue;
        }
        seen.push_back(*name);
        const std::size_t slot = compute ? levels : static_cast<std::size_t>(level);
        if (const auto rf = target.get("representation-format"))
            compute ? rf->error("the compute has no storage to format") : readFormats(*rf, level, out);
        if (const auto ao = target.get("action-optimization"))
            compute ? ao->error("use compute-optimization at the compute")
                    : readActions(*ao, level, sites[slot], out);
        if (const auto co = target.get("compute-optimization"))
            compute ? readComputeOptimization(*co, sites[slot], out)
                    : co->error("compute-optimization belongs to the compute `" + arch.compute.name + "`");
    }
    // Sites in genome order (every on-chip level, then the compute); the backing store only when used.
    out.sparse.sites.clear();
    for (std::size_t s = 0; s < levels; ++s)
        if (s > 0 || !sites[s].empty())
            out.sparse.sites.push_back(SgSite{static_cast<int>(s), std::move(sites[s])});
    out.sparse.sites.push_back(SgSite{kComputeSite, std::move(sites[levels])});
}

} // namespace sparsemap::detail
