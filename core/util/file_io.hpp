#pragma once
// Whole-file reads and crash-safe writes. A save writes a temporary file in the target's folder,
// flushes it and renames it over the target, so an error part-way never truncates an existing file.
#include "util/error.hpp" // InputError, thrown by every function here

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace sparsemap {

// The largest file readTextFile reads (every input the project reads is text far below this).
inline constexpr std::size_t kMaxTextFileBytes = std::size_t{256} << 20;

// Throws InputError when `path` exists and is not a regular file: a device (/dev/zero), a pipe or a
// socket could be read forever. A missing file passes (opening it reports that).
void requireRegularFile(const std::string& path);

// Throws InputError ("cannot read <path>: <reason>"), also for a file that is not a regular file
// (a device such as /dev/zero, a pipe) or is larger than kMaxTextFileBytes.
std::string readTextFile(const std::string& path);
// Saves `contents` to `path`. Only a regular file (or nothing) is replaced, atomically: through a
// symbolic link, the file the last link points to (the link stays). A character device or a pipe (a
// terminal, /dev/null, a symbolic link to /proc/self/fd/1) is written through, as a shell's `>` would;
// a pipe no process reads, and every failed write (/dev/full), is an error. A folder, socket or block
// device is an error. Throws InputError when the file cannot be written; a replaced file is then left
// untouched.
void writeTextFileAtomically(const std::string& path, const std::string& contents);
// The same for a file given in pieces, written one after another (no joined copy is made).
void writeFileAtomically(const std::string& path, std::span<const std::string_view> pieces);

} // namespace sparsemap
