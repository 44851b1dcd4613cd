#include "search/search_context.hpp"

#include "genome/genome_codec.hpp"
#include "model/genome_evaluator.hpp"
#include "util/background_arena.hpp"
#include "util/error.hpp"
#include "util/limits.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <array>
#include <chrono>
#include <limits>
#include <cmath>

namespace sparsemap::search {

// One model evaluator per worker thread (an evaluator keeps scratch buffers and caches).
struct SearchContext::Workers {
    Workers(const GenomeLayout& layout, const model::ModelOptions& options, int threads)
        : arena(threads > 0 ? threads : tbb::task_arena::automatic),
          evaluators([&layout, options] { return std::make_unique<model::GenomeEvaluator>(layout, options); })
    {
    }
    tbb::task_arena arena;
    util::BackgroundArena background{arena}; // in the workbench: below its GUI thread
    tbb::enumerable_thread_specific<std::unique_ptr<model::GenomeEvaluator>> evaluators;
    tbb::task_group prefetches; // prefetchFitting's work
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

// One item of prefetchFitting: the genome, what evaluateFitting needs of it, and (when it passed the
// pre-checks) its evaluation, staged as evaluateBatch stages one.
struct SearchContext::Prefetched {
    Genome genome;
    bool noBestBefore = true; // the best when it was started: its design is kept when it beats that
    double bestBefore = 0;
    Design decoded;
    Precheck precheck;
    bool evaluated = false;
    StagedResult staged;
    std::string reason;
    std::unique_ptr<BestDesign> candidate;
};

namespace {
// Items per task of prefetched work: few enough that the other threads start while the rest is bred.
constexpr std::size_t kPrefetchChunk = 4;
} // namespace

SearchContext::Precheck SearchContext::precheck(model::GenomeEvaluator& e, const Genome& genome,
                                                Design& decoded, bool leaders)
{
    e.decode(genome, decoded);
    Precheck p;
    p.dataFits = e.evaluator().dataFitsCapacity(decoded);
    p.leaderMetadata = !p.dataFits || !leaders || e.evaluator().skipsHaveLeaderMetadata(decoded);
    return p;
}

int SearchContext::Precheck::code(bool malformedFree) const
{
    return !dataFits ? 0 : malformedFree && !leaderMetadata ? 2 : 1;
}

SearchContext::SearchContext(const GenomeLayout& layout, SearchSettings settings,
                             model::ModelOptions modelOptions, const CancelToken* cancel,
                             ProgressCallback progress, PointsCallback points)
    : m_layout(layout), m_settings(settings), m_modelOptions(std::move(modelOptions)), m_cancel(cancel),
      m_progress(std::move(progress)), m_points(std::move(points)), m_rng(settings.seed),
      m_workers(std::make_unique<Workers>(layout, m_modelOptions, settings.threads))
{
    if (settings.budget < 0 || settings.budget > kMaxBudget)
        throw InputError("a run's budget must be 0.." + std::to_string(kMaxBudget) +
                         " model evaluations, not " + std::to_string(settings.budget) +
                         " (a run keeps every point it evaluates)");
    m_result.points.reserve(static_cast<std::size_t>(std::min<std::int64_t>(settings.budget, 1 << 22)),
                            static_cast<std::size_t>(layout.size()));
}

SearchContext::~SearchContext()
{
    try {
        joinPrefetches();
    } catch (...) { // an evaluation's exception nobody is left to see
    }
}

void SearchContext::parallelFor(std::size_t count, const std::function<void(std::size_t)>& f)
{
    m_workers->arena.execute([&] { tbb::parallel_for(std::size_t(0), count, f); });
}

template <typename Recorded>
void SearchContext::stage(const model::EvaluationResult& r, const Design& evaluated, bool noBestBefore,
                          double bestBefore, StagedResult& staged, std::string& reason,
                          std::unique_ptr<BestDesign>& candidate, Recorded recorded) const
{
    const double value = model::objectiveValue(r, m_settings.objective);
    staged = {r.valid, r.malformed, r.overflows, r.cycles, r.energyPj, r.edp, value};
    if (!r.reason.empty())
        reason = r.reason;
    if (r.valid && (noBestBefore || value < bestBefore))
        candidate = std::make_unique<BestDesign>(BestDesign{evaluated, recorded(), r});
}

// `evaluateOne(evaluator, i)` evaluates item i and returns the result and the design evaluated;
// `decodedDesign(i, evaluated)` gives the design a file records for item i (called for a new best only).
// Up to `rules.maxRejections` results that `rules` names (malformed, overflowing) cost no evaluation: they
// get +inf and are not logged, and the budget they leave evaluates further items of the batch. `freed`
// counts them by kind. `prestaged(i)` is item i's result worked out beforehand, or null.
template <typename EvaluateOne, typename DecodedDesign, typename Prestaged>
std::size_t SearchContext::evaluateBatch(std::size_t count, std::span<const Genome> genomes,
                                         std::vector<double>& objectives, EvaluateOne evaluateOne,
                                         DecodedDesign decodedDesign, Prestaged prestaged,
                                         const FreeRules& rules, FreeCounts* freed)
{
    objectives.clear();
    auto& points = m_result.points;
    auto& workers = *m_workers;
    std::int64_t freeLeft = rules.maxRejections;
    FreeCounts counts;
    std::size_t done = 0; // items [0, done) have their objectives
    while (done < count && !cancelled()) {
        const std::size_t n = std::min<std::size_t>(count - done, static_cast<std::size_t>(remaining()));
        if (n == 0)
            break;
        // A point better than the best so far keeps its design and result (the new best is one of
        // them), so that the best leaves the search with them.
        const auto bestSoFar = m_result.best();
        const bool noBestBefore = !bestSoFar;
        const double bestBefore = noBestBefore ? 0.0 : bestSoFar->objective;
        std::vector<std::unique_ptr<BestDesign>> candidates(n);
        // Each result lands at its own index, so the thread count cannot change the log. Reasons are
        // interned afterwards, on this thread, in order.
        std::vector<std::string> reasons(n);
        m_staged.resize(n);
        workers.arena.execute([&] {
            tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) {
                // Worked out before against a best at least as high as this round's: its design is kept
                // whenever this round would keep it.
                if (Prefetched* p = prestaged(done + i)) {
                    m_staged[i] = p->staged;
                    reasons[i] = std::move(p->reason);
                    candidates[i] = std::move(p->candidate);
                    return;
                }
                auto& evaluator = *workers.evaluators.local();
                const auto [result, design] = evaluateOne(evaluator, done + i);
                stage(*result, *design, noBestBefore, bestBefore, m_staged[i], reasons[i], candidates[i],
                      [&] { return decodedDesign(done + i, *design); });
            });
        });
        const std::size_t first = points.size();
        std::size_t logged = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const auto& e = m_staged[i];
            objectives.push_back(e.objective);
            const bool free = (rules.malformed && e.malformed) || (rules.overflowing && e.overflows);
            if (free && freeLeft > 0) {
                --freeLeft;
                ++(e.malformed ? counts.malformed : counts.overflowing);
                continue;
            }
            const std::size_t k = done + i;
            points.append(k < genomes.size() ? genomes[k] : std::span<const int>(), m_generation);
            points.setResult(first + logged, e.valid, e.cycles, e.energyPj, e.edp, e.objective);
            if (!reasons[i].empty())
                points.setReason(first + logged, reasons[i]);
            candidates[logged++] = std::move(candidates[i]);
        }
        record(first, logged, candidates);
        done += n;
    }
    if (freed)
        *freed = counts;
    return done;
}

std::size_t SearchContext::evaluate(std::span<const Genome> genomes, std::vector<double>& objectives)
{
    dropPrefetches();
    return evaluateBatch(
        genomes.size(), genomes, objectives,
        [&](model::GenomeEvaluator& e, std::size_t i) {
            const model::EvaluationResult& r = e.evaluate(genomes[i]);
            return std::pair{&r, &e.lastDesign()};
        },
        [&](std::size_t i, const Design& evaluated) { return recordedDesign(genomes[i], evaluated); },
        [](std::size_t) -> Prefetched* { return nullptr; });
}

Design SearchContext::recordedDesign(const Genome& genome, const Design& evaluated) const
{
    // Under --format-space nearest the evaluated design's formats differ from the genome's.
    return m_modelOptions.formatSpace == model::FormatSpace::SparseloopNearest
               ? decodeGenome(m_layout, genome)
               : evaluated;
}

std::size_t SearchContext::evaluateFitting(std::span<const Genome> genomes, std::vector<double>& objectives,
                                           const FreeRules& rules, FreeCounts& counts)
{
    const std::int64_t maxRejections = rules.maxRejections;
    const std::size_t count = genomes.size();
    if (m_decoded.size() < count)
        m_decoded.resize(count);
    m_fits.assign(count, 1);
    joinPrefetches();
    m_usable.assign(count, nullptr);
    for (std::size_t i = 0; i < count && i < m_prefetchCount; ++i)
        if (m_prefetched[i]->genome == genomes[i])
            m_usable[i] = m_prefetched[i].get();
    auto& workers = *m_workers;
    workers.arena.execute([&] {
        tbb::parallel_for(std::size_t(0), count, [&](std::size_t i) {
            if (Prefetched* p = m_usable[i]) {
                std::swap(m_decoded[i], p->decoded);
                m_fits[i] = static_cast<char>(p->precheck.code(rules.malformed));
                return;
            }
            const auto checked =
                precheck(*workers.evaluators.local(), genomes[i], m_decoded[i], rules.malformed);
            m_fits[i] = static_cast<char>(checked.code(rules.malformed));
        });
    });
    m_passedAt.clear();
    for (std::size_t i = 0; i < count; ++i)
        if (m_fits[i] == 1 || static_cast<std::int64_t>(i - m_passedAt.size()) >= maxRejections)
            m_passedAt.push_back(i);             // fits, or beyond the cap: evaluated
    const bool all = m_passedAt.size() == count; // the common case: the batch as it is
    if (!all) {
        m_passed.clear();
        for (auto i : m_passedAt)
            m_passed.push_back(genomes[i]);
    }
    const std::span<const Genome> logged = all ? genomes : std::span<const Genome>(m_passed);
    const auto evaluated = evaluateBatch(
        logged.size(), logged, all ? objectives : m_passedObjectives,
        [&](model::GenomeEvaluator& e, std::size_t k) {
            const Design& design = m_decoded[m_passedAt[k]];
            return std::pair{&e.evaluator().evaluate(design), &design};
        },
        [&](std::size_t k, const Design& design) { return recordedDesign(logged[k], design); },
        [&](std::size_t k) -> Prefetched* {
            Prefetched* p = m_usable[m_passedAt[k]];
            return p && p->evaluated ? p : nullptr;
        },
        // The malformed and overflowing share the cap with the pre-check's rejections (at most count - passed
        // of them).
        FreeRules{maxRejections - static_cast<std::int64_t>(count - m_passedAt.size()), rules.malformed,
                  rules.overflowing},
        &counts);
    for (std::size_t k = 0; k < evaluated; ++k) {
        const Prefetched* p = m_usable[m_passedAt[k]];
        m_prefetchedResults += p && p->evaluated;
    }
    m_prefetchCount = m_prefetchSpawned = 0;
    // Every genome before the first one left unevaluated got its objective.
    const std::size_t n = evaluated < m_passedAt.size() ? m_passedAt[evaluated] : count;
    counts.rejected = static_cast<std::int64_t>(n - evaluated) + counts.malformed + counts.overflowing;
    for (std::size_t i = 0, k = 0; i < n; ++i) { // the malformed among those ruled out before evaluation
        if (k < m_passedAt.size() && m_passedAt[k] == i)
            ++k;
        else
            counts.malformed += m_fits[i] == 2;
    }
    if (all)
        return evaluated;
    objectives.assign(n, std::numeric_limits<double>::infinity());
    for (std::size_t k = 0; k < evaluated; ++k)
        objectives[m_passedAt[k]] = m_passedObjectives[k];
    return n;
}

double SearchContext::evaluate(const Genome& genome)
{
    std::vector<double> objective;
    return evaluate(std::span<const Genome>(&genome, 1), objective) == 1
               ? objective[0]
               : std::numeric_limits<double>::infinity();
}

std::size_t SearchContext::evaluateDesigns(std::span<const Design> designs, std::span<const Genome> genomes,
                                           std::vector<double>& objectives)
{
    dropPrefetches();
    return evaluateBatch(
        designs.size(), genomes, objectives,
        [&](model::GenomeEvaluator& e, std::size_t i) {
            const model::EvaluationResult& r = e.evaluator().evaluate(designs[i]);
            return std::pair{&r, &designs[i]};
        },
        // The genome the log records (when there is one) is what a design file keeps.
        [&](std::size_t i, const Design& evaluated) {
            return i < genomes.size() && !genomes[i].empty() ? decodeGenome(m_layout, genomes[i]) : evaluated;
        },
        [](std::size_t) -> Prefetched* { return nullptr; });
}

void SearchContext::prefetchFitting(const Genome& genome)
{
    if (m_prefetchCount == m_prefetched.size())
        m_prefetched.push_back(std::make_unique<Prefetched>());
    Prefetched& p = *m_prefetched[m_prefetchCount++];
    p.genome = genome;
    const auto best = m_result.best();
    p.noBestBefore = !best;
    p.bestBefore = best ? best->objective : 0.0;
    p.evaluated = false;
    p.reason.clear();
    p.candidate.reset();
    if (m_prefetchCount - m_prefetchSpawned >= kPrefetchChunk)
        spawnPrefetches();
}

void SearchContext::spawnPrefetches()
{
    auto& workers = *m_workers;
    while (m_prefetchSpawned < m_prefetchCount) { // a chunk per task
        std::array<Prefetched*, kPrefetchChunk> items{};
        std::size_t n = 0;
        while (m_prefetchSpawned < m_prefetchCount && n < kPrefetchChunk)
            items[n++] = m_prefetched[m_prefetchSpawned++].get();
        workers.arena.execute([&] {
            workers.prefetches.run([this, items, n] {
                auto& e = *m_workers->evaluators.local();
                for (std::size_t k = 0; k < n; ++k) {
                    Prefetched& p = *items[k];
                    p.precheck = precheck(e, p.genome, p.decoded, true);
                    if (p.precheck.code(true) != 1)
                        continue; // evaluateFitting evaluates it if its rules say so
                    stage(e.evaluator().evaluate(p.decoded), p.decoded, p.noBestBefore, p.bestBefore,
                          p.staged, p.reason, p.candidate,
                          [&] { return recordedDesign(p.genome, p.decoded); });
                    p.evaluated = true;
                }
            });
        });
    }
}

void SearchContext::joinPrefetches()
{
    if (m_prefetchCount == 0) // none started since the last join
        return;
    spawnPrefetches();
    auto& workers = *m_workers;
    workers.arena.execute([&] { workers.prefetches.wait(); });
}

void SearchContext::dropPrefetches()
{
    joinPrefetches();
    m_prefetchCount = m_prefetchSpawned = 0;
}

void SearchContext::record(std::size_t first, std::size_t count,
                           std::vector<std::unique_ptr<BestDesign>>& candidates)
{
    const auto valid = m_result.points.validFlags();
    const auto objectives = m_result.points.objectives();
    for (std::size_t i = first; i < first + count; ++i) {
        if (!valid[i])
            continue;
        ++m_valid;
        // Strictly better only: ties keep the earliest point, so the best is deterministic.
        if (m_result.bestIndex < 0 ||
            objectives[i] < objectives[static_cast<std::size_t>(m_result.bestIndex)])
            m_result.bestIndex = static_cast<std::int64_t>(i);
    }
    if (m_result.bestIndex >= static_cast<std::int64_t>(first))
        m_result.bestDesign = std::move(*candidates[static_cast<std::size_t>(m_result.bestIndex) - first]);
}

GenerationStats SearchContext::currentStats(std::span<const double> populationObjectives) const
{
    GenerationStats g;
    g.generation = m_generation;
    g.evaluations = used();
    if (const auto best = m_result.best())
        g.best = best->objective;
    double sum = 0;
    int valid = 0;
    for (double o : populationObjectives)
        if (std::isfinite(o)) {
            sum += o;
            ++valid;
        }
    if (valid > 0)
        g.populationAverage = sum / valid;
    g.validShare = used() > 0 ? static_cast<double>(m_valid) / static_cast<double>(used()) : 0;
    return g;
}

void SearchContext::heartbeat()
{
    if (!m_progress)
        return;
    GenerationStats g = currentStats({});
    if (!m_result.convergence.empty()) {
        g.generation = m_result.convergence.back().generation;
        g.populationAverage = m_result.convergence.back().populationAverage;
    }
    m_progress(g);
}

void SearchContext::endGeneration(std::span<const double> populationObjectives)
{
    const GenerationStats g = currentStats(populationObjectives);
    m_result.convergence.push_back(g);
    ++m_generation;
    if (m_points && m_streamed < m_result.points.size()) {
        m_points(m_result.points, m_streamed);
        m_streamed = m_result.points.size();
    }
    if (m_progress)
        m_progress(g);
}

SearchResult SearchContext::takeResult()
{
    // Evaluations after the last generation closed (a method's final partial step) close one more,
    // so the convergence ends at the evaluations used; its population is the last one recorded.
    if (used() > 0 && (m_result.convergence.empty() || m_result.convergence.back().evaluations < used())) {
        const double average = m_result.convergence.empty() ? std::numeric_limits<double>::infinity()
                                                            : m_result.convergence.back().populationAverage;
        endGeneration(std::span<const double>(&average, 1));
    }
    // Points evaluated after the last generation closed still reach the observer.
    if (m_points && m_streamed < m_result.points.size()) {
        m_points(m_result.points, m_streamed);
        m_streamed = m_result.points.size();
    }
    m_result.cancelled = cancelled();
    m_result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_workers->start).count();
    return std::move(m_result);
}

} // namespace sparsemap::search
