#pragma once
// Every search method by name, for the CLI, the GUI and sweeps: one place that knows how to build
// each optimizer with its default parameters (an optimizer learns its problem from the SearchContext
// it runs in).
#include "search/method_names.hpp" // methodNames()
#include "search/optimizer.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sparsemap::search {

struct MethodInfo {
    std::string name;    // e.g. "sparsemap"
    std::string summary; // one line for --help and menus
    MethodGroup group = MethodGroup::Default;
    std::function<std::unique_ptr<Optimizer>()> make;
};

const std::vector<MethodInfo>& searchMethods();
// Throws InputError listing the known names when `name` is unknown.
std::unique_ptr<Optimizer> makeOptimizer(const std::string& name);

} // namespace sparsemap::search
