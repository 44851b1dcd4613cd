#pragma once
// "mapper": Sparseloop-Mapper-like search (paper V-E). The sparse strategy is fixed by hand and only
// the mapping is explored, by uniform random sampling of the mapping genes (permutations and the
// prime-factor tiling, which satisfies the tiling constraints by construction, as the mapper's
// mapspace does). Like the mapper, a sample whose spatial fan-out exceeds the architecture is
// rejected before evaluation and costs no budget.
#include "search/optimizer.hpp"

#include <vector>

namespace sparsemap::search {

struct MapperParameters {
    // The fixed format and S/G genes (P x5, Q x5, Z x5, then one S/G gene per site, as in the
    // genome). Empty = defaultMapperSparseGenes(layout).
    std::vector<int> sparseGenes;
    int batchSize = 100; // mappings per batch (one convergence entry each); evaluated in parallel
    // Draws per sample before the fan-out pre-check gives up and the last draw is evaluated anyway
    // (the model then reports it invalid): keeps a run finite on any architecture.
    int maxDrawsPerSample = 1000;
};

// The hand-made strategy: P and Q bitmask-compressed in every rank (format genes B = 1), Z
// uncompressed (U = 0), and Skip P<->Q (gene 6) at the innermost storage level (the PE buffer),
// no S/G elsewhere — a common choice for two sparse operands (skip the ineffectual MACs where both
// operands are read, bitmasks being cheap at moderate densities). On a workload where no mapping leaves a
// leader metadata at that level (every operand rank there one wide, e.g. K = 1) the skip cannot be
// built, and MapperSearch gates instead (Gate P<->Q) for the whole run. For k inputs: every input
// bitmask-compressed, the output uncompressed, Skip between the first two inputs (Skip A<->B, gene
// 16, for three; no S/G for one input).
std::vector<int> defaultMapperSparseGenes(const GenomeLayout& layout);

class MapperSearch : public Optimizer {
public:
    // Throws std::invalid_argument when batchSize or maxDrawsPerSample < 1. run() throws
    // std::invalid_argument before evaluating anything when sparseGenes does not fit the layout.
    explicit MapperSearch(MapperParameters parameters = {});
    std::string name() const override { return "mapper"; }
    void run(SearchContext& context) override;

private:
    MapperParameters m_parameters;
};

} // namespace sparsemap::search
