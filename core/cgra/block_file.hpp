#pragma once
// The sparse-block mask file (extension .mask): one line per kernel, one 0/1 per channel, optionally
// separated by spaces or commas ("1 0 1 1", "1,0,1,1" and "1011" are the same row). '#' starts a
// comment; blank lines are ignored. Every row must have the same number of channels.
//   # conv layer 3, kernels 0..3 x channels 0..3
//   1 0 1 1
//   0 1 1 0
#include "cgra/sparse_block.hpp"

#include <string>

namespace sparsemap::cgra {

// `fileName` is only used in messages. Throws InputError with file:line:column and what is allowed.
SparseBlock parseBlockText(const std::string& text, const std::string& fileName);
SparseBlock loadBlockFile(const std::string& path);
std::string blockText(const SparseBlock& block);
// Atomic save (a failed write leaves the old file as it was).
void saveBlockFile(const std::string& path, const SparseBlock& block);

} // namespace sparsemap::cgra
