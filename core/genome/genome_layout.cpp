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
    case GeneSegment::FormatP:
        return "P";
    case GeneSegment::FormatQ:
        return "Q";
    case GeneSegment::FormatZ:
        return "Z";
    case GeneSegment::SkipGate:
        return "S/G";
    }
    return "?";
}

std::string GenomeLayout::segmentName(GeneSegment segment) const
{
    switch (segment) {
    case GeneSegment::FormatP:
        return m_workload.tensors[m_p].name;
    case GeneSegment::FormatQ:
        return m_workload.tensors[m_q].name;
    case GeneSegment::FormatZ:
        return m_workload.tensors[m_z].name;
    default:
        return std::string(geneSegmentName(segment));
    }
}

GenomeLayout::GenomeLayout(Workload workload, Architecture arch, GenomeOptions options)
    : m_workload(std::move(workload)), m_arch(std::move(arch)), m_options(options)
{
    throwIfProblems("workload " + m_workload.name, workloadProblems(m_workload));
    throwIfProblems("architecture " + m_arch.name, architectureProblems(m_arch));
    const auto inputs = m_workload.inputTensors();
    if (inputs.size() != 2)
        throw InputError("the SparseMap genome needs a workload with exactly two input tensors and one "
                         "output (P, Q, Z); workload " +
                         m_workload.name + " has " + std::to_string(inputs.size()) + " inputs");
    m_p = inputs[0];
    m_q = inputs[1];
    m_z = m_workload.outputTensor();
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

    const GeneSegment formatSegments[3] = {GeneSegment::FormatP, GeneSegment::FormatQ, GeneSegment::FormatZ};
    for (int which = 0; which < 3; ++which) {
        begin(formatSegments[which]);
        const int tensor = formatTensor(which);
        for (int pos = 0; pos < kFormatGenesPerTensor; ++pos) {
            GeneInfo g;
            const std::string letter = m_workload.tensors[tensor].name;
            g.name = letter + "[" + std::to_string(pos + 1) + "]";
            const int fromInner = kFormatGenesPerTensor - 1 - pos;
            g.description =
                "format of the " +
                (fromInner == 0 ? std::string("innermost rank")
                                : "rank " + std::to_string(fromInner) + " outside the innermost") +
                " of " + letter + " (operand " + std::string(geneSegmentName(formatSegments[which])) +
                ") at every storage level (0 U, 1 B, 2 RLE, 3 CP, 4 UOP)";
            g.segment = formatSegments[which];
            g.lower = 0;
            g.upper = kRankFormatCount - 1;
            g.tensor = tensor;
            g.formatPosition = pos;
            m_genes.push_back(std::move(g));
        }
        end(formatSegments[which]);
    }

    begin(GeneSegment::SkipGate);
    for (int s = 1; s < m_arch.levelCount(); ++s)
        m_sgSites.push_back(s);
    m_sgSites.push_back(kComputeSite);
    for (int site : m_sgSites) {
        const std::string where = site == kComputeSite ? std::string("compute") : m_arch.levels[site].name;
        GeneInfo g;
        g.name = "S/G " + where;
        const std::string p = m_workload.tensors[m_p].name, q = m_workload.tensors[m_q].name;
        g.description = "skipping/gating at " + where + " (0 none, 1 Gate " + p + "<-" + q + ", 2 Gate " + q +
                        "<-" + p + ", 3 Gate " + p + "<->" + q + ", 4 Skip " + p + "<-" + q + ", 5 Skip " +
                        q + "<-" + p + ", 6 Skip " + p + "<->" + q + ")";
        g.segment = GeneSegment::SkipGate;
        g.lower = 0;
        g.upper = kSgGeneCount - 1;
        g.site = site;
        m_genes.push_back(std::move(g));
    }
    end(GeneSegment::SkipGate);
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
    return 3 * kFormatGenesPerTensor * std::log10(static_cast<double>(kRankFormatCount)) +
           static_cast<double>(m_sgSites.size()) * std::log10(static_cast<double>(kSgGeneCount));
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
