#include "search/es/permutation_encoding.hpp"

#include "genome/cantor.hpp"
#include "util/hash.hpp"

namespace sparsemap::search {

namespace {

constexpr int kFeistelRounds = 4;

} // namespace

RandomPermutationCodes::RandomPermutationCodes(std::int64_t count, std::uint64_t seed)
    : m_count(std::max<std::int64_t>(count, 1)), m_seed(seed)
{
    // The Feistel domain is 2^(2h) >= count with the smallest h >= 1, so cycle walking needs fewer
    // than four rounds of the network on average.
    while ((std::int64_t(1) << (2 * m_halfBits)) < m_count)
        ++m_halfBits;
}

std::uint64_t RandomPermutationCodes::round(int r, std::uint64_t half) const
{
    return splitmix64(m_seed ^ splitmix64(half * kFeistelRounds + static_cast<std::uint64_t>(r)));
}

std::int64_t RandomPermutationCodes::operator()(std::int64_t code) const
{
    const std::uint64_t mask = (std::uint64_t(1) << m_halfBits) - 1;
    auto x = static_cast<std::uint64_t>(code - 1);
    // A bijection of [0, 2^(2h)) restricted to [0, count) by cycle walking stays a bijection.
    do {
        std::uint64_t left = x >> m_halfBits, right = x & mask;
        for (int r = 0; r < kFeistelRounds; ++r) {
            const std::uint64_t next = left ^ (round(r, right) & mask);
            left = right;
            right = next;
        }
        x = (left << m_halfBits) | right;
    } while (x >= static_cast<std::uint64_t>(m_count));
    return static_cast<std::int64_t>(x) + 1;
}

GenomeProblem::GenomeProblem(const GenomeLayout& layout, PermutationEncoding encoding, std::uint64_t seed)
    : m_layout(layout), m_encoding(encoding),
      m_codes(factorial(static_cast<int>(layout.workload().dims.size())), seed), m_ranges(geneRanges(layout))
{
}

Genome GenomeProblem::toSparseMap(const Genome& individual) const
{
    Genome genome(individual);
    if (m_encoding == PermutationEncoding::Random) {
        const auto perm = m_layout.segment(GeneSegment::Permutation);
        for (int i = perm.begin; i < perm.end; ++i)
            genome[i] = static_cast<int>(m_codes(genome[i]));
    }
    return genome;
}

std::size_t GenomeProblem::evaluate(SearchContext& context, std::span<const Genome> individuals,
                                    std::vector<double>& objectives) const
{
    if (m_encoding == PermutationEncoding::Cantor)
        return context.evaluate(individuals, objectives);
    std::vector<Genome> genomes;
    genomes.reserve(individuals.size());
    for (const auto& individual : individuals)
        genomes.push_back(toSparseMap(individual));
    return context.evaluate(genomes, objectives);
}

} // namespace sparsemap::search
