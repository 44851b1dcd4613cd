#pragma once
// The genome path in one call: decode a SparseMap genome and evaluate the design. This is the
// objective function every search calls; it keeps its buffers between calls.
#include "genome/genome_layout.hpp"
#include "model/evaluator.hpp"

#include <span>

namespace sparsemap::model {

class GenomeEvaluator {
public:
    // The model tiles the layout's padded dim sizes.
    explicit GenomeEvaluator(const GenomeLayout& layout, ModelOptions options = {});

    // Throws GenomeError for a genome of the wrong length or with a gene out of range.
    const EvaluationResult& evaluate(std::span<const int> genome);
    // Evaluator::dataFitsCapacity of the genome's design (as evaluate() would score it): false means
    // evaluate() reports the genome invalid. Decodes the genome: lastDesign() is then its design.
    bool dataFitsCapacity(std::span<const int> genome);
    // The design evaluate() scores for the genome, into `design` (its buffers reused).
    void decode(std::span<const int> genome, Design& design) const;
    const Design& lastDesign() const { return m_design; }
    const GenomeLayout& layout() const { return m_layout; }
    Evaluator& evaluator() { return m_evaluator; }

private:
    const GenomeLayout& m_layout;
    Evaluator m_evaluator;
    Design m_design;
};

} // namespace sparsemap::model
