#include "search/sparsemap/sensitivity_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace sparsemap::search {

namespace {

// Random individuals per batch of the base search: enough to keep the workers busy, few enough
// that little budget is spent past the last base (surplus valid samples still feed the pool).
constexpr int kBaseBatch = 16;

void require(bool ok, const std::string& message)
{
    if (!ok)
        throw std::invalid_argument("sensitivity calibration: " + message);
}

// Up to `count` distinct values of the range other than `except`, in random order.
std::vector<int> otherValues(GeneRange range, int except, int count, std::mt19937_64& rng)
{
    const int available = range.size() - 1;
    count = std::min(count, available);
    std::vector<int> values;
    if (available <= 4 * count) { // small range: partial Fisher-Yates over the other values
        for (int v = range.lower; v <= range.upper; ++v)
            if (v != except)
                values.push_back(v);
        for (int i = 0; i < count; ++i)
            std::swap(values[i], values[uniformInt(i, available - 1, rng)]);
        values.resize(count);
        return values;
    }
    while (static_cast<int>(values.size()) < count) { // large range: rejection is cheap
        const int v = uniformInt(range.lower, range.upper, rng);
        if (v != except && std::find(values.begin(), values.end(), v) == values.end())
            values.push_back(v);
    }
    return values;
}

} // namespace

void validate(const CalibrationParameters& p)
{
    require(p.trials >= 1, "trials must be at least 1 (got " + std::to_string(p.trials) + ")");
    require(p.samplesPerGene >= 1,
            "samplesPerGene must be at least 1 (got " + std::to_string(p.samplesPerGene) + ")");
    require(p.maxBaseSamples >= 1,
            "maxBaseSamples must be at least 1 (got " + std::to_string(p.maxBaseSamples) + ")");
    require(p.thresholdFraction >= 0 && p.thresholdFraction < 1,
            "thresholdFraction must be in [0, 1) (got " + std::to_string(p.thresholdFraction) + ")");
}

double pairSensitivity(std::span<const int> values, std::span<const double> objectives)
{
    double sum = 0;
    int pairs = 0;
    for (std::size_t i = 0; i < values.size(); ++i)
        for (std::size_t j = i + 1; j < values.size(); ++j) {
            const double a = objectives[i], b = objectives[j];
            if (!std::isfinite(a) || !std::isfinite(b) || values[i] == values[j])
                continue;
            const double lower = std::min(a, b);
            const double change = std::abs(a - b) / std::abs(values[i] - values[j]);
            sum += lower > 0 ? change / lower : change;
            ++pairs;
        }
    return pairs > 0 ? sum / pairs : 0.0;
}

std::vector<bool> highSensitivityGenes(std::span<const double> sensitivity, double fraction,
                                       double* threshold)
{
    std::vector<bool> high(sensitivity.size(), false);
    if (sensitivity.empty())
        return high;
    const auto [lo, hi] = std::minmax_element(sensitivity.begin(), sensitivity.end());
    const double t = *lo + fraction * (*hi - *lo);
    for (std::size_t i = 0; i < sensitivity.size(); ++i)
        high[i] = sensitivity[i] > t;
    if (threshold)
        *threshold = t;
    return high;
}

CalibrationResult calibrateSensitivity(std::span<const GeneRange> ranges, const BatchObjective& objective,
                                       const CalibrationParameters& p, std::mt19937_64& rng)
{
    validate(p);
    const std::size_t genes = ranges.size();
    CalibrationResult result;
    result.sensitivity.assign(genes, 0.0);
    std::vector<double> objectives;

    // 1. The valid bases, by random sampling.
    std::vector<std::size_t> bases; // indices into result.valid
    for (int drawn = 0; static_cast<int>(bases.size()) < p.trials && drawn < p.maxBaseSamples;) {
        std::vector<Genome> batch;
        for (int i = 0; i < std::min(kBaseBatch, p.maxBaseSamples - drawn); ++i)
            batch.push_back(randomIndividual(ranges, rng, p.admissible));
        drawn += static_cast<int>(batch.size());
        const auto n = objective(batch, objectives);
        result.evaluations += static_cast<std::int64_t>(n);
        for (std::size_t i = 0; i < n; ++i)
            if (std::isfinite(objectives[i])) {
                if (static_cast<int>(bases.size()) < p.trials)
                    bases.push_back(result.valid.size());
                result.valid.add(std::move(batch[i]), objectives[i]);
            }
        if (n < batch.size()) {
            result.exhausted = true;
            break;
        }
    }

    // 2. One trial per base: every gene's samples in one batch (evaluated in parallel).
    std::vector<double> sum(genes, 0.0);
    for (std::size_t t = 0; t < bases.size() && !result.exhausted; ++t) {
        const Genome base = result.valid.genomes[bases[t]];
        const double baseObjective = result.valid.objectives[bases[t]];
        std::vector<Genome> batch;
        std::vector<std::size_t> firstOfGene(genes + 1, 0);
        for (std::size_t g = 0; g < genes; ++g) {
            firstOfGene[g] = batch.size();
            for (int v : otherValues(ranges[g], base[g], p.samplesPerGene, rng)) {
                batch.push_back(base);
                batch.back()[g] = v;
            }
        }
        firstOfGene[genes] = batch.size();
        const auto n = objective(batch, objectives);
        result.evaluations += static_cast<std::int64_t>(n);
        for (std::size_t i = 0; i < n; ++i)
            if (std::isfinite(objectives[i]))
                result.valid.add(batch[i], objectives[i]);
        if (n < batch.size()) { // an incomplete trial is not averaged in: the run is over anyway
            result.exhausted = true;
            break;
        }
        std::vector<int> values;
        std::vector<double> found;
        for (std::size_t g = 0; g < genes; ++g) {
            values.assign(1, base[g]);
            found.assign(1, baseObjective);
            for (auto i = firstOfGene[g]; i < firstOfGene[g + 1]; ++i) {
                values.push_back(batch[i][g]);
                found.push_back(objectives[i]);
            }
            sum[g] += pairSensitivity(values, found);
        }
        ++result.trials;
    }
    if (result.trials > 0)
        for (std::size_t g = 0; g < genes; ++g)
            result.sensitivity[g] = sum[g] / result.trials;
    result.high = highSensitivityGenes(result.sensitivity, p.thresholdFraction, &result.threshold);
    return result;
}

} // namespace sparsemap::search
