// Mind Mappings against SparseMap ES, simulated annealing, the genetic algorithm and random sampling
// (the comparisons of issue 6 / docs/results/mindmappings.md), one benchmark per (axis, workload,
// method, seed), each a single search on the cloud preset with all hardware threads:
//   IsoIteration/<workload>/<method>/<seed>: MM_BUDGET model evaluations (default 10000);
//   IsoTime/<workload>/<method>/<seed>: MM_SECONDS of wall clock (default 1): each method gets the
//     budget its measured rate fills in that time and is cancelled at the deadline; Mind Mappings
//     keeps its MM_BUDGET configuration (its training share is a share of a budget) and is
//     cancelled the same way.
// Counters: the best objective (EDP), evaluations used, valid share, and for Mind Mappings the
// surrogate's held-out accuracy and training time. Pick cells with --benchmark_filter; write
// --benchmark_format=csv for the tables. Run: ./build/tests/bench/bench_mindmappings
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "search/method_registry.hpp"
#include "search/mindmappings/mindmappings_search.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace {

using namespace sparsemap;

double environment(const char* name, double fallback)
{
    const char* v = std::getenv(name);
    return v ? std::atof(v) : fallback;
}

// The defaults, or the MM_* overrides used for the small grid search of the training settings.
search::MindMappingsParameters mindMappingsParameters()
{
    search::MindMappingsParameters p;
    p.trainingShare = environment("MM_SHARE", p.trainingShare);
    auto& t = p.surrogate.training;
    t.epochs = static_cast<int>(environment("MM_EPOCHS", t.epochs));
    t.decayEvery = static_cast<int>(environment("MM_DECAY_EVERY", t.decayEvery));
    t.learningRate = environment("MM_TRAIN_LR", t.learningRate);
    t.batchSize = static_cast<int>(environment("MM_BATCH", t.batchSize));
    p.search.learningRate = environment("MM_SEARCH_LR", p.search.learningRate);
    p.search.chains = static_cast<int>(environment("MM_CHAINS", p.search.chains));
    if (const char* h = std::getenv("MM_HIDDEN")) { // e.g. "128,128,64"
        p.surrogate.hidden.clear();
        for (const char* c = h; *c;) {
            char* end = nullptr;
            p.surrogate.hidden.push_back(static_cast<int>(std::strtol(c, &end, 10)));
            c = *end ? end + 1 : end;
        }
    }
    return p;
}

// Cancels `token` after `seconds` unless the run ends first.
class Deadline {
public:
    Deadline(search::CancelToken& token, double seconds)
        : m_thread([this, &token, seconds] {
              std::unique_lock lock(m_mutex);
              if (!m_done.wait_for(lock, std::chrono::duration<double>(seconds),
                                   [this] { return m_finished; }))
                  token.cancel();
          })
    {
    }
    ~Deadline()
    {
        {
            std::lock_guard lock(m_mutex);
            m_finished = true;
        }
        m_done.notify_all();
        m_thread.join();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_done;
    bool m_finished = false;
    std::thread m_thread;
};

void runCell(benchmark::State& state, const std::string& workloadFile, const std::string& method,
             bool isoTime)
{
    const GenomeLayout layout(
        loadWorkloadFile(std::string(SPARSEMAP_SOURCE_DIR) + "/samples/workloads/" + workloadFile + ".yaml"),
        loadPreset("cloud"));
    const auto budget = static_cast<std::int64_t>(environment("MM_BUDGET", 10000));
    const double seconds = environment("MM_SECONDS", 1.0);
    search::SearchSettings settings;
    settings.seed = static_cast<std::uint64_t>(state.range(0));
    settings.budget = budget;
    if (isoTime && method != "mindmappings") {
        // Budget-scheduled methods (annealing temperatures, SparseMap's phases) need a budget that
        // fits the time: a 2,000-evaluation pilot measures the rate, the budget is what the rate
        // fills in the time (+10%), and the deadline cuts the run at the time in any case.
        auto pilot = search::makeOptimizer(method);
        search::SearchSettings p = settings;
        p.budget = 2000;
        const auto r = search::runSearch(*pilot, layout, p);
        settings.budget = std::max<std::int64_t>(
            2000, static_cast<std::int64_t>(1.1 * seconds * 2000 / std::max(r.seconds, 1e-6)));
    }
    search::SearchResult result;
    search::MindMappingsReport report;
    for (auto _ : state) {
        auto optimizer = method == "mindmappings"
                             ? std::make_unique<search::MindMappingsSearch>(mindMappingsParameters())
                             : search::makeOptimizer(method);
        search::CancelToken token;
        {
            std::unique_ptr<Deadline> deadline;
            if (isoTime)
                deadline = std::make_unique<Deadline>(token, seconds);
            result = search::runSearch(*optimizer, layout, settings, {}, &token);
        }
        if (auto* mm = dynamic_cast<search::MindMappingsSearch*>(optimizer.get()))
            report = mm->report();
    }
    std::int64_t valid = 0;
    for (const auto& p : result.points)
        valid += p.valid;
    state.counters["best"] = result.best() ? result.best()->objective : 0;
    state.counters["evaluations"] = static_cast<double>(result.points.size());
    state.counters["validShare"] =
        result.points.empty() ? 0 : static_cast<double>(valid) / static_cast<double>(result.points.size());
    state.counters["seconds"] = result.seconds;
    if (method == "mindmappings") {
        state.counters["trained"] = report.surrogateTrained;
        state.counters["trainLoss"] = report.trainingLoss;
        state.counters["trainSeconds"] = report.trainingSeconds;
        state.counters["trainedOn"] = report.trainedOn;
        state.counters["heldOut"] = report.heldOut;
        state.counters["heldOutMedRelErr"] = report.heldOutMedianRelativeError;
        state.counters["heldOutLog10Err"] = report.heldOutMeanAbsLog10Error;
        state.counters["heldOutLog10Spread"] = report.heldOutMeanAbsLog10Spread;
        state.counters["heldOutSpearman"] = report.heldOutSpearman;
        state.counters["scoredSteps"] = static_cast<double>(report.search.scored);
        state.counters["acceptedInjections"] = static_cast<double>(report.search.acceptedInjections);
    }
}

// Sample workloads (under samples/workloads/): the two SparseMap ones of issue 6, then the eight
// problems of Mind Mappings' Table 1 (issue 17; samples/workloads/mindmappings/README.md), dense,
// and the sparse MTTKRP variants. A benchmark is named after the file (IsoTime/resnet-conv3/sa/1).
constexpr const char* kWorkloads[] = {"mm3",
                                      "conv4",
                                      "resnet-conv4-dense",
                                      "mindmappings/resnet-conv3",
                                      "mindmappings/resnet-conv4",
                                      "mindmappings/inception-conv2",
                                      "mindmappings/vgg-conv2",
                                      "mindmappings/alexnet-conv2",
                                      "mindmappings/alexnet-conv4",
                                      "mindmappings/mttkrp0",
                                      "mindmappings/mttkrp1",
                                      "mindmappings/mttkrp0-sparse",
                                      "mindmappings/mttkrp1-sparse"};

const bool kRegistered = [] {
    for (const char* axis : {"IsoIteration", "IsoTime"})
        for (const char* workload : kWorkloads)
            for (const char* method : {"mindmappings", "sparsemap", "sa", "ga", "random"}) {
                const bool isoTime = std::string(axis) == "IsoTime";
                const std::string name = std::string(workload).substr(std::string(workload).rfind('/') + 1);
                benchmark::RegisterBenchmark(
                    (std::string(axis) + "/" + name + "/" + method).c_str(),
                    [workload = std::string(workload), method = std::string(method),
                     isoTime](benchmark::State& s) { runCell(s, workload, method, isoTime); })
                    ->DenseRange(1, 3)
                    ->Iterations(1)
                    ->Unit(benchmark::kSecond)
                    ->UseRealTime();
            }
    return true;
}();

} // namespace
