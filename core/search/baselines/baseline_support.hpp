#pragma once
#include "search/genome_checks.hpp" // spatialFanoutFits
// Helpers the baseline methods share: the two halves of a genome (mapping genes vs sparse-strategy
// genes), drawing genes uniformly, the spatial fan-out pre-check and parameter checks.
#include "genome/genome_layout.hpp"

#include <random>
#include <span>
#include <string>
#include <vector>

namespace sparsemap::search::detail {

// Draws every gene of `range` uniformly within its bounds.
void randomizeGenes(const GenomeLayout& layout, SegmentRange range, Genome& genome, std::mt19937_64& rng);
// One gene of `range` at random, redrawn uniformly (the value may stay the same).
void mutateOneGene(const GenomeLayout& layout, SegmentRange range, Genome& genome, std::mt19937_64& rng);

// Throws std::invalid_argument (naming `what`) unless `values` has one value per gene of `range`,
// each within the gene's bounds.
void checkGenes(const GenomeLayout& layout, SegmentRange range, std::span<const int> values,
                const std::string& what);
// Throws std::invalid_argument "<what> must be ..." unless `ok`.
void require(bool ok, const std::string& message);

} // namespace sparsemap::search::detail
