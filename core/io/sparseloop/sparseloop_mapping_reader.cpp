// The `mapping` list -> Mapping (model-notes-dataflow §1.4). A temporal directive fills the storage
// level's _T mapping level, a spatial one its _S level (the fan-out below it). Timeloop lists a
// permutation innermost first; MappingLevel::order is outer to inner, so it is reversed, and dims the
// permutation leaves out go outermost. `split: s` makes the innermost s loops Spatial-X.
#include "io/sparseloop/sparseloop_readers.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace sparsemap::detail {

namespace {

std::vector<std::string> dimNames(const Workload& w)
{
    return w.dimNames();
}

// "M1 N128 K1" (or "M=1 N=128 K=1") -> bounds; dims not listed keep bound 1.
void readFactors(const YamlReader& node, const Workload& w, MappingLevel& level)
{
    const auto text = node.text();
    if (!text)
        return;
    std::istringstream tokens(*text);
    std::vector<bool> seen(w.dims.size(), false);
    for (std::string token; tokens >> token;) {
        std::size_t split = token.find('=');
        std::string digits;
        if (split != std::string::npos) {
            digits = token.substr(split + 1);
        } else {
            split = token.size();
            while (split > 0 && std::isdigit(static_cast<unsigned char>(token[split - 1])))
                --split;
            digits = token.substr(split);
        }
        const std::string name = token.substr(0, split);
        const int dim = w.dimIndex(name);
        std::int64_t value = 0;
        const bool number =
            !digits.empty() && digits.size() < 15 &&
            std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); });
        if (number)
            value = std::stoll(digits);
        if (dim < 0)
            node.error("unknown dimension `" + name + "` in factors `" + *text +
                       "`; dimensions: " + joinNames(dimNames(w)));
        else if (!number)
            node.error("factor `" + token +
                       "` must be a dimension name and an integer >= 0, e.g. M16 "
                       "(0 = the whole dimension)");
        else if (value == 0 && !seen[dim]) { // Timeloop's ParseUserFactors: 0 = the full problem bound
            seen[dim] = true;
            level.bounds[dim] = w.dims[dim].size;
        } else if (value > w.dims[dim].size)
            node.error("factor `" + token + "` exceeds the size of `" + name + "` (" +
                       std::to_string(w.dims[dim].size) + ")");
        else if (seen[dim])
            node.error("dimension `" + name + "` has two factors in `" + *text + "`");
        else {
            seen[dim] = true;
            level.bounds[dim] = value;
        }
    }
}

// The permutation's dims, innermost first: "NMK", "N M K" or a list.
std::vector<int> readPermutation(const YamlReader& node, const Workload& w)
{
    std::vector<std::string> names;
    if (node.isSequence()) {
        for (const auto& item : node.items())
            names.push_back(item.text().value_or(""));
    } else if (const auto text = node.text()) {
        std::istringstream tokens(*text);
        for (std::string token; tokens >> token;)
            names.push_back(token);
        // A token that is no dim name is split, longest dim name first at each position: "NMK", and
        // Timeloop's grouped form "RSP CMNQ" (it reads one letter at a time and skips spaces).
        std::vector<std::string> split;
        for (const auto& token : names) {
            if (w.dimIndex(token) >= 0) {
                split.push_back(token);
                continue;
            }
            for (std::size_t pos = 0; pos < token.size();) {
                std::size_t best = 1;
                for (const auto& d : w.dims)
                    if (d.name.size() > best && token.compare(pos, d.name.size(), d.name) == 0)
                        best = d.name.size();
                split.push_back(token.substr(pos, best));
                pos += best;
            }
        }
        names = std::move(split);
    }
    std::vector<int> dims;
    for (const auto& name : names) {
        const int dim = w.dimIndex(name);
        if (dim < 0)
            node.error("unknown dimension `" + name +
                       "` in the permutation; dimensions: " + joinNames(dimNames(w)));
        else if (std::find(dims.begin(), dims.end(), dim) != dims.end())
            node.error("dimension `" + name + "` appears twice in the permutation");
        else
            dims.push_back(dim);
    }
    return dims;
}

std::vector<int> tensorList(const std::optional<YamlReader>& list, const Workload& w)
{
    std::vector<int> out;
    if (!list || !list->expectSequence("a list of tensor names"))
        return out;
    for (const auto& item : list->items()) {
        const auto name = item.text();
        if (!name)
            continue;
        const int t = w.tensorIndex(*name);
        if (t < 0) {
            std::vector<std::string> tensors;
            for (const auto& tensor : w.tensors)
                tensors.push_back(tensor.name);
            item.error("unknown tensor `" + *name + "`; tensors: " + joinNames(tensors));
        } else {
            out.push_back(t);
        }
    }
    return out;
}

void readDatatype(const YamlReader& d, int level, const Workload& w, Mapping& m)
{
    const auto keep = tensorList(d.get("keep"), w);
    const auto bypassNode = d.get("bypass");
    const auto bypass = tensorList(bypassNode, w);
    for (int t : bypass) {
        if (std::find(keep.begin(), keep.end(), t) != keep.end())
            bypassNode->error("tensor `" + w.tensors[t].name + "` is both kept and bypassed at `" +
                              d.get("target")->node().Scalar() + "`");
        m.keep[level][t] = false;
    }
    for (int t : tensorList(d.get("stream"), w))
        m.stream[level][t] = true;
}

} // namespace

void readSparseloopMapping(const YamlReader& mapping, const YamlReader& mappingKey, SparseloopCase& out)
{
    const Workload& w = out.workload;
    const Architecture& arch = out.architecture;
    Mapping m = trivialMapping(arch, w);
    m.keep.assign(arch.levels.size(), std::vector<bool>(w.tensors.size(), true));
    m.stream.assign(arch.levels.size(), std::vector<bool>(w.tensors.size(), false));
    std::vector<int> directiveLine(m.levels.size(), 0);
    std::vector<std::string> seen;
    std::vector<std::string> levelNames;
    for (const auto& l : arch.levels)
        levelNames.push_back(l.name);
    const std::size_t errorsBefore = mapping.sink().count();
    if (!mapping.expectSequence("the mapping directives, a list of {target, type, ...}"))
        return;
    for (const auto& d : mapping.items()) {
        if (!d.expectMap("a mapping directive {target, type, ...}"))
            continue;
        const auto targetNode = d.require("target", "the storage level this directive is about");
        const auto typeNode = d.require("type", "temporal, spatial or datatype");
        const auto target = targetNode ? targetNode->text() : std::nullopt;
        const auto type =
            typeNode ? typeNode->choice("directive type", {"temporal", "spatial", "datatype", "bypass"})
                     : std::nullopt;
        if (!target || !type)
            continue;
        const int level = arch.levelIndex(*target);
        if (level < 0) {
            targetNode->error("unknown storage level `" + *target + "`; levels: " + joinNames(levelNames));
            continue;
        }
        const bool datatype = *type == "datatype" || *type == "bypass";
        const std::string key = *target + (datatype ? "/datatype" : "/" + *type);
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
            d.error("a second " + std::string(datatype ? "datatype" : *type) + " directive for `" + *target +
                    "`");
            continue;
        }
        seen.push_back(key);
        if (datatype) {
            d.checkKeys({"target", "type", "keep", "bypass", "stream"});
            readDatatype(d, level, w, m);
            continue;
        }
        d.checkKeys({"target", "type", "factors", "permutation", "split", "no_link_transfer",
                     "no_multicast_no_reduction"});
        if (d.has("no_multicast_no_reduction"))
            addNote(
                out,
                "no_multicast_no_reduction ignored (multicast and spatial reduction are always modelled)");
        if (*type == "spatial") {
            // Timeloop forwards data between neighbouring instances unless a tensor is listed here.
            std::size_t listed = 0;
            if (const auto n = d.get("no_link_transfer"); n && n->node().IsSequence())
                listed = n->node().size();
            if (listed < w.tensors.size())
                addNote(out, "spatial directive at `" + *target +
                                 "`: link transfers between instances are not modelled (Timeloop models them "
                                 "for tensors not listed in no_link_transfer)");
        }
        const LoopKind kind = *type == "spatial" ? LoopKind::Spatial : LoopKind::Temporal;
        const auto slot = std::find_if(m.levels.begin(), m.levels.end(), [&](const MappingLevel& ml) {
            return ml.storageLevel == level && ml.kind == kind;
        });
        if (slot == m.levels.end()) {
            typeNode->error("`" + *target +
                            "` is the outermost level and feeds one instance of the next level, so it "
                            "has no spatial loops; map spatial loops at an inner level");
            continue;
        }
        if (const auto factors = d.get("factors")) {
            readFactors(*factors, w, *slot);
            directiveLine[slot - m.levels.begin()] = factors->line();
        }
        if (const auto perm = d.get("permutation")) {
            const auto innerFirst = readPermutation(*perm, w);
            std::vector<int> order;
            for (int dim = 0; dim < static_cast<int>(w.dims.size()); ++dim)
                if (std::find(innerFirst.begin(), innerFirst.end(), dim) == innerFirst.end())
                    order.push_back(dim);
            order.insert(order.end(), innerFirst.rbegin(), innerFirst.rend());
            slot->order = order;
        }
        if (const auto split = d.get("split")) {
            if (kind != LoopKind::Spatial)
                split->error("`split` applies to spatial directives only");
            else if (const auto s = split->integerAtLeast(0, "an integer >= 0 (loops along X)"))
                slot->spatialXLoops = static_cast<int>(std::min<std::int64_t>(*s, 1 << 20));
        }
    }
    // A directive that did not read leaves its factors out; the products would only repeat that.
    for (std::size_t dim = 0; dim < w.dims.size() && mapping.sink().count() == errorsBefore; ++dim) {
        const std::int64_t size = w.dims[dim].size;
        std::int64_t product = 1; // stops at size + 1: enough to tell, and no overflow
        for (const auto& l : m.levels)
            product = product > size / l.bounds[dim] ? size + 1 : product * l.bounds[dim];
        if (product == size)
            continue;
        std::string parts;
        for (std::size_t i = 0; i < m.levels.size(); ++i)
            if (m.levels[i].bounds[dim] != 1)
                parts += (parts.empty() ? "" : ", ") + m.levels[i].name + " (" +
                         arch.levels[m.levels[i].storageLevel].name +
                         (m.levels[i].kind == LoopKind::Spatial ? " spatial" : " temporal") + ", line " +
                         std::to_string(directiveLine[i]) + "): " + std::to_string(m.levels[i].bounds[dim]);
        mappingKey.error("the factors of `" + w.dims[dim].name + "` multiply to " +
                         (product > size ? "more than " + std::to_string(size) : std::to_string(product)) +
                         " but the problem's " + w.dims[dim].name + " is " +
                         std::to_string(w.dims[dim].size) + " (" + (parts.empty() ? "no factors" : parts) +
                         ")");
    }
    // Canonical form: empty keep = everything kept, empty stream = nothing streamed.
    if (std::all_of(m.keep.begin(), m.keep.end(),
                    [](const auto& row) { return std::find(row.begin(), row.end(), false) == row.end(); }))
        m.keep.clear();
    if (std::all_of(m.stream.begin(), m.stream.end(),
                    [](const auto& row) { return std::find(row.begin(), row.end(), true) == row.end(); }))
        m.stream.clear();
    out.mapping = std::move(m);
}

} // namespace sparsemap::detail
