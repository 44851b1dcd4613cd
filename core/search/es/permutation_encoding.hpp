#pragma once
// Permutation encodings (paper IV-C, Fig. 10) and the evaluation of SparseMap-genome individuals.
//
// Cantor encoding: the permutation gene is the Cantor code itself, so neighbouring values are
// neighbouring loop orders. Random encoding (the ablation): the gene is mapped through a fixed,
// seeded pseudo-random bijection of [1, D!] before decoding, so neighbouring values are unrelated
// loop orders. The bijection is a small Feistel network with cycle walking: it needs no table (D!
// reaches 479,001,600 for 12 dims), is exactly a bijection, and costs a few hashes per gene.
#include "search/es/genetic_operators.hpp"
#include "search/search_context.hpp"

#include <cstdint>

namespace sparsemap::search {

enum class PermutationEncoding { Cantor, Random };

// A fixed pseudo-random bijection of [1, count].
class RandomPermutationCodes {
public:
    RandomPermutationCodes(std::int64_t count, std::uint64_t seed);
    std::int64_t count() const { return m_count; }
    // `code` in [1, count] -> a Cantor code in [1, count].
    std::int64_t operator()(std::int64_t code) const;

private:
    std::uint64_t round(int r, std::uint64_t half) const;
    std::int64_t m_count;
    std::uint64_t m_seed;
    int m_halfBits = 1;
};

// Individuals on the SparseMap genome, evaluated through a permutation encoding. With Cantor the
// individual is the SparseMap genome; with Random its permutation genes are translated first, and
// the log records the translated (Cantor) genome, which decodes to the evaluated design.
class GenomeProblem {
public:
    GenomeProblem(const GenomeLayout& layout, PermutationEncoding encoding, std::uint64_t seed);

    const std::vector<GeneRange>& ranges() const { return m_ranges; }
    PermutationEncoding encoding() const { return m_encoding; }
    // The SparseMap (Cantor) genome an individual stands for.
    Genome toSparseMap(const Genome& individual) const;
    // Evaluates as many individuals as the budget allows; returns how many.
    std::size_t evaluate(SearchContext& context, std::span<const Genome> individuals,
                         std::vector<double>& objectives) const;

private:
    const GenomeLayout& m_layout;
    PermutationEncoding m_encoding;
    RandomPermutationCodes m_codes;
    std::vector<GeneRange> m_ranges;
};

} // namespace sparsemap::search
