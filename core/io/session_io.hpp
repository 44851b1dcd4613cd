#pragma once
// Session YAML (docs/file-formats.md): a whole workbench session in one file. Architectures and
// workloads are embedded in the structure of their own files (the map under `architecture:` /
// `workload:`) and read by the same parsers, with diagnostics pointing into the session file; runs
// keep their convergence as a CSV literal block and their point log either as a zstd-compressed
// column block after the YAML document (point_log_codec.hpp; the default) or as a CSV literal block
// (the first format, still read); pinned designs name their run.
#include "io/point_log_codec.hpp" // IoControl, OperationCancelled
#include "session/session.hpp"
#include "util/error.hpp" // InputError, thrown by every loader here

#include <string>

namespace sparsemap {

enum class PointLogEncoding { Compact, Csv };

// The file's bytes: YAML text, then (Compact, with points) a line `...` and the runs' binary point logs.
// `control` reports progress over the points encoded and may cancel (OperationCancelled).
std::string sessionToYaml(const Session& session, PointLogEncoding encoding = PointLogEncoding::Compact,
                          const IoControl* control = nullptr);
// `fileName` is used in diagnostics; `baseDir` resolves relative paths inside embedded workloads
// (actual-data density files). Checks every run against its layout (genome length and gene bounds),
// its method name, unique run names and every pin's run and point. Throws InputError with every
// problem of the file (file:line, document path, what is allowed).
Session parseSessionYaml(const std::string& text, const std::string& fileName = {},
                         const std::string& baseDir = {}, const IoControl* control = nullptr);
// Atomic: an error or a cancel leaves an existing file untouched.
void saveSessionFile(const Session& session, const std::string& path,
                     PointLogEncoding encoding = PointLogEncoding::Compact,
                     const IoControl* control = nullptr);
Session loadSessionFile(const std::string& path, const IoControl* control = nullptr);

} // namespace sparsemap
