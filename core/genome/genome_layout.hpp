#pragma once
// The SparseMap genome layout (paper IV-B, IV-C, IV-F): what every gene means, its bounds and the
// segment it belongs to. The ES, the PCA and the GUI's gene strip all read this object.
//
//   [perm x mapping levels][tiling: one gene per prime factor of each padded dim]
//   [formats x5 per tensor: the k inputs in workload order, then the output]
//   [S/G x (on-chip storage levels + compute)]
//
// For a workload of k >= 1 inputs and one output. With k = 2 the format segments are the paper's P,
// Q and Z: for the three-level template 5 + factors + 15 + 3 genes (39 for SpMM 32x64x48). The S/G
// gene's values (1 + 3k(k-1) of them: 7 for k = 2) are tabled in genome/sg_gene.hpp.
#include "arch/architecture.hpp"
#include "mapping/mapping.hpp"
#include "workload/dim_padding.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sparsemap {

// The kinds of genes, in genome order. Format genes form one segment per tensor (formatSegment);
// segment(GeneSegment::Format) spans them all.
enum class GeneSegment { Permutation, Tiling, Format, SkipGate };
inline constexpr int kGeneSegmentCount = 4;
std::string_view geneSegmentName(GeneSegment segment);

// Format genes per tensor: right-aligned to the tensor's ranks; ranks beyond the innermost five are UOP.
inline constexpr int kFormatGenesPerTensor = 5;

using Genome = std::vector<int>;

struct GeneInfo {
    std::string name;        // short label, e.g. "perm3", "K#2", "P[4]", "S/G GLB"
    std::string description; // a sentence for tooltips
    GeneSegment segment = GeneSegment::Permutation;
    int lower = 0;
    int upper = 0;           // inclusive
    int mappingLevel = -1;   // Permutation: the level it orders
    int dim = -1;            // Tiling: the dimension
    int factorIndex = -1;    // Tiling: index of the factor within the dim (ascending factors)
    std::int64_t factor = 0; // Tiling: the prime factor
    int tensor = -1;         // Format: the tensor index in the workload
    int formatSlot = -1;     // Format: which format segment (0..k-1 the inputs, k the output)
    int formatPosition = -1; // Format: 0..4, 4 = innermost rank
    int site = -1;           // S/G: storage level index, or kComputeSite
};

struct GenomeOptions {
    PaddingMode padding = PaddingMode::LargePrime;
    bool operator==(const GenomeOptions&) const = default;
};

struct SegmentRange {
    int begin = 0;
    int end = 0; // one past the last gene
    int size() const { return end - begin; }
};

// A run of genes drawn as one block (the gene strip, `sparsemap info`): the permutation, the tiling,
// one format segment per tensor, the S/G genes. formatSlot is the format segment's slot, else -1.
struct SegmentPart {
    GeneSegment segment = GeneSegment::Permutation;
    int formatSlot = -1;
    SegmentRange range;
};

class GenomeLayout {
public:
    // Throws InputError when the workload or architecture is invalid (a workload needs at least one
    // input and exactly one output).
    GenomeLayout(Workload workload, Architecture arch, GenomeOptions options = {});

    const Workload& workload() const { return m_workload; }
    const Architecture& architecture() const { return m_arch; }
    const GenomeOptions& options() const { return m_options; }

    int size() const { return static_cast<int>(m_genes.size()); }
    const std::vector<GeneInfo>& genes() const { return m_genes; }
    const GeneInfo& gene(int index) const { return m_genes.at(index); }
    SegmentRange segment(GeneSegment segment) const { return m_segments[static_cast<int>(segment)]; }
    // The permutation and tiling genes: the mapping (contiguous, first).
    SegmentRange mappingGenes() const
    {
        return {segment(GeneSegment::Permutation).begin, segment(GeneSegment::Tiling).end};
    }
    // The format and S/G genes: the sparse strategy (contiguous, after the mapping).
    SegmentRange sparseGenes() const
    {
        return {segment(GeneSegment::Format).begin, segment(GeneSegment::SkipGate).end};
    }
    // The segments in genome order with one part per format segment: perm, tiling, the format
    // segments, S/G (6 parts for two inputs).
    const std::vector<SegmentPart>& parts() const { return m_parts; }
    // The index in parts() of the part that holds a gene.
    int partOf(int gene) const;

    const std::vector<MappingLevelSlot>& mappingLevels() const { return m_slots; }
    std::int64_t paddedSize(int dim) const { return m_padded.at(dim); }
    const std::vector<std::int64_t>& paddedSizes() const { return m_padded; }
    const std::vector<std::int64_t>& factors(int dim) const { return m_factors.at(dim); }
    // The S/G operands: the input tensors' indices in workload order (P, Q for k = 2).
    const std::vector<int>& inputTensors() const { return m_inputs; }
    int outputTensor() const { return m_output; }
    // Format segments, one per tensor: slot 0..k-1 the inputs in workload order, slot k the output
    // (P, Q, Z for k = 2).
    int formatSegmentCount() const { return static_cast<int>(m_formatTensors.size()); }
    const std::vector<int>& formatTensors() const { return m_formatTensors; }
    int formatTensor(int slot) const { return m_formatTensors.at(slot); }
    // The dims indexing a format slot's tensor (Workload::dimMask), computed once.
    std::uint32_t formatTensorDims(int slot) const { return m_formatTensorDims.at(slot); }
    SegmentRange formatSegment(int slot) const { return m_formatSegments.at(slot); }
    // A segment's name for this workload: geneSegmentName, and a format segment (slot >= 0) is named
    // after its tensor (P, Q, Z; I, W, O for SpConv, whose P is a dimension; A, B, C, O for MTTKRP).
    std::string segmentName(GeneSegment segment, int formatSlot = -1) const;
    std::string partName(const SegmentPart& part) const { return segmentName(part.segment, part.formatSlot); }
    // The number of S/G gene values: 1 + 3k(k-1) (sg_gene.hpp).
    int sgGeneCount() const { return m_sgGeneCount; }
    // The storage levels (then kComputeSite) that carry an S/G gene.
    const std::vector<int>& sgSites() const { return m_sgSites; }

    // log10 of the design-space size as the paper counts it: (D!)^L * prod(size^L) * 5^(5(k+1)) *
    // (1+3k(k-1))^sites, 5^15 * 7^sites for k = 2 (each loop bound free in [1, size]).
    double rawSpaceLog10() const;
    double rawMappingSpaceLog10() const;
    double sparseSpaceLog10() const;
    // log10 of the number of distinct genomes: the product of every gene's range.
    double encodedSpaceLog10() const;

    // Throws GenomeError naming the first offending gene when the length or a value is out of range.
    void validate(std::span<const int> genome) const;

private:
    Workload m_workload;
    Architecture m_arch;
    GenomeOptions m_options;
    std::vector<MappingLevelSlot> m_slots;
    std::vector<std::int64_t> m_padded;
    std::vector<std::vector<std::int64_t>> m_factors;
    std::vector<GeneInfo> m_genes;
    SegmentRange m_segments[kGeneSegmentCount];
    std::vector<SegmentRange> m_formatSegments;
    std::vector<SegmentPart> m_parts;
    std::vector<int> m_sgSites;
    std::vector<int> m_inputs;
    std::vector<int> m_formatTensors;
    std::vector<std::uint32_t> m_formatTensorDims;
    int m_output = -1;
    int m_sgGeneCount = 1;
};

} // namespace sparsemap
