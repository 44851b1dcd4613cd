#pragma once
// The exact optimum of the mapping for a fixed sparse strategy (issue 13, "how far from the
// optimum"): every canonical mapping of a genome layout - each way to hand every dimension's prime
// factors to the mapping levels (equal factors as a multiset) and each order of the loops whose place
// matters at each level (orderedLoopMasks; the others outermost, as canonicalizeGenome puts them) -
// evaluated with the format and S/G genes of a given genome held. Two genomes that decode to the same
// design are one mapping here, so the count is the size of the canonical mapping space the searches
// explore.
//
// Parallel over tilings (TBB); the optimum is the lowest objective, ties going to the first mapping
// in enumeration order, so the answer is the same for any thread count.
#include "genome/genome_layout.hpp"
#include "model/evaluator.hpp"
#include "search/search_types.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>

namespace sparsemap::search {

struct MappingSpaceSize {
    double tilings = 0;             // canonical tilings (a double: it can be huge)
    std::optional<double> mappings; // canonical mappings (tilings x loop orders); counted
                                    // only when there are at most `countLimit` tilings
};
// The size of the canonical mapping space; the loop orders are counted tiling by tiling (not
// enumerated), for at most `countLimit` tilings. Which unit loops are ordered depends on the formats
// (orderedLoopMasks): those of `held` (a genome whose format and S/G genes are held), else every
// tensor with metadata (the most orders).
MappingSpaceSize canonicalMappingSpaceSize(const GenomeLayout& layout, double countLimit = 2e7,
                                           std::span<const int> held = {});

struct MappingOptimum {
    std::int64_t tilings = 0;        // canonical tilings enumerated
    std::int64_t mappings = 0;       // canonical mappings enumerated (tilings x loop orders)
    std::int64_t fanoutRejected = 0; // mappings whose spatial loops cannot fit (not evaluated)
    std::int64_t evaluated = 0;      // mappings evaluated by the model
    std::int64_t valid = 0;          // of those, valid designs
    double bestObjective = std::numeric_limits<double>::infinity();
    Genome best;            // canonical genome of the optimum; empty when nothing is valid
    bool cancelled = false; // stopped early: the counts and the best are of what was seen
};

struct MappingOptimumSettings {
    Objective objective = Objective::Edp;
    int threads = 0; // 0 = every core
    model::ModelOptions modelOptions;
    const CancelToken* cancel = nullptr;
    // Called now and then, from one worker thread at a time, with (tilings done, tilings in all).
    std::function<void(std::int64_t, std::int64_t)> progress;
};

// Holds the format and S/G genes of `fixedGenome` (a genome of `layout`; its tiling and permutation
// genes are ignored) and returns the best mapping for them. Throws GenomeError when `fixedGenome`
// does not fit the layout.
MappingOptimum exhaustiveMappingOptimum(const GenomeLayout& layout, std::span<const int> fixedGenome,
                                        const MappingOptimumSettings& settings = {});

} // namespace sparsemap::search
