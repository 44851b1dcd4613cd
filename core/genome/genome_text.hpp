#pragma once
// Genomes as text, for the command line and logs: integers separated by commas and/or spaces,
// optionally in brackets ("[1, 3, 2]", "1,3,2", "1 3 2").
#include "genome/genome_layout.hpp"

#include <string>
#include <string_view>

namespace sparsemap {

// Throws GenomeError naming the offending token when something is not an integer.
Genome parseGenomeText(std::string_view text);
std::string genomeToText(const Genome& genome); // "1,3,2"

} // namespace sparsemap
