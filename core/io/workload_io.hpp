#pragma once
// Workload YAML (docs/file-formats.md). Every problem is reported with file, line, column and
// document path; all problems of a file are collected into one InputError.
#include "workload/workload.hpp"
#include "util/error.hpp" // InputError, thrown by every loader here

#include <string>

namespace sparsemap {

// `fileName` is used in diagnostics; `baseDir` resolves relative paths (actual-data density files).
Workload parseWorkloadYaml(const std::string& text, const std::string& fileName = {},
                           const std::string& baseDir = {});
Workload loadWorkloadFile(const std::string& path);
std::string workloadToYaml(const Workload& workload);
void saveWorkloadFile(const Workload& workload, const std::string& path);

} // namespace sparsemap
