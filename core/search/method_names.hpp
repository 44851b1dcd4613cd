#pragma once
// The names of the search methods, without the optimizers: what file readers (a session's `method`)
// and option parsers check a name against, so that they need not link every optimizer. The registry
// (method_registry.hpp) builds one optimizer per name here, in this order.
#include <span>
#include <string>
#include <string_view>

namespace sparsemap::search {

// What a method is for a user, in the order lists show them: the default first, then the baselines
// to compare it with, then the published ES and its Fig. 18 ablations, then one-component ablations of
// the default, then variants measured and not adopted (docs/results/search-quality.md).
enum class MethodGroup { Default, Baseline, Paper, Ablation, Variant };

struct MethodName {
    std::string_view name;    // e.g. "sparsemap"
    MethodGroup group;
    std::string_view summary; // one line for --help and menus (the group says "ablation" etc.)
};

// Every method, grouped as above (a group's methods are consecutive, groups in enum order).
std::span<const MethodName> methodList();
bool isMethodName(std::string_view name);
std::string methodNames(); // "sparsemap, mapper, ..." in methodList() order
// The group's heading in menus and help, e.g. "baselines".
std::string_view methodGroupTitle(MethodGroup group);
// "default: sparsemap; baselines: mapper, sage, ...; ..." for --help texts.
std::string methodNamesByGroup();
// Names of methods that earlier versions had and this one does not: a session that ran one still
// opens (its runs are data), but no optimizer is built by such a name.
std::span<const std::string_view> retiredMethodNames();

} // namespace sparsemap::search
