#include "search/mindmappings/projected_gradient_search.hpp"

#include <cmath>
#include <stdexcept>

namespace sparsemap::search {

void validate(const GradientSearchParameters& p)
{
    auto require = [](bool ok, const char* message) {
        if (!ok)
            throw std::invalid_argument(message);
    };
    require(p.chains >= 1, "mindmappings: chains must be at least 1");
    require(p.learningRate > 0 && std::isfinite(p.learningRate),
            "mindmappings: learningRate must be positive");
    require(p.injectionInterval >= 1, "mindmappings: injectionInterval must be at least 1");
    require(p.startTemperature > 0 && std::isfinite(p.startTemperature),
            "mindmappings: startTemperature must be positive");
    require(p.cooling > 0 && p.cooling <= 1, "mindmappings: cooling must be in (0, 1]");
    require(p.coolEvery >= 1, "mindmappings: coolEvery must be at least 1");
}

namespace {

struct Chain {
    Eigen::VectorXd x;
    ScoredGenome current;
    int sinceInjection = 0;
    bool injectNow = false;
};

} // namespace

GradientSearchStats projectedGradientSearch(const GradientSearchSpace& space,
                                            const GradientSearchParameters& p,
                                            std::vector<ScoredGenome> starts,
                                            const GradientSearchHooks& hooks, std::mt19937_64& rng)
{
    validate(p);
    GradientSearchStats stats;
    std::vector<Chain> chains;
    for (auto& s : starts) {
        if (static_cast<int>(chains.size()) == p.chains)
            break;
        Chain c;
        c.x = space.coordinates(s.genome);
        c.current = std::move(s);
        chains.push_back(std::move(c));
    }
    if (chains.empty())
        return stats;
    double temperature = p.startTemperature;
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<Genome> candidates;
    std::vector<std::size_t> owners;
    std::vector<double> objectives, current(chains.size());
    Eigen::VectorXd grad;
    while (!hooks.done()) {
        ++stats.steps;
        // Injections first (paper step 6), so an injected design is where the next step starts.
        const std::int64_t injectedBefore = stats.injections;
        for (auto& c : chains) {
            if (!c.injectNow && c.sinceInjection < p.injectionInterval)
                continue;
            ScoredGenome offer;
            if (!hooks.randomValid(offer))
                return stats; // budget spent while looking for a valid design
            ++stats.injections;
            const double delta = (offer.objective - c.current.objective) / hooks.objectiveScale;
            if (delta <= 0 || uniform(rng) < std::exp(-delta / temperature)) {
                c.x = space.coordinates(offer.genome);
                c.current = std::move(offer);
                ++stats.acceptedInjections;
            }
            c.sinceInjection = 0;
            c.injectNow = false;
            if (stats.injections % p.coolEvery == 0)
                temperature *= p.cooling;
        }
        // One gradient step per chain; changed projections are scored as one batch.
        candidates.clear();
        owners.clear();
        for (std::size_t i = 0; i < chains.size(); ++i) {
            auto& c = chains[i];
            space.gradient(c.x, grad);
            c.x -= p.learningRate * grad;
            space.clampToBox(c.x);
            ++c.sinceInjection;
            Genome g = space.project(c.x);
            if (g == c.current.genome) {
                ++stats.unchanged;
                continue;
            }
            candidates.push_back(std::move(g));
            owners.push_back(i);
        }
        const std::size_t scored = candidates.empty() ? 0 : hooks.evaluate(candidates, objectives);
        stats.scored += static_cast<std::int64_t>(scored);
        for (std::size_t k = 0; k < scored; ++k) {
            auto& c = chains[owners[k]];
            if (std::isfinite(objectives[k])) {
                c.current = {std::move(candidates[k]), objectives[k]};
            } else {
                ++stats.rejected;
                c.x = space.coordinates(c.current.genome);
                c.injectNow = true;
            }
        }
        for (std::size_t i = 0; i < chains.size(); ++i)
            current[i] = chains[i].current.objective;
        if (hooks.endStep && (scored > 0 || stats.injections > injectedBefore))
            hooks.endStep(current);
        if (scored < candidates.size())
            break; // budget spent or cancelled mid-batch
    }
    return stats;
}

} // namespace sparsemap::search
