#include "io/sg_text.hpp"

#include "design/loop_nest_text.hpp"
#include "genome/sg_gene.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace sparsemap::detail {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// The forms of the S/G gene's values (genome/sg_gene.hpp), in gene order.
std::string allowedForms(const Workload& w)
{
    const auto inputs = w.inputTensors();
    std::string out = "allowed:";
    for (int gene = 0; gene < sgGeneCount(static_cast<int>(inputs.size())); ++gene)
        out += (gene ? ", " : " ") + sgText(w, SgSite{kComputeSite, sgActionsFromGene(gene, inputs)});
    return out;
}

// One clause, `Skip Q <- P` or `Gate P <-> Q`; appends its actions or returns an error.
std::string parseClause(std::string_view clause, const Workload& w, std::vector<SgAction>& actions)
{
    const auto tensorIndex = [&w](std::string_view name) { return w.tensorIndex(std::string(name)); };
    const auto both = clause.find("<->");
    const auto arrow = both != std::string_view::npos ? both : clause.find("<-");
    if (arrow == std::string_view::npos)
        return "`" + std::string(clause) + "` has no `<-` or `<->`";
    const std::string_view left = trim(clause.substr(0, arrow));
    const std::string_view right = trim(clause.substr(arrow + (both != std::string_view::npos ? 3 : 2)));
    const auto space = left.find_first_of(" \t");
    if (space == std::string_view::npos)
        return "`" + std::string(clause) + "` must start with Skip or Gate and a tensor name";
    const std::string kindText = lower(trim(left.substr(0, space)));
    if (kindText != "skip" && kindText != "gate")
        return "`" + std::string(trim(left.substr(0, space))) + "` is not Skip or Gate";
    const SgKind kind = kindText == "skip" ? SgKind::Skip : SgKind::Gate;
    const std::string_view targetName = trim(left.substr(space));
    const int target = tensorIndex(targetName);
    if (target < 0)
        return "`" + std::string(targetName) + "` is not a tensor of the workload";
    std::vector<int> leaders;
    std::string_view rest = right;
    while (true) {
        const auto comma = rest.find(',');
        const std::string_view name = trim(rest.substr(0, comma));
        const int leader = tensorIndex(name);
        if (leader < 0)
            return "`" + std::string(name) + "` is not a tensor of the workload";
        if (leader == target)
            return "`" + std::string(clause) + "` conditions a tensor on itself";
        leaders.push_back(leader);
        if (comma == std::string_view::npos)
            break;
        rest = rest.substr(comma + 1);
    }
    if (both != std::string_view::npos) {
        if (leaders.size() != 1)
            return "`<->` joins exactly two tensors, as in `Gate P <-> Q`";
        actions.push_back(SgAction{kind, target, leaders});
        actions.push_back(SgAction{kind, leaders[0], {target}});
    } else {
        actions.push_back(SgAction{kind, target, leaders});
    }
    return {};
}

} // namespace

Parsed<std::vector<SgAction>> parseSgText(std::string_view text, const Workload& workload)
{
    std::vector<SgAction> actions;
    if (lower(trim(text)) == "none")
        return {actions, {}};
    std::string_view rest = text;
    while (true) {
        const auto semicolon = rest.find(';');
        const auto error = parseClause(trim(rest.substr(0, semicolon)), workload, actions);
        if (!error.empty())
            return {std::nullopt, "S/G `" + std::string(trim(text)) + "` is not understood: " + error + "; " +
                                      allowedForms(workload)};
        if (semicolon == std::string_view::npos)
            break;
        rest = rest.substr(semicolon + 1);
    }
    return {actions, {}};
}

} // namespace sparsemap::detail
