#include "design/loop_nest_text.hpp"

#include "mapping/tile_shape.hpp"
#include "sparse/tensor_ranks.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace sparsemap {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string tensorAccess(const Workload& w, const Tensor& t)
{
    std::string out = t.name + "[";
    for (std::size_t r = 0; r < t.ranks.size(); ++r) {
        if (r)
            out += ',';
        for (std::size_t i = 0; i < t.ranks[r].size(); ++i) {
            const auto& term = t.ranks[r][i];
            if (i)
                out += '+';
            if (term.coefficient != 1)
                out += std::to_string(term.coefficient) + '*';
            out += lower(w.dims.at(term.dim).name);
        }
    }
    return out + "]";
}

} // namespace

std::string einsumText(const Workload& w)
{
    std::string lhs, rhs;
    for (const auto& t : w.tensors) {
        if (t.isOutput) {
            lhs = tensorAccess(w, t);
        } else {
            if (!rhs.empty())
                rhs += " * ";
            rhs += tensorAccess(w, t);
        }
    }
    return lhs + " += " + rhs;
}

std::string formatText(const Workload& w, const TensorFormat& format)
{
    if (!format.compressed())
        return "uncompressed";
    // Ranks imported from Sparseloop are declared without a dim (the model binds them to the tile's
    // ranks): their format alone, and a note, rather than "UOP(?)-CP(?)".
    std::string out;
    bool unbound = false;
    for (const auto& rank : format.ranks) {
        if (!out.empty())
            out += '-';
        out += rankFormatName(rank.format);
        if (rank.dim >= 0 && rank.dim < static_cast<int>(w.dims.size()))
            out += "(" + rankName(w, rank) + ")";
        else
            unbound = true;
    }
    return unbound ? out + " (ranks bound by the model)" : out;
}

std::string sgText(const Workload& w, const SgSite& site)
{
    if (site.actions.empty())
        return "none";
    std::vector<bool> done(site.actions.size(), false);
    std::string out;
    auto names = [&w](const std::vector<int>& tensors) {
        std::string s;
        for (int t : tensors)
            s += (s.empty() ? "" : ",") + w.tensors.at(t).name;
        return s;
    };
    for (std::size_t i = 0; i < site.actions.size(); ++i) {
        if (done[i])
            continue;
        const auto& a = site.actions[i];
        std::string text;
        // A mirrored pair (X <- Y and Y <- X of one kind) is a double-sided intersection.
        for (std::size_t j = i + 1; j < site.actions.size() && text.empty(); ++j) {
            const auto& b = site.actions[j];
            if (!done[j] && b.kind == a.kind && a.conditionOn == std::vector<int>{b.target} &&
                b.conditionOn == std::vector<int>{a.target}) {
                done[j] = true;
                const int first = std::min(a.target, b.target), second = std::max(a.target, b.target);
                text = std::string(sgKindName(a.kind)) + " " + w.tensors.at(first).name + " <-> " +
                       w.tensors.at(second).name;
            }
        }
        if (text.empty())
            text = std::string(sgKindName(a.kind)) + " " + w.tensors.at(a.target).name + " <- " +
                   (a.conditionOn.empty() ? std::string("(own metadata)") : names(a.conditionOn));
        done[i] = true;
        out += (out.empty() ? "" : "; ") + text;
    }
    return out;
}

std::string sgSiteName(const Architecture& arch, const SgSite& site)
{
    return site.storageLevel == kComputeSite ? std::string("compute")
                                             : arch.levels.at(site.storageLevel).name;
}

std::string renderLoopNest(const Workload& w, const Architecture& arch, const Design& design)
{
    std::ostringstream out;
    int depth = 0;
    int currentStorage = -1;
    auto indent = [&out](int d) { out << std::string(static_cast<std::size_t>(2 * d), ' '); };
    const auto& levels = design.mapping.levels;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        const auto& level = levels[l];
        if (level.storageLevel != currentStorage) {
            currentStorage = level.storageLevel;
            indent(depth);
            out << "// " << arch.levels.at(currentStorage).name << " tile:";
            const auto dimTiles =
                dimTileSizes(design.mapping, static_cast<int>(w.dims.size()), currentStorage);
            for (std::size_t t = 0; t < w.tensors.size(); ++t) {
                out << ' ' << w.tensors[t].name << '[';
                const auto extents = rankExtents(w, static_cast<int>(t), dimTiles);
                for (std::size_t r = 0; r < extents.size(); ++r)
                    out << (r ? "x" : "") << extents[r];
                out << ']';
            }
            out << '\n';
        }
        for (int dim : level.order) {
            const auto bound = level.bounds.at(dim);
            if (bound <= 1)
                continue;
            indent(depth);
            out << (level.kind == LoopKind::Spatial ? "par-for " : "for ") << lower(w.dims[dim].name)
                << (l + 1) << " in [0," << bound << ")\n";
            ++depth;
        }
    }
    indent(depth);
    out << einsumText(w) << "\n";

    out << "\nformats:\n";
    std::size_t nameWidth = 0;
    for (const auto& s : arch.levels)
        nameWidth = std::max(nameWidth, s.name.size());
    for (std::size_t s = 0; s < design.sparse.formats.size() && s < arch.levels.size(); ++s) {
        out << "  " << arch.levels[s].name << ':'
            << std::string(nameWidth - arch.levels[s].name.size() + 1, ' ');
        const auto& perTensor = design.sparse.formats[s];
        for (std::size_t t = 0; t < perTensor.size(); ++t)
            out << (t ? "   " : "") << w.tensors.at(t).name << ": " << formatText(w, perTensor[t]);
        out << '\n';
    }
    out << "\nskipping/gating:\n";
    for (const auto& site : design.sparse.sites)
        out << "  " << sgSiteName(arch, site) << ": " << sgText(w, site) << '\n';
    return out.str();
}

} // namespace sparsemap
