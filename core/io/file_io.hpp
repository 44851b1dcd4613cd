#pragma once
// Whole-file reads and crash-safe writes. A save writes a temporary file in the target's folder,
// flushes it and renames it over the target, so an error part-way never truncates an existing file.
#include "util/error.hpp" // InputError, thrown by every function here

#include <string>

namespace sparsemap {

// Throws InputError ("cannot read <path>: <reason>").
std::string readTextFile(const std::string& path);
// Throws InputError when the file cannot be written; the target is then left untouched.
void writeTextFileAtomically(const std::string& path, const std::string& contents);

} // namespace sparsemap
