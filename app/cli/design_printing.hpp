#pragma once
#include "genome/genome_layout.hpp"

#include <QString>

namespace sparsemap::cli {

// Decodes `genome` and prints it with its loop nest; saves the design YAML when `savePath` is set.
void printDecodedGenome(const GenomeLayout& layout, const Genome& genome, const QString& savePath);

} // namespace sparsemap::cli
