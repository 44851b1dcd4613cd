#pragma once
// The SparseMap genome layout (paper IV-B, IV-C, IV-F): what every gene means, its bounds and the
// segment it belongs to. The ES, the PCA and the GUI's gene strip all read this object.
//
//   [perm x mapping levels][tiling: one gene per prime factor of each padded dim]
//   [P formats x5][Q formats x5][Z formats x5][S/G x (on-chip storage levels + compute)]
//
// For the three-level template that is 5 + factors + 15 + 3 genes (39 for SpMM 32x64x48).
#include "arch/architecture.hpp"
#include "mapping/mapping.hpp"
#include "workload/dim_padding.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sparsemap {

enum class GeneSegment { Permutation, Tiling, FormatP, FormatQ, FormatZ, SkipGate };
inline constexpr int kGeneSegmentCount = 6;
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

class GenomeLayout {
public:
    // Throws InputError when the workload or architecture is invalid, or when the workload does not
    // have exactly two inputs and one output (the genome's P, Q, Z).
    GenomeLayout(Workload workload, Architecture arch, GenomeOptions options = {});

    const Workload& workload() const { return m_workload; }
    const Architecture& architecture() const { return m_arch; }
    const GenomeOptions& options() const { return m_options; }

    int size() const { return static_cast<int>(m_genes.size()); }
    const std::vector<GeneInfo>& genes() const { return m_genes; }
    const GeneInfo& gene(int index) const { return m_genes.at(index); }
    SegmentRange segment(GeneSegment segment) const { return m_segments[static_cast<int>(segment)]; }

    const std::vector<MappingLevelSlot>& mappingLevels() const { return m_slots; }
    std::int64_t paddedSize(int dim) const { return m_padded.at(dim); }
    const std::vector<std::int64_t>& paddedSizes() const { return m_padded; }
    const std::vector<std::int64_t>& factors(int dim) const { return m_factors.at(dim); }
    // Tensor indices of the genome's P, Q and Z.
    int tensorP() const { return m_p; }
    int tensorQ() const { return m_q; }
    int tensorZ() const { return m_z; }
    int formatTensor(int which) const { return which == 0 ? m_p : which == 1 ? m_q : m_z; }
    // A segment's name for this workload: a format segment is named after its tensor (I, W, O for
    // SpConv, whose P is a dimension), the others as geneSegmentName.
    std::string segmentName(GeneSegment segment) const;
    // The storage levels (then kComputeSite) that carry an S/G gene.
    const std::vector<int>& sgSites() const { return m_sgSites; }

    // log10 of the design-space size as the paper counts it: (D!)^L * prod(size^L) * 5^15 * 7^sites
    // (each loop bound free in [1, size]).
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
    std::vector<int> m_sgSites;
    int m_p = -1, m_q = -1, m_z = -1;
};

} // namespace sparsemap
