#pragma once
// Session YAML (docs/file-formats.md): a whole workbench session in one file. Architectures and
// workloads are embedded in the structure of their own files (the map under `architecture:` /
// `workload:`) and read by the same parsers, with diagnostics pointing into the session file; runs
// keep their convergence and point log as compact CSV literal blocks; pinned designs name their run.
#include "session/session.hpp"
#include "util/error.hpp" // InputError, thrown by every loader here

#include <string>

namespace sparsemap {

std::string sessionToYaml(const Session& session);
// `fileName` is used in diagnostics; `baseDir` resolves relative paths inside embedded workloads
// (actual-data density files). Checks every run against its layout (genome length and gene bounds),
// its method name, unique run names and every pin's run and point. Throws InputError with every
// problem of the file (file:line, document path, what is allowed).
Session parseSessionYaml(const std::string& text, const std::string& fileName = {},
                         const std::string& baseDir = {});
// Atomic: an error leaves an existing file untouched.
void saveSessionFile(const Session& session, const std::string& path);
Session loadSessionFile(const std::string& path);

} // namespace sparsemap
