#include "search/baselines/mapper_search.hpp"

#include "genome/sg_gene.hpp"
#include "model/genome_evaluator.hpp"
#include "search/baselines/baseline_support.hpp"

#include <algorithm>
#include <optional>

namespace sparsemap::search {

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
    // Where a mapping leaves none (every rank of the operands' tiles there is one wide, as on a
    // workload with K = 1), no skip can be built and the hand-made choice is to gate (Gate P<->Q
    // reads the leader's values, no metadata): otherwise every sample of such a workload is invalid.
    const auto& inputs = layout.inputTensors();
    std::optional<model::GenomeEvaluator> checker;
    std::size_t skipGene = 0;
    int skip = 0, gate = 0;
    if (m_parameters.sparseGenes.empty() && inputs.size() >= 2) {
        const auto& sites = layout.sgSites();
        const auto innermost = std::find(sites.begin(), sites.end(), layout.architecture().levelCount() - 1);
        if (innermost != sites.end()) {
            skipGene = static_cast<std::size_t>(sparse.begin) +
                       (inputs.size() + 1) * static_cast<std::size_t>(kFormatGenesPerTensor) +
                       static_cast<std::size_t>(innermost - sites.begin());
            skip = genome[skipGene];
            gate = *sgGeneFromActions({SgAction{SgKind::Gate, inputs[0], {inputs[1]}},
                                       SgAction{SgKind::Gate, inputs[1], {inputs[0]}}},
                                      inputs);
            checker.emplace(layout, context.modelOptions());
        }
    }
    Design decoded;
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
            if (checker) {
                genome[skipGene] = skip;
                checker->decode(genome, decoded);
                if (!checker->evaluator().skipsHaveLeaderMetadata(decoded))
                    genome[skipGene] = gate;
            }
            batch.push_back(genome);
        }
        if (context.evaluate(batch, objectives) == 0)
            break; // cancelled
        context.endGeneration(objectives);
    }
}

} // namespace sparsemap::search
