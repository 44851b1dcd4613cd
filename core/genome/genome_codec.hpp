#pragma once
// Genome <-> design. Decoding never fails on a genome within bounds (a decoded design may still be
// invalid for the model: that is the model's verdict, not the codec's). Encoding accepts any design
// the genome can express and picks a canonical genome for it: tiling factors of one prime go to the
// outer levels first, unconstrained format genes are U. So decode(encode(d)) == d, while
// encode(decode(g)) may differ from g where several genomes express one design.
#include "design/design.hpp"
#include "genome/genome_layout.hpp"

#include <random>

namespace sparsemap {

// Throws GenomeError when the genome's length or a gene is out of range.
Design decodeGenome(const GenomeLayout& layout, std::span<const int> genome);
// The same into an existing design, reusing its buffers (the search's hot path).
void decodeGenomeInto(const GenomeLayout& layout, std::span<const int> genome, Design& design);

// Throws InputError naming what the genome cannot express (a bound that is not made of the dim's
// prime factors, formats that differ between levels for one rank, an S/G combination without a gene).
Genome encodeDesign(const GenomeLayout& layout, const Design& design);

// Per mapping level (layout.mappingLevels() order), the dims with a non-unit loop there (a prime factor
// at that level) as a bit mask. `masks` needs one entry per mapping level (at most 64 levels, 32 dims);
// entries beyond are cleared. No check of the genome.
void nonUnitLoopMasks(const GenomeLayout& layout, std::span<const int> genome,
                      std::span<std::uint32_t> masks);
// Per mapping level (layout.mappingLevels() order), the dims whose loop's place in the level's order is
// part of the design: those with a non-unit loop there (a prime factor), and, at the innermost mapping
// level of each storage level, those with a non-unit loop below it that index a tensor whose tile there
// has metadata (a rank with a format other than U). Sparseloop binds the ranks of a tile stored without
// pre-tiling to the loops of that level, unit loops included, with the child's extents folded into the
// innermost loop of each dim (docs/model-notes-sparse.md 3.2): such a loop takes an extent, so where
// it sits orders the tile's ranks and their metadata (cloud conv4: another order of DRAM's unit loops
// alone is 2.3 % better). Every other loop is a unit loop whose place changes nothing.
// `masks` needs one entry per mapping level (at most 64 levels, 32 dims).
void orderedLoopMasks(const GenomeLayout& layout, std::span<const int> genome,
                      std::span<std::uint32_t> masks);

// The canonical genome of the design a genome decodes to: encodeDesign of that design with each
// level's loops outside orderedLoopMasks moved outermost in dim order, the others keeping their order.
// Genomes that differ only where the design does not (the order of those loops, which of equal prime
// factors goes where, format genes beyond a tensor's ranks) share it, and the model scores them alike
// to the bit; the S/G genes need no such step (each value has its own actions: sg_gene.hpp).
// Validates the genome.
Genome canonicalGenome(const GenomeLayout& layout, std::span<const int> genome);
// The same in place, without decoding (a valid genome; no check): what a search calls per child.
void canonicalizeGenome(const GenomeLayout& layout, Genome& genome);

// The ranks the format genes of format segment `slot` (GenomeLayout::formatTensor; 0 P, 1 Q, 2 Z for
// two inputs) are right-aligned to: the tensor's ranks at the outermost storage level, outer to
// inner, as (mapping level, dim) - one per non-unit loop of a dim that indexes the tensor. No check
// of the genome.
struct RankKey {
    int mappingLevel = 0;
    int dim = 0;
    bool operator==(const RankKey&) const = default;
};
void formatRankKeysInto(const GenomeLayout& layout, std::span<const int> genome, int slot,
                        std::vector<RankKey>& out);

// Rewrites the format genes of `after` (a genome whose mapping differs from `before`'s) so that the
// sparse strategy follows the loops rather than the rank positions: a rank both genomes have keeps
// the format it had in `before` (ranks beyond the innermost kFormatGenesPerTensor are UOP); a new rank
// takes the format of a rank of its dim that `before` had and `after` lost (the loop moved), else of
// the innermost rank of its dim in `before` (the loop split), else U. Format genes of `after` are
// otherwise taken from `before`.
void carryFormats(const GenomeLayout& layout, std::span<const int> before, Genome& after);

// The formats of every tensor at every storage level for a mapping, from the format segments.
std::vector<std::vector<TensorFormat>> decodeFormats(const GenomeLayout& layout, const Mapping& mapping,
                                                     std::span<const int> genome);

// A uniformly random genome within bounds.
Genome randomGenome(const GenomeLayout& layout, std::mt19937_64& rng);

// How orderFormatGenesForSparseloop makes a tensor's format genes (outermost rank first) ones that
// Sparseloop can represent: no uncompressed value (U, UOP) inside a compressed one (B, RLE, CP).
enum class FormatRepair {
    // The uncompressed values move outside the compressed ones, each group keeping its order (the
    // ranks' formats move to other ranks).
    Reorder,
    // Every compressed value with an uncompressed one inside it becomes UOP (each rank keeps its
    // position; a rank that had metadata keeps it, as offset pairs).
    Offsets,
};

// Rewrites each tensor's format genes (by `repair`) so that every format the genome decodes to is one
// Sparseloop can represent (representableInSparseloop), whatever the mapping. For drawing samples in
// Sparseloop's design space; returns whether the genome changed.
bool orderFormatGenesForSparseloop(const GenomeLayout& layout, Genome& genome,
                                   FormatRepair repair = FormatRepair::Reorder);

} // namespace sparsemap
