#include "search/sparsemap/sparsemap_operators.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap::search {

SensitivityClasses sensitivityClasses(const std::vector<bool>& high)
{
    SensitivityClasses classes;
    const int n = static_cast<int>(high.size());
    for (int i = 0; i < n; ++i) {
        (high[i] ? classes.high : classes.low).push_back(i);
        if (high[i] && (i == 0 || !high[i - 1]))
            classes.highSegments.push_back({i, i + 1});
        else if (high[i])
            classes.highSegments.back().end = i + 1;
    }
    for (const auto& s : classes.highSegments)
        for (int cut : {s.begin, s.end})
            if (cut > 0 && cut < n)
                classes.cutPoints.push_back(cut);
    return classes;
}

double highMutationProbability(int generation, int totalGenerations, double initial)
{
    const double phi =
        totalGenerations > 0 ? std::clamp(static_cast<double>(generation) / totalGenerations, 0.0, 1.0) : 1.0;
    return initial * std::exp(-phi) * (1.0 - phi);
}

int annealingGene(const SensitivityClasses& classes, double pHigh, std::mt19937_64& rng)
{
    const bool wantHigh = uniform01(rng) < pHigh;
    const auto& chosen =
        (wantHigh && !classes.high.empty()) || classes.low.empty() ? classes.high : classes.low;
    if (chosen.empty())
        return -1;
    return chosen[std::uniform_int_distribution<std::size_t>(0, chosen.size() - 1)(rng)];
}

int annealingMutation(Genome& genome, const SensitivityClasses& classes, std::span<const GeneRange> ranges,
                      std::span<const MutationStep> steps, double pHigh, double neighbourShare,
                      std::mt19937_64& rng)
{
    const int gene = annealingGene(classes, pHigh, rng);
    if (gene < 0)
        return -1;
    const GeneRange range = ranges[gene];
    if (range.size() < 2)
        return -1;
    int& value = genome[gene];
    if (steps[gene] == MutationStep::Neighbour && uniform01(rng) < neighbourShare) {
        const bool up = value == range.lower || (value != range.upper && uniform01(rng) < 0.5);
        value += up ? 1 : -1;
    } else {
        value = resetGene(value, range, rng);
    }
    return gene;
}

Genome sensitivityAwareCrossover(const Genome& a, const Genome& b, std::span<const int> cutPoints,
                                 std::mt19937_64& rng)
{
    std::bernoulli_distribution coin(0.5);
    const bool startWithA = coin(rng);
    Genome child = startWithA ? a : b;
    const Genome& other = startWithA ? b : a;
    bool fromOther = false;
    std::size_t position = 0;
    for (std::size_t k = 0; k <= cutPoints.size(); ++k) {
        const auto end = k < cutPoints.size() ? static_cast<std::size_t>(cutPoints[k]) : child.size();
        if (fromOther)
            std::copy(other.begin() + static_cast<std::ptrdiff_t>(position),
                      other.begin() + static_cast<std::ptrdiff_t>(end),
                      child.begin() + static_cast<std::ptrdiff_t>(position));
        position = end;
        if (k < cutPoints.size() && coin(rng))
            fromOther = !fromOther;
    }
    return child;
}

} // namespace sparsemap::search
