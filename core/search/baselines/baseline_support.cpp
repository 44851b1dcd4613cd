#include "search/baselines/baseline_support.hpp"

#include <stdexcept>

namespace sparsemap::search::detail {

void randomizeGenes(const GenomeLayout& layout, SegmentRange range, Genome& genome, std::mt19937_64& rng)
{
    for (int i = range.begin; i < range.end; ++i) {
        std::uniform_int_distribution<int> pick(layout.gene(i).lower, layout.gene(i).upper);
        genome[i] = pick(rng);
    }
}

void mutateOneGene(const GenomeLayout& layout, SegmentRange range, Genome& genome, std::mt19937_64& rng)
{
    if (range.size() <= 0)
        return;
    std::uniform_int_distribution<int> which(range.begin, range.end - 1);
    const int i = which(rng);
    std::uniform_int_distribution<int> pick(layout.gene(i).lower, layout.gene(i).upper);
    genome[i] = pick(rng);
}

void checkGenes(const GenomeLayout& layout, SegmentRange range, std::span<const int> values,
                const std::string& what)
{
    if (static_cast<int>(values.size()) != range.size())
        throw std::invalid_argument(what + " must have " + std::to_string(range.size()) +
                                    " genes for this workload and architecture, not " +
                                    std::to_string(values.size()));
    for (int i = 0; i < range.size(); ++i) {
        const auto& g = layout.gene(range.begin + i);
        if (values[i] < g.lower || values[i] > g.upper)
            throw std::invalid_argument(what + ": gene " + g.name + " is " + std::to_string(values[i]) +
                                        "; allowed " + std::to_string(g.lower) + ".." +
                                        std::to_string(g.upper));
    }
}

void require(bool ok, const std::string& message)
{
    if (!ok)
        throw std::invalid_argument(message);
}

} // namespace sparsemap::search::detail
