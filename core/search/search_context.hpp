#pragma once
// The state of one search run, handed to an optimizer: the problem (layout, objective), the budget,
// the random source, parallel evaluation of batches, the point log, progress and cancellation.
//
// Determinism: a batch is evaluated in parallel (TBB) but every result lands at its own index and
// the optimizer draws all random numbers on the calling thread, so a seed gives the same run for
// any thread count.
#include "design/design.hpp"
#include "model/evaluator.hpp"
#include "search/search_types.hpp"

#include <functional>
#include <memory>
#include <random>
#include <span>

namespace sparsemap::model {
class GenomeEvaluator;
}

namespace sparsemap::search {

class SearchContext {
public:
    SearchContext(const GenomeLayout& layout, SearchSettings settings, model::ModelOptions modelOptions = {},
                  const CancelToken* cancel = nullptr, ProgressCallback progress = {},
                  PointsCallback points = {});
    ~SearchContext();
    SearchContext(const SearchContext&) = delete;
    SearchContext& operator=(const SearchContext&) = delete;

    const GenomeLayout& layout() const { return m_layout; }
    const SearchSettings& settings() const { return m_settings; }
    const model::ModelOptions& modelOptions() const { return m_modelOptions; }
    std::mt19937_64& rng() { return m_rng; }

    std::int64_t used() const { return static_cast<std::int64_t>(m_result.points.size()); }
    std::int64_t remaining() const { return std::max<std::int64_t>(0, m_settings.budget - used()); }
    bool cancelled() const { return m_cancel && m_cancel->cancelled(); }
    // True when the optimizer should stop: budget spent or run cancelled.
    bool done() const { return remaining() == 0 || cancelled(); }

    // Evaluates the genomes in order, as many as the budget allows (none once cancelled), in
    // parallel; returns their objectives (+inf when invalid) in `objectives` (resized to the number
    // evaluated) and logs every point under the current generation.
    std::size_t evaluate(std::span<const Genome> genomes, std::vector<double>& objectives);
    double evaluate(const Genome& genome); // one genome; +inf when invalid or out of budget
    // Which genomes evaluateFitting rules out without costing an evaluation, and how many at most.
    struct FreeRules {
        std::int64_t maxRejections = 0;
        // Designs the model finds malformed (EvaluationResult::malformed: formats or S/G actions that
        // cannot be built, found before any cost).
        bool malformed = false;
        // Designs the model finds over a buffer's capacity with their metadata (EvaluationResult::overflows:
        // found after the sparse analysis, before any cost).
        bool overflowing = false;
    };
    // What evaluateFitting ruled out: `rejected` in all (the capacity pre-check's included), of them
    // `malformed` and `overflowing` as the rules above.
    struct FreeCounts {
        std::int64_t rejected = 0, malformed = 0, overflowing = 0;
    };
    // evaluate() after the model's pre-evaluation capacity check (Evaluator::dataFitsCapacity): a
    // genome the model would report invalid ("capacity exceeded") gets +inf without an evaluation and
    // is not logged, up to `rules.maxRejections` of them (the others are evaluated). Each genome is decoded
    // once, for both. With `rules.malformed`, a genome whose design the model finds malformed is ruled out
    // so too, within the same cap, and the budget it leaves goes to the next genomes; a Skip without leader
    // metadata is seen before the evaluation (Evaluator::skipsHaveLeaderMetadata), the other problems by
    // the evaluation, which stops there. With `rules.overflowing`, likewise a genome whose tiles overflow a
    // buffer once their metadata is counted (seen by the evaluation, which stops before the costs).
    // Returns how many of `genomes`, in order, got an objective; `counts` says how many of those were ruled
    // out, and why.
    std::size_t evaluateFitting(std::span<const Genome> genomes, std::vector<double>& objectives,
                                const FreeRules& rules, FreeCounts& counts);
    // Starts, on the search's threads, what evaluateFitting will do for `genome` as the next item of the
    // batch it is given next (decoding, the pre-checks, the evaluation), while the caller goes on (breeding
    // the rest of the batch). evaluateFitting takes those results for the items whose genome matches, in
    // order, and works out the others itself; what it returns and logs is the same as without. Any other
    // evaluation drops what was started.
    void prefetchFitting(const Genome& genome);
    // How many of evaluateFitting's evaluations took their result from prefetchFitting's work.
    std::int64_t prefetchedResults() const { return m_prefetchedResults; }
    // For methods whose individuals are not SparseMap genomes (the direct-encoding ablation): each
    // design is evaluated as given; `genomes[i]` (may be empty) is what the log records.
    std::size_t evaluateDesigns(std::span<const Design> designs, std::span<const Genome> genomes,
                                std::vector<double>& objectives);

    // Runs f(i) for every i in [0, count) on the search's threads. For pure work on independent items
    // (each writes only its own), so that the search stays the same whatever the thread count.
    void parallelFor(std::size_t count, const std::function<void(std::size_t)>& f);

    int generation() const { return m_generation; }
    // Closes a generation: records convergence (best so far, average of the given population's
    // valid objectives, valid share), reports progress, and starts the next generation.
    void endGeneration(std::span<const double> populationObjectives);
    // Reports progress (the last generation's convergence, with the evaluations used now) without
    // closing a generation: for long work between generations (a surrogate's training), so the log
    // gets no empty generations.
    void heartbeat();

    const SearchResult& result() const { return m_result; }
    SearchResult takeResult();

private:
    struct Workers;
    // What evaluateFitting checks of a genome before evaluating it: whether its tiles' data fit every
    // buffer (Evaluator::dataFitsCapacity) and its skips have leader metadata
    // (Evaluator::skipsHaveLeaderMetadata; taken as true when not asked or when the data do not fit).
    struct Precheck {
        bool dataFits = false, leaderMetadata = false;
        // 1: to be evaluated; 0: its data overflow a buffer; 2: malformed (with malformed designs free).
        int code(bool malformedFree) const;
    };
    // Decodes `genome` into `decoded` and pre-checks it (leader metadata with `leaders`).
    static Precheck precheck(model::GenomeEvaluator& e, const Genome& genome, Design& decoded, bool leaders);
    struct Prefetched;
    // `prestaged(i)`, when given, is item i's result worked out beforehand (a Prefetched evaluated), or null.
    template <typename EvaluateOne, typename DecodedDesign, typename Prestaged>
    std::size_t evaluateBatch(std::size_t count, std::span<const Genome> genomes,
                              std::vector<double>& objectives, EvaluateOne evaluateOne,
                              DecodedDesign decodedDesign, Prestaged prestaged, const FreeRules& rules = {},
                              FreeCounts* freed = nullptr);
    // Spawns the work of the prefetched items not yet started; waits until all are done; drops them.
    void spawnPrefetches();
    void joinPrefetches();
    void dropPrefetches();
    // The design a file records for `genome`, evaluated as `evaluated` (its own decoded design).
    Design recordedDesign(const Genome& genome, const Design& evaluated) const;
    // `candidates[i]`: the design and result of point first + i when it beat the best before the batch.
    void record(std::size_t first, std::size_t count, std::vector<std::unique_ptr<BestDesign>>& candidates);
    GenerationStats currentStats(std::span<const double> populationObjectives) const;

    const GenomeLayout& m_layout;
    SearchSettings m_settings;
    model::ModelOptions m_modelOptions;
    const CancelToken* m_cancel;
    ProgressCallback m_progress;
    PointsCallback m_points;
    std::size_t m_streamed = 0; // points already handed to m_points
    std::mt19937_64 m_rng;
    std::unique_ptr<Workers> m_workers;
    SearchResult m_result;
    std::int64_t m_valid = 0;
    // evaluateFitting's scratch: the batch's decoded designs, which genomes passed, their objectives.
    std::vector<Design> m_decoded;
    std::vector<char> m_fits;
    std::vector<std::size_t> m_passedAt;
    std::vector<Genome> m_passed;
    std::vector<double> m_passedObjectives;
    // evaluateBatch's results of one round, logged in order once the round is done.
    struct StagedResult {
        bool valid = false;
        bool malformed = false;
        bool overflows = false;
        double cycles = 0, energyPj = 0, edp = 0, objective = 0;
    };
    std::vector<StagedResult> m_staged;
    // One evaluation's staged result, its reason, and its designs when it beats the best before (none yet
    // with noBestBefore); `recorded()` gives the design a file records.
    template <typename Recorded>
    void stage(const model::EvaluationResult& r, const Design& evaluated, bool noBestBefore,
               double bestBefore, StagedResult& staged, std::string& reason,
               std::unique_ptr<BestDesign>& candidate, Recorded recorded) const;
    // prefetchFitting's items of the coming batch (stable addresses: their work runs on other threads),
    // how many are in use and how many of those were spawned.
    std::vector<std::unique_ptr<Prefetched>> m_prefetched;
    std::size_t m_prefetchCount = 0, m_prefetchSpawned = 0;
    std::int64_t m_prefetchedResults = 0;
    std::vector<Prefetched*> m_usable; // evaluateFitting: item i's matching prefetched work, or null
    int m_generation = 0;
};

} // namespace sparsemap::search
