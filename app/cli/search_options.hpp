#pragma once
// Command-line pieces shared by `search` and `sweep`: objective, budget, seed and thread options.
#include "cli_common.hpp"
#include "search/search_types.hpp"

namespace sparsemap::cli {

search::Objective parseObjective(const QString& text);
std::int64_t parseBudget(const QString& text);
std::uint64_t parseSeed(const QString& text);
int parseThreads(const QString& text);
// A known search method's name (search::searchMethods()); an unknown one is a UsageError (exit 2).
std::string parseMethod(const QString& text, const char* option = "--method");
using model::objectiveName; // "edp", "energy", "delay"

} // namespace sparsemap::cli
