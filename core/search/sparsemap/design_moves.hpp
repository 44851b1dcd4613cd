#pragma once
// Moves on the SparseMap genome that follow the design it encodes rather than the gene string
// (issue 13; GAMMA's per-dimension crossover, Timeloop's pruning of unit-loop orders):
// - blocks: the genes that only make sense together - each dimension's tiling genes (where its prime
//   factors go), each tensor's format genes, each level's permutation gene, each S/G gene - so that a
//   crossover hands down whole per-dimension tilings and whole per-tensor sparse strategies;
// - a step of one gene: a permutation gene swaps two loops that are adjacent among the level's
//   non-unit loops (a Cantor step or a reset mostly reorders unit loops, which mostly changes nothing:
//   the orders of the unit loops a storage level binds its ranks to are a tier of the polish); a
//   tiling gene moves its prime factor to another mapping level; a format or S/G gene takes another
//   value;
// - the neighbourhood of a genome: every such single move (the local polish of the elite), and the
//   pairs of format genes of one tensor, the exchanges of two prime factors' levels and of two dims'
//   blocks of equal factors (its second tier);
// - a mapping move (loop swap, prime factor moved) either leaves the format genes as they are - they
//   are right-aligned to rank positions, so the move also re-assigns formats to loops - or carries
//   each loop's format along (genome_codec's carryFormats);
// - the follow-ups of a mapping move: the formats of the tensors whose ranks it changed, re-chosen.
#include "genome/genome_codec.hpp"
#include "search/es/genetic_operators.hpp"

#include <map>
#include <tuple>

namespace sparsemap::search {

class DesignMoves {
public:
    // How moves of the mapping (a loop swap, a prime factor to another level) treat the format genes:
    // as they are (the formats stay with rank positions), carried (carryFormats: the formats follow
    // the loops), or either (the neighbourhood has both; a step draws one).
    enum class Formats { Positional, Carried, Both };
    explicit DesignMoves(const GenomeLayout& layout, Formats formats = Formats::Positional);
    // How a carried neighbour's formats are made representable in Sparseloop. Reorder (the default):
    // they are left as carried, for the search's repair (orderFormatGenesForSparseloop, Reorder) to
    // reorder. Offsets: the neighbour is repaired with FormatRepair::Offsets as it is made, so a
    // compressed rank carried above an uncompressed one keeps its metadata, as offset pairs (the ES's
    // end game; SparseMapEsParameters::endgameOffsetFormats). Mutation steps are not affected.
    void setCarriedFormatRepair(FormatRepair repair) { m_carriedRepair = repair; }

    const std::vector<std::vector<int>>& blocks() const { return m_blocks; }
    // Every block from either parent with probability 1/2.
    Genome blockCrossover(const Genome& a, const Genome& b, std::mt19937_64& rng) const;
    // One step of gene `gene` (see above). False when the gene cannot move (a permutation gene of a
    // level with fewer than two non-unit loops, a gene with one value).
    bool step(Genome& genome, int gene, std::mt19937_64& rng) const;
    // A step of a uniformly drawn gene that can move; false when none can.
    bool stepAny(Genome& genome, std::mt19937_64& rng) const;
    // Draws the spatial unrolling of `genome` afresh (the search's fresh draws: restarts, random
    // initialization). Uniform tiling genes unroll little: a prime factor lands on a given level with
    // probability 1/levels, so the unrollings that fill an array along one or two dims are almost
    // never drawn (cloud mm7: the best-known design unrolls K 64-wide in each PE, an unrolling none of
    // the ~3,000 a 20,000-evaluation run evaluates has). First every factor at a spatial level goes
    // to a uniformly drawn temporal level; then, for each spatial level in random order, k dims (the
    // dims uniform; k = 1 with probability `oneDimShare`, else k uniform in 1..dims) give their prime
    // factors, in random order, to the level while the spatial fan-out fits (spatialFanoutFits); with
    // probability 1/2 factors then leave again (to a uniformly drawn temporal level), in random order,
    // until the level's unrolling is at most its filled product raised to a uniform power in [0, 1).
    // The other genes stay as they are. With oneDimShare 0 no draw is spent on it. With innerOneDimFit
    // the innermost spatial level (the MACs of a PE in the presets) takes one dim, whose factors fill it
    // in kInnerFitDraws random orders of which the fullest (largest product) is kept, and none leave.
    void drawSpatialUnrolling(Genome& genome, std::mt19937_64& rng, double oneDimShare = 0,
                              bool innerOneDimFit = false) const;
    static constexpr int kInnerFitDraws = 8;
    // Whether the innermost spatial level of `genome` unrolls at most one dim (true without spatial
    // levels).
    bool innerSpatialOneDim(const Genome& genome) const;
    // The spatial unrolling of `genome`: for each spatial mapping level (outer first) and each dim, the
    // product of the dim's prime factors at that level. Genomes that place the same factors at the
    // spatial levels have the same unrolling, wherever their other factors sit.
    std::vector<std::int64_t> spatialUnrolling(const Genome& genome) const;
    // Appends every single move of `genome` to `out` (duplicates possible; callers canonicalize).
    void neighbours(const Genome& genome, std::vector<Genome>& out) const;
    // The same without the changes of one S/G gene (skipGateNeighbours has them).
    void neighboursWithoutSkipGate(const Genome& genome, std::vector<Genome>& out) const;
    // Appends every other value of each S/G gene, one gene at a time: the single moves of the sparse
    // strategy's skipping and gating.
    void skipGateNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends, for each level with a unit loop a storage level binds its ranks to (orderedLoopMasks),
    // every swap of two loops adjacent among the loops whose place matters there: the order of a
    // tile's ranks, which the single moves (swaps of non-unit loops) leave as it is (cloud conv4:
    // another order of DRAM's unit loops alone is 2.3 % better).
    void boundLoopOrderNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends every change of two format genes of one tensor among the genes its ranks use (a
    // tensor compressed at another rank: two genes that are each worse alone).
    void formatPairNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends every move of a tensor's compression to another rank: for two format genes of one tensor
    // among those its ranks use, one compressed and one U, the compressed one turned U and the other
    // given each compressed format. The format pairs that improve a local optimum are such moves (514
    // of the 519 a run took on 84 cells, seed 1: mostly B or RLE on one rank -> UOP on another), and
    // they are a small share of all pairs (a tensor with k compressed of n ranks: 4k(n - k) against
    // 16n(n - 1)/2).
    void compressionMoveNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends every move of a block of equal prime factors: all the factors p of one dimension that sit
    // at one mapping level (two or more of them) moved together to another level - a tile that halves
    // or doubles one factor at a time may be worse at every step of the way (mm11 / mobile: N's 64
    // from the PE buffer to DRAM). With the formats as the mapping moves treat them.
    void factorBlockNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends every exchange of the levels of two prime factors (of different dims, or different
    // factors of one dim) that sit at different levels: one tile grows in one dim as it shrinks in
    // another, which a buffer at capacity allows when neither move does alone. With the formats as
    // the mapping moves treat them (positional, carried or both).
    void factorExchangeNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends every exchange of blocks of equal prime factors between two dimensions: for two dims with
    // factors p at two different levels (a at level A, b at level B, a, b >= 2), 2 and min(a, b) (once
    // when equal) of them trade levels - the tile at one level keeps its size and trades a product p^k of
    // one dim for the same product of the other, which k single exchanges reach only through k - 1
    // intermediate shapes. With the formats as the mapping moves treat them.
    void factorBlockExchangeNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends every move of a prime factor to a temporal level where its dim has no loop yet, with the
    // new loop at each other place among the level's non-unit loops than the one the level's order gives
    // it (the others keep their order): where a new loop sits orders the tile's ranks and their reuse,
    // and the single moves reach another place only through a worse step (edge mm14: M's 2 from the GLB
    // into the PE buffer is 0.7 % better with its loop innermost, worse where the order puts it). With
    // the formats as the mapping moves treat them.
    void factorInsertNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends every one-for-two exchange within a dimension at a spatial level: one prime factor of a
    // dim and two of the same dim (other factors than it) that sit together at another level trade
    // levels, one of the two sides spatial. A spatial level refills its fan-out with another product
    // of the dim - K 48 -> 64 on cloud mm7 (a 3 out, two 2s in) - which no single move or exchange
    // reaches without a worse step (K 32). With the formats as the mapping moves treat them.
    void factorRefillNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends the same one-for-two exchanges between two temporal levels: a dim's tiles re-split
    // between two levels - N 20 x 40 -> 16 x 50 between DRAM and the PE buffer on mobile mm7 (a 5 out,
    // two 2s in; 4.5 % better), which no single move or exchange reaches without a worse step.
    void temporalRefillNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends every re-split of a dim's unrolling at a spatial level: some of the dim's prime factors
    // there and some of its factors at another level, no prime on both sides and three or more factors
    // in all, trade levels, the dim's unrolling changing by at most 2x either way and the fan-out still
    // fitting (spatialFanoutFits). The smaller trades are the single moves, the exchanges and the
    // one-for-two refills. A spatial level re-splits its fan-out over other primes of the dim - mobile
    // mm4's N 16 -> 15 (four 2s out, a 3 and a 5 in) - which those reach only through worse fills.
    // With the formats as the mapping moves treat them.
    void spatialResplitNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends every move of one loop to another place two or more places away among its level's
    // non-unit loops (with the formats as the mapping moves treat them) and, at a level with bound unit
    // loops (boundLoopOrderNeighbours), among the loops whose place matters there (formats as they
    // are). Adjacent swaps alone stop where each swap on the way is worse or changes nothing: cloud
    // conv8's DRAM order of bound unit loops has 28 local optima under adjacent swaps and 8, all of
    // them best, under these moves (2.0 % apart).
    void loopRelocationNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends the sparse strategies around `genome` at its mapping: every combination of the S/G
    // genes' values, each with every subset of the tensors that have a format gene other than U turned
    // uncompressed (all their format genes U); the genome itself left out. Compound changes of the
    // sparse strategy that single moves and format pairs cannot reach (mm1 / edge: P and Q
    // uncompressed with the S/G of every site changed): 7^sites x 2^tensors - 1 genomes at most.
    void strategyNeighbours(const Genome& genome, std::vector<Genome>& out) const;
    // Appends `genome` with one compressed tensor turned uncompressed (all its format genes U), for
    // each tensor that has a format gene other than U, then with all of them uncompressed when there
    // are two or more: the repairs of a mapping move that overflows a buffer with a compressed tile's
    // metadata (the polish's repair tier).
    void uncompressedVariants(const Genome& genome, std::vector<Genome>& out) const;
    // Appends the changes of the sparse strategy that follow a mapping move from `before` to `genome`
    // (the polish's follow-ups): for each tensor whose ranks the move changed (formatRankKeysInto: its
    // tile gained, lost or reordered a rank), every other value of each format gene its ranks use and
    // every pair of changed values of two of those genes one of which formats a rank the tile did not
    // have before; then every other value of each S/G gene. A tile that gains a rank may want it
    // compressed and another rank no longer (cloud mm3: M's 73 into the PE buffer). With
    // `compressionMoves`, the other pairs of those genes add their moves of the tensor's compression
    // (compressionMoveNeighbours): a move can make room for metadata on a rank the tile had already
    // (mobile mm4: M's 2 from the GLB to DRAM, then P's compression from K to M as an offset pair).
    void followUpNeighbours(const Genome& before, const Genome& genome, std::vector<Genome>& out,
                            bool compressionMoves = false) const;

private:
    // The tiling genes of `genome` grouped by (dim, prime factor, level), each group's genes in genome
    // order: the blocks of equal factors the block moves and the re-splits work on.
    using FactorBlocks = std::map<std::tuple<int, std::int64_t, int>, std::vector<int>>;
    FactorBlocks factorBlocks(const Genome& genome) const;
    // Appends `genome` with gene `i` at each other value of its range; with genes `i` and `j` both at
    // other values, every combination.
    void appendValues(const Genome& genome, int i, std::vector<Genome>& out) const;
    void appendValuePairs(const Genome& genome, int i, int j, std::vector<Genome>& out) const;
    // The loop order of `permGene`'s level, and the positions in it of the dims of `mask` (that level's
    // entry of nonUnitLoopMasks or orderedLoopMasks, which callers compute once per genome).
    void loopPositions(const Genome& genome, int permGene, std::uint32_t mask, std::vector<int>& order,
                       std::vector<int>& positions) const;
    void swapAdjacent(Genome& genome, int permGene, std::vector<int>& order, int first, int second) const;
    // Appends `genome` with each loop at `positions` of `order` (`permGene`'s level) moved to each place
    // among them two or more places away; with the carried variants when `mapping`.
    void appendRelocations(const Genome& genome, int permGene, const std::vector<int>& order,
                           const std::vector<int>& positions, bool mapping, std::vector<Genome>& out) const;
    void appendSingleMoves(const Genome& genome, std::vector<Genome>& out, bool skipGate) const;
    // Appends the move of the compression between genes `i` and `j` (one compressed, one U; else
    // nothing): the compressed one turned U, the other given each compressed format.
    void appendCompressionMoves(const Genome& genome, int i, int j, std::vector<Genome>& out) const;
    // Appends `moves` of every pair of format genes of one tensor among the genes its ranks use.
    using PairMoves = void (DesignMoves::*)(const Genome&, int, int, std::vector<Genome>&) const;
    void appendUsedFormatPairs(const Genome& genome, std::vector<Genome>& out, PairMoves moves) const;
    // The one-for-two exchanges with one side at a spatial level (`spatial`) or both temporal.
    void appendRefills(const Genome& genome, std::vector<Genome>& out, bool spatial) const;

    bool carry(std::mt19937_64& rng) const;
    // After a mapping move appended to `out` from `genome`: keeps it, its carried variant, or both.
    void withFormats(const Genome& genome, std::vector<Genome>& out) const;

    const GenomeLayout& m_layout;
    Formats m_formats;
    FormatRepair m_carriedRepair = FormatRepair::Reorder;
    std::vector<GeneRange> m_ranges;
    std::vector<std::vector<int>> m_blocks;
    // Whether a tiling gene's value names a spatial mapping level.
    bool isSpatialLevel(int value) const;
    std::vector<int> m_spatialLevels;  // tiling gene values of the spatial mapping levels, outer first
    std::vector<int> m_temporalLevels; // and of the temporal ones
};

} // namespace sparsemap::search
