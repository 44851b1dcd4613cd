#include "search/mindmappings/mindmappings_search.hpp"

#include "genome/genome_codec.hpp"
#include "model/genome_evaluator.hpp"
#include "search/genome_checks.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace sparsemap::search {

void validate(const MindMappingsParameters& p)
{
    auto require = [](bool ok, const char* message) {
        if (!ok)
            throw std::invalid_argument(message);
    };
    require(p.trainingShare > 0 && p.trainingShare < 1, "mindmappings: trainingShare must be in (0, 1)");
    require(p.sampleBatch >= 1, "mindmappings: sampleBatch must be at least 1");
    require(p.minTrainingDesigns >= 2, "mindmappings: minTrainingDesigns must be at least 2");
    require(p.heldOutShare >= 0 && p.heldOutShare < 1, "mindmappings: heldOutShare must be in [0, 1)");
    require(p.maxDrawsPerSample >= 1, "mindmappings: maxDrawsPerSample must be at least 1");
    require(p.reportEveryEpochs >= 1, "mindmappings: reportEveryEpochs must be at least 1");
    validate(p.surrogate);
    validate(p.search);
}

MindMappingsSearch::MindMappingsSearch(MindMappingsParameters parameters)
    : m_parameters(std::move(parameters))
{
    validate(m_parameters);
}

namespace {

// A uniform genome within every spatial fan-out and Timeloop's meshes (redrawn for free, as the
// mapper's pre-check does), its formats ordered into the ones Sparseloop represents: the surrogate
// learns from samples of the design space the model scores, not from dead ones.
Genome drawDesign(const GenomeLayout& layout, std::mt19937_64& rng, int maxDraws)
{
    Genome g = randomGenome(layout, rng);
    for (int i = 1; i < maxDraws && !spatialFanoutFits(layout, g); ++i)
        g = randomGenome(layout, rng);
    orderFormatGenesForSparseloop(layout, g);
    return g;
}

class SurrogateSpace : public GradientSearchSpace {
public:
    explicit SurrogateSpace(const Surrogate& s) : m_s(s) {}
    Eigen::VectorXd coordinates(const Genome& g) const override
    {
        return m_s.whiten(m_s.relaxation().relax(g));
    }
    Genome project(const Eigen::VectorXd& z) const override
    {
        return m_s.relaxation().project(m_s.unwhiten(z), m_s.inputScale());
    }
    void clampToBox(Eigen::VectorXd& z) const override
    {
        Eigen::VectorXd x = m_s.unwhiten(z);
        m_s.relaxation().clampToBox(x);
        z = m_s.whiten(x);
    }
    double gradient(const Eigen::VectorXd& z, Eigen::VectorXd& g) const override
    {
        return m_s.predictLogObjective(z, &g);
    }

private:
    const Surrogate& m_s;
};

std::vector<double> ranks(const std::vector<double>& v)
{
    std::vector<std::size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < order.size();) { // ties share their mean rank
        std::size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
            ++j;
        for (std::size_t k = i; k <= j; ++k)
            r[order[k]] = 0.5 * static_cast<double>(i + j);
        i = j + 1;
    }
    return r;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b)
{
    const auto n = static_cast<double>(a.size());
    const double ma = std::accumulate(a.begin(), a.end(), 0.0) / n;
    const double mb = std::accumulate(b.begin(), b.end(), 0.0) / n;
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

} // namespace

void MindMappingsSearch::run(SearchContext& context)
{
    const auto& p = m_parameters;
    const auto& layout = context.layout();
    auto& rng = context.rng();
    m_report = {};
    // The context's options: a design the run scored valid is valid here too (with the defaults, a
    // run at --confidence < 1 would see its valid designs re-scored as invalid).
    model::GenomeEvaluator evaluator(layout, context.modelOptions());
    Surrogate surrogate(layout, context.settings().objective, p.surrogate);

    // Phase 1: sample the training set.
    const auto samplingBudget = static_cast<std::int64_t>(
        std::llround(p.trainingShare * static_cast<double>(context.settings().budget)));
    std::vector<ScoredGenome> valid;
    std::vector<std::vector<double>> statistics;
    std::vector<Genome> batch;
    std::vector<double> objectives;
    while (!context.done() &&
           (context.used() < samplingBudget || static_cast<int>(valid.size()) < p.minTrainingDesigns)) {
        const auto wanted =
            context.used() < samplingBudget ? samplingBudget - context.used() : std::int64_t(p.sampleBatch);
        const auto n = std::min<std::int64_t>({p.sampleBatch, wanted, context.remaining()});
        batch.clear();
        for (std::int64_t i = 0; i < n; ++i)
            batch.push_back(drawDesign(layout, rng, p.maxDrawsPerSample));
        const std::size_t scored = context.evaluate(batch, objectives);
        m_report.samplingEvaluations += static_cast<std::int64_t>(scored);
        for (std::size_t i = 0; i < scored; ++i) {
            if (!std::isfinite(objectives[i]))
                continue;
            const auto& r = evaluator.evaluate(batch[i]);
            if (!r.valid)
                throw std::logic_error("mindmappings: the model re-scored a valid design as invalid");
            statistics.push_back(costStatistics(r, surrogate.minimum()));
            valid.push_back({batch[i], objectives[i]});
        }
        if (scored == 0)
            break;
        context.endGeneration(objectives);
    }
    m_report.validSamples = static_cast<int>(valid.size());
    if (context.done() || static_cast<int>(valid.size()) < p.minTrainingDesigns)
        return; // the budget went on sampling: a random search

    // Train on the first share, hold out the rest (the samples are in random order already).
    const int heldOut = static_cast<int>(std::floor(p.heldOutShare * static_cast<double>(valid.size())));
    const int trainCount = static_cast<int>(valid.size()) - heldOut;
    std::vector<Genome> trainGenomes;
    for (int i = 0; i < trainCount; ++i)
        trainGenomes.push_back(valid[static_cast<std::size_t>(i)].genome);
    statistics.resize(static_cast<std::size_t>(trainCount));
    const auto start = std::chrono::steady_clock::now();
    MlpTrainingHooks hooks;
    hooks.cancelled = [&context] { return context.cancelled(); };
    hooks.epochDone = [&](int epoch, double loss) {
        m_report.epochs = epoch;
        m_report.trainingLoss = loss;
        if (epoch % p.reportEveryEpochs == 0)
            context.heartbeat(); // for progress displays: no new evaluations, no new generation
    };
    surrogate.train(trainGenomes, statistics, rng, hooks);
    m_report.trainingSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (context.cancelled())
        return;
    m_report.surrogateTrained = true;
    m_report.trainedOn = trainCount;
    m_report.heldOut = heldOut;
    if (heldOut > 0) {
        std::vector<double> predicted, actual, relative;
        double logSum = 0;
        for (int i = trainCount; i < static_cast<int>(valid.size()); ++i) {
            const auto& v = valid[static_cast<std::size_t>(i)];
            predicted.push_back(surrogate.predictObjective(v.genome));
            actual.push_back(v.objective);
            relative.push_back(std::abs(predicted.back() - actual.back()) / actual.back());
            logSum += std::abs(std::log10(predicted.back() / actual.back()));
        }
        std::sort(relative.begin(), relative.end());
        const std::size_t h = relative.size();
        m_report.heldOutMedianRelativeError =
            h % 2 ? relative[h / 2] : 0.5 * (relative[h / 2 - 1] + relative[h / 2]);
        m_report.heldOutMeanAbsLog10Error = logSum / static_cast<double>(h);
        double meanLog = 0, spread = 0;
        for (double a : actual)
            meanLog += std::log10(a) / static_cast<double>(h);
        for (double a : actual)
            spread += std::abs(std::log10(a) - meanLog) / static_cast<double>(h);
        m_report.heldOutMeanAbsLog10Spread = spread;
        m_report.heldOutSpearman = pearson(ranks(predicted), ranks(actual));
    }

    // Phase 2: projected gradient search from random valid designs of the sample.
    std::shuffle(valid.begin(), valid.end(), rng);
    const std::size_t chains = std::min<std::size_t>(static_cast<std::size_t>(p.search.chains), valid.size());
    std::vector<ScoredGenome> starts(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(chains));
    std::size_t nextUnused = chains;
    GradientSearchHooks search;
    search.evaluate = [&context](std::span<const Genome> g, std::vector<double>& o) {
        return context.evaluate(g, o);
    };
    search.randomValid = [&](ScoredGenome& out) {
        if (nextUnused < valid.size()) {
            out = valid[nextUnused++];
            return true;
        }
        while (!context.done()) {
            Genome g = drawDesign(layout, rng, p.maxDrawsPerSample);
            const double o = context.evaluate(g);
            if (std::isfinite(o)) {
                out = {std::move(g), o};
                return true;
            }
        }
        return false;
    };
    search.done = [&context] { return context.done(); };
    search.endStep = [&context](std::span<const double> current) { context.endGeneration(current); };
    const Objective objective = context.settings().objective;
    const auto& minimum = surrogate.minimum();
    search.objectiveScale = objective == Objective::Edp      ? minimum.edp()
                            : objective == Objective::Energy ? minimum.energyPj
                                                             : minimum.cycles;
    SurrogateSpace space(surrogate);
    m_report.search = projectedGradientSearch(space, p.search, std::move(starts), search, rng);
}

} // namespace sparsemap::search
