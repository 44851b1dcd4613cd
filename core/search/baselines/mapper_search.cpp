#include "search/baselines/mapper_search.hpp"

#include "genome/sg_gene.hpp"
#include "model/genome_evaluator.hpp"
#include "search/baselines/baseline_support.hpp"

#include <algorithm>
#include <random>

namespace sparsemap::search {

namespace {

// Mappings drawn to learn whether the default strategy's skip can be built on a workload, and the seed
// of their own random stream (the search's stream is left as it is).
constexpr int kMetadataProbes = 200;
constexpr std::uint64_t kMetadataProbeSeed = 0x6d6170706572; // "mapper"

} // namespace

std::vector<int> defaultMapperSparseGenes(const GenomeLayout& layout)
{
    constexpr int kBitmask = 1;
    constexpr int kUncompressed = 0;
    const auto& inputs = layout.inputTensors();
    int skipBoth = 0; // Skip P<->Q: gene 6 for two inputs
    if (inputs.size() >= 2)
        skipBoth = *sgGeneFromActions(
            {SgAction{SgKind::Skip, inputs[0], {inputs[1]}}, SgAction{SgKind::Skip, inputs[1], {inputs[0]}}},
            inputs);
    std::vector<int> genes;
    for (std::size_t i = 0; i < inputs.size() * kFormatGenesPerTensor; ++i)
        genes.push_back(kBitmask);
    for (int i = 0; i < kFormatGenesPerTensor; ++i)
        genes.push_back(kUncompressed);
    const int innermost = layout.architecture().levelCount() - 1;
    for (int site : layout.sgSites())
        genes.push_back(site == innermost ? skipBoth : 0);
    return genes;
}

MapperSearch::MapperSearch(MapperParameters parameters) : m_parameters(std::move(parameters))
{
    detail::require(m_parameters.batchSize >= 1, "mapper: batchSize must be at least 1");
    detail::require(m_parameters.maxDrawsPerSample >= 1, "mapper: maxDrawsPerSample must be at least 1");
}

void MapperSearch::run(SearchContext& context)
{
    const auto& layout = context.layout();
    const auto sparse = layout.sparseGenes();
    const auto mapping = layout.mappingGenes();
    const auto fixed =
        m_parameters.sparseGenes.empty() ? defaultMapperSparseGenes(layout) : m_parameters.sparseGenes;
    detail::checkGenes(layout, sparse, fixed, "mapper: the fixed sparse genes");

    Genome genome(static_cast<std::size_t>(layout.size()));
    std::copy(fixed.begin(), fixed.end(), genome.begin() + sparse.begin);

    // The hand-made strategy's Skip P<->Q at the innermost level needs a leader with metadata there.
    // On a workload where no mapping leaves any (every operand rank of the tiles there one wide, as
    // with K = 1: 1x1x1, 8x1x1), that skip cannot be built and every sample would be invalid; the
    // hand-made choice for such a workload is to gate (Gate P<->Q reads the leader's values and needs
    // no metadata). Decided once per run from mappings drawn apart from the search's random stream
    // (kMetadataProbes of them): where some mapping allows the skip, the strategy and the run are as
    // they always were (a sample whose mapping does not allow it is invalid, as for the mapper).
    if (m_parameters.sparseGenes.empty() && layout.inputTensors().size() >= 2) {
        const auto& inputs = layout.inputTensors();
        const auto& sites = layout.sgSites();
        const auto innermost = std::find(sites.begin(), sites.end(), layout.architecture().levelCount() - 1);
        if (innermost != sites.end()) {
            const auto skipGene = static_cast<std::size_t>(layout.segment(GeneSegment::SkipGate).begin) +
                                  static_cast<std::size_t>(innermost - sites.begin());
            model::GenomeEvaluator checker(layout, context.modelOptions());
            std::mt19937_64 probeRng(kMetadataProbeSeed);
            Genome probe = genome;
            Design decoded;
            bool skipPossible = false;
            for (int i = 0; i < kMetadataProbes && !skipPossible; ++i) {
                detail::randomizeGenes(layout, mapping, probe, probeRng);
                checker.decode(probe, decoded);
                skipPossible = checker.evaluator().skipsHaveLeaderMetadata(decoded);
            }
            if (!skipPossible)
                genome[skipGene] = *sgGeneFromActions({SgAction{SgKind::Gate, inputs[0], {inputs[1]}},
                                                       SgAction{SgKind::Gate, inputs[1], {inputs[0]}}},
                                                      inputs);
        }
    }
    std::vector<Genome> batch;
    std::vector<double> objectives;
    while (!context.done()) {
        const auto n = std::min<std::int64_t>(m_parameters.batchSize, context.remaining());
        batch.clear();
        for (std::int64_t i = 0; i < n; ++i) {
            for (int draw = 0; draw < m_parameters.maxDrawsPerSample; ++draw) {
                detail::randomizeGenes(layout, mapping, genome, context.rng());
                if (spatialFanoutFits(layout, genome))
                    break;
            }
            batch.push_back(genome);
        }
        if (context.evaluate(batch, objectives) == 0)
            break; // cancelled
        context.endGeneration(objectives);
    }
}

} // namespace sparsemap::search
