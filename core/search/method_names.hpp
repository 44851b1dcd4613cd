#pragma once
// The names of the search methods, without the optimizers: what file readers (a session's `method`)
// and option parsers check a name against, so that they need not link every optimizer. The registry
// (method_registry.hpp) builds one optimizer per name here, in this order.
#include <span>
#include <string>
#include <string_view>

namespace sparsemap::search {

struct MethodName {
    std::string_view name;    // e.g. "sparsemap"
    std::string_view summary; // one line for --help and menus
};

std::span<const MethodName> methodList();
bool isMethodName(std::string_view name);
std::string methodNames(); // "sparsemap, sparsemap-paper, ..."
// Names of methods that earlier versions had and this one does not: a session that ran one still
// opens (its runs are data), but no optimizer is built by such a name.
std::span<const std::string_view> retiredMethodNames();

} // namespace sparsemap::search
