#include "model/genome_evaluator.hpp"

#include "genome/genome_codec.hpp"

namespace sparsemap::model {

namespace {

// The layout's padded sizes are the model's: one home, so no caller pads twice or forgets to.
ModelOptions optionsForLayout(const GenomeLayout& layout, ModelOptions options)
{
    options.paddedSizes = layout.paddedSizes();
    return options;
}

} // namespace

GenomeEvaluator::GenomeEvaluator(const GenomeLayout& layout, ModelOptions options)
    : m_layout(layout),
      m_evaluator(layout.workload(), layout.architecture(), optionsForLayout(layout, options))
{
}

void GenomeEvaluator::decode(std::span<const int> genome, Design& design) const
{
    decodeGenomeInto(m_layout, genome, design);
    if (m_evaluator.options().formatSpace == FormatSpace::SparseloopNearest)
        for (auto& level : design.sparse.formats)
            for (auto& format : level)
                makeRepresentableInSparseloop(format);
}

const EvaluationResult& GenomeEvaluator::evaluate(std::span<const int> genome)
{
    decode(genome, m_design);
    return m_evaluator.evaluate(m_design);
}

bool GenomeEvaluator::dataFitsCapacity(std::span<const int> genome)
{
    decode(genome, m_design);
    return m_evaluator.dataFitsCapacity(m_design);
}

} // namespace sparsemap::model
