#pragma once
// The direct encoding of the standard-ES ablation (paper IV-A, IV-B, Fig. 18 "ES"): the variables
// themselves are the genes, with no prime-factor or Cantor encoding.
//
//   [perm x mapping levels]        random permutation codes in [1, D!] (a seeded random bijection)
//   [bound x dims x mapping levels] the loop bound value in [1, padded dim size], dim-major
//   [P x5][Q x5][Z x5][S/G x sites] as in the SparseMap genome
//
// Nothing ties a dim's bounds together, so most individuals break the tiling constraint
// (product of the bounds = padded size) and the model declares them invalid: exactly the
// weakness prime-factor encoding removes.
#include "design/design.hpp"
#include "search/es/permutation_encoding.hpp"

namespace sparsemap::search {

class DirectEncoding {
public:
    DirectEncoding(const GenomeLayout& layout, std::uint64_t permutationSeed);

    const GenomeLayout& layout() const { return m_layout; }
    const std::vector<GeneRange>& ranges() const { return m_ranges; }
    int boundGene(int dim, int mappingLevel) const;

    // The design an individual stands for (formats right-aligned as in the SparseMap genome).
    void decode(std::span<const int> individual, Design& design) const;
    Design decode(std::span<const int> individual) const;
    // The SparseMap genome of the design when it can express it (the bounds multiply to the padded
    // sizes), else empty: what the point log records.
    Genome sparseMapGenome(const Design& design) const;

    // Evaluates as many individuals as the budget allows; returns how many.
    std::size_t evaluate(SearchContext& context, std::span<const Genome> individuals,
                         std::vector<double>& objectives) const;

private:
    const GenomeLayout& m_layout;
    RandomPermutationCodes m_codes;
    std::vector<GeneRange> m_ranges;
    int m_levels = 0;
    int m_dims = 0;
    int m_formatBegin = 0; // first format gene in the individual
};

} // namespace sparsemap::search
