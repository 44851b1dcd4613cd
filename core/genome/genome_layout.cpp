#include "genome/genome_layout.hpp"

#include "genome/cantor.hpp"
#include "genome/sg_gene.hpp"
#include "sparse/rank_format.hpp"
#include "util/error.hpp"
#include "workload/workload_factory.hpp"

#include <cmath>

namespace sparsemap {

std::string_view geneSegmentName(GeneSegment segment)
{
    switch (segment) {
    case GeneSegment::Permutation:
        return "perm";
    case GeneSegment::Tiling:
        return "tiling";
    case GeneSegment::Format:
        return "formats";
    case GeneSegment::SkipGate:
        return "S/G";
    }
    return "?";
}

std::string GenomeLayout::segmentName(GeneSegment segment, int formatSlot) const
{
    if (segment == GeneSegment::Format && formatSlot >= 0)
        return m_workload.tensors[formatTensor(formatSlot)].name;
    return std::string(geneSegmentName(segment));
}

GenomeLayout::GenomeLayout(Workload workload, Architecture arch, GenomeOptions options)
    : m_workload(std::move(workload)), m_arch(std::move(arch)), m_options(options)
{
    throwIfProblems("workload " + m_workload.name, workloadProblems(m_workload));
    throwIfProblems("architecture " + m_arch.name, architectureProblems(m_arch));
    // workloadProblems guarantees at least one input and exactly one output.
    m_inputs = m_workload.inputTensors();
    m_output = m_workload.outputTensor();
    m_formatTensors = m_inputs;
    m_formatTensors.push_back(m_output);
    for (int t : m_formatTensors)
        m_formatTensorDims.push_back(m_workload.dimMask(t));
    const int inputCount = static_cast<int>(m_inputs.size());
    m_sgGeneCount = sparsemap::sgGeneCount(inputCount);
    const int dimCount = static_cast<int>(m_workload.dims.size());
    if (dimCount > kMaxPermutationGeneDims)
        throw InputError("the permutation genes support at most " + std::to_string(kMaxPermutationGeneDims) +
                         " dimensions (" + std::to_string(kMaxPermutationGeneDims) + "! codes); workload " +
                         m_workload.name + " has " + std::to_string(dimCount));

    m_slots = mappingTemplate(m_arch);
    const int levelCount = static_cast<int>(m_slots.size());
    auto begin = [this](GeneSegment s) { m_segments[static_cast<int>(s)].begin = size(); };
    auto end = [this](GeneSegment s) { m_segments[static_cast<int>(s)].end = size(); };

    begin(GeneSegment::Permutation);
    const int permUpper = static_cast<int>(factorial(dimCount));
    for (int l = 0; l < levelCount; ++l) {
        GeneInfo g;
        g.name = "perm" + std::to_string(l + 1);
        g.description = "loop order of mapping level " + m_slots[l].name + " (Cantor code; 1 = ";
        for (const auto& d : m_workload.dims)
            g.description += d.name;
        g.description += ")";
        g.segment = GeneSegment::Permutation;
        g.lower = 1;
        g.upper = permUpper;
        g.mappingLevel = l;
        m_genes.push_back(std::move(g));
    }
    end(GeneSegment::Permutation);

    begin(GeneSegment::Tiling);
    for (int d = 0; d < dimCount; ++d) {
        const auto& dim = m_workload.dims[d];
        m_padded.push_back(sparsemap::paddedSize(dim.size, m_options.padding));
        m_factors.push_back(primeFactors(m_padded.back()));
        const auto& factors = m_factors.back();
        for (std::size_t f = 0; f < factors.size(); ++f) {
            GeneInfo g;
            g.name = dim.name + "#" + std::to_string(f + 1);
            g.description = "mapping level (1-" + std::to_string(levelCount) + ") that takes prime factor " +
                            std::to_string(factors[f]) + " (#" + std::to_string(f + 1) + ") of " + dim.name +
                            " = " + std::to_string(m_padded.back());
            g.segment = GeneSegment::Tiling;
            g.lower = 1;
            g.upper = levelCount;
            g.dim = d;
            g.factorIndex = static_cast<int>(f);
            g.factor = factors[f];
            m_genes.push_back(std::move(g));
        }
    }
    end(GeneSegment::Tiling);

    begin(GeneSegment::Format);
    for (int slot = 0; slot < formatSegmentCount(); ++slot) {
        const int tensor = formatTensor(slot);
        const int first = size();
        // The paper's operand names for k = 2; otherwise the tensor's role.
        const std::string operand = inputCount == 2     ? std::string("operand ") + "PQZ"[slot]
                                    : slot < inputCount ? "input " + std::to_string(slot + 1)
                                                        : std::string("the output");
        for (int pos = 0; pos < kFormatGenesPerTensor; ++pos) {
            GeneInfo g;
            const std::string letter = m_workload.tensors[tensor].name;
            g.name = letter + "[" + std::to_string(pos + 1) + "]";
            const int fromInner = kFormatGenesPerTensor - 1 - pos;
            g.description =
                "format of the " +
                (fromInner == 0 ? std::string("innermost rank")
                                : "rank " + std::to_string(fromInner) + " outside the innermost") +
                " of " + letter + " (" + operand + ") at every storage level (0 U, 1 B, 2 RLE, 3 CP, 4 UOP)";
            g.segment = GeneSegment::Format;
            g.lower = 0;
            g.upper = kRankFormatCount - 1;
            g.tensor = tensor;
            g.formatSlot = slot;
            g.formatPosition = pos;
            m_genes.push_back(std::move(g));
        }
        m_formatSegments.push_back({first, size()});
    }
    end(GeneSegment::Format);

    begin(GeneSegment::SkipGate);
    for (int s = 1; s < m_arch.levelCount(); ++s)
        m_sgSites.push_back(s);
    m_sgSites.push_back(kComputeSite);
    std::vector<std::string> inputNames;
    for (int t : m_inputs)
        inputNames.push_back(m_workload.tensors[t].name);
    std::string values;
    for (int value = 0; value < m_sgGeneCount; ++value)
        values += (value ? ", " : "") + std::to_string(value) + " " + sgGeneLabel(value, inputNames);
    for (int site : m_sgSites) {
        const std::string where = site == kComputeSite ? std::string("compute") : m_arch.levels[site].name;
        GeneInfo g;
        g.name = "S/G " + where;
        g.description = "skipping/gating at " + where + " (" + values + ")";
        g.segment = GeneSegment::SkipGate;
        g.lower = 0;
        g.upper = m_sgGeneCount - 1;
        g.site = site;
        m_genes.push_back(std::move(g));
    }
    end(GeneSegment::SkipGate);

    m_parts.push_back({GeneSegment::Permutation, -1, segment(GeneSegment::Permutation)});
    m_parts.push_back({GeneSegment::Tiling, -1, segment(GeneSegment::Tiling)});
    for (int slot = 0; slot < formatSegmentCount(); ++slot)
        m_parts.push_back({GeneSegment::Format, slot, m_formatSegments[slot]});
    m_parts.push_back({GeneSegment::SkipGate, -1, segment(GeneSegment::SkipGate)});
}

int GenomeLayout::partOf(int gene) const
{
    const GeneInfo& g = m_genes.at(gene);
    switch (g.segment) {
    case GeneSegment::Permutation:
        return 0;
    case GeneSegment::Tiling:
        return 1;
    case GeneSegment::Format:
        return 2 + g.formatSlot;
    case GeneSegment::SkipGate:
        break;
    }
    return 2 + formatSegmentCount();
}

double GenomeLayout::rawMappingSpaceLog10() const
{
    const double levels = static_cast<double>(m_slots.size());
    double log10 = levels * std::log10(static_cast<double>(factorial(static_cast<int>(m_padded.size()))));
    for (auto size : m_padded)
        log10 += levels * std::log10(static_cast<double>(size));
    return log10;
}

double GenomeLayout::sparseSpaceLog10() const
{
    return formatSegmentCount() * kFormatGenesPerTensor * std::log10(static_cast<double>(kRankFormatCount)) +
           static_cast<double>(m_sgSites.size()) * std::log10(static_cast<double>(m_sgGeneCount));
}

double GenomeLayout::rawSpaceLog10() const
{
    return rawMappingSpaceLog10() + sparseSpaceLog10();
}

double GenomeLayout::encodedSpaceLog10() const
{
    double log10 = 0;
    for (const auto& g : m_genes)
        log10 += std::log10(static_cast<double>(g.upper - g.lower + 1));
    return log10;
}

void GenomeLayout::validate(std::span<const int> genome) const
{
    if (static_cast<int>(genome.size()) != size())
        throw GenomeError("genome has " + std::to_string(genome.size()) +
                          " genes; this workload and "
                          "architecture need " +
                          std::to_string(size()));
    for (int i = 0; i < size(); ++i) {
        const auto& g = m_genes[i];
        if (genome[i] < g.lower || genome[i] > g.upper)
            throw GenomeError("gene " + std::to_string(i + 1) + " (" + g.name + ") is " +
                              std::to_string(genome[i]) + "; allowed " + std::to_string(g.lower) + ".." +
                              std::to_string(g.upper));
    }
}

} // namespace sparsemap
