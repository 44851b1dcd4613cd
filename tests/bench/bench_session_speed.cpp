// Long sessions (issue 16 item 5): what a run's point log costs in memory, and how long a session of
// three long runs takes to save and to open. The runs are synthetic (tests/synthetic_session.hpp:
// random 63-gene mm13/cloud genomes, a third invalid), SPARSEMAP_BENCH_POINTS points each (default
// 2,000,000: the three cancelled 2M-evaluation runs). scripts/measure-session-speed.sh runs it
// and docs/results/session-speed.md keeps the numbers.
//
// Counters: MB_per_M_points = resident memory added per million points held (RSS delta, after
// malloc_trim), for the log (PointLog) and, as the reference, the same points as a
// std::vector<EvaluatedPoint> (how runs were held before); bytes_per_point = the session file's size
// over its points.
#include "io/architecture_io.hpp"
#include "io/session_io.hpp"
#include "io/workload_io.hpp"

#include "../synthetic_session.hpp"

#include <benchmark/benchmark.h>

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace sparsemap;

namespace {

int pointsPerRun()
{
    const char* text = std::getenv("SPARSEMAP_BENCH_POINTS");
    return text ? std::max(1, std::atoi(text)) : 2000000;
}

double residentMb()
{
    malloc_trim(0);
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return double(resident) * double(sysconf(_SC_PAGESIZE)) / 1e6;
}

RunRecord makeRun(int index)
{
    static const Workload w = loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/mm13.yaml");
    static const Architecture a = loadPreset("cloud");
    return test::syntheticRun("run " + std::to_string(index), w, a, pointsPerRun(), std::uint64_t(index) + 1);
}

const Session& sessionOfThreeRuns()
{
    static const Session session = [] {
        Session s;
        for (int r = 0; r < 3; ++r)
            s.runs.push_back(makeRun(r));
        return s;
    }();
    return session;
}

std::string scratchPath()
{
    return (std::filesystem::temp_directory_path() / ("bench-session-" + std::to_string(getpid()) + ".yaml"))
        .string();
}

void memoryOfLog(benchmark::State& state)
{
    const RunRecord run = makeRun(0); // the generator's own buffers are not counted
    for (auto _ : state) {
        const double before = residentMb();
        search::PointLog log;
        log.append(run.result.points);
        const double after = residentMb();
        state.counters["MB_per_M_points"] = (after - before) / (double(log.size()) / 1e6);
        state.counters["heap_MB_per_M_points"] = double(log.memoryBytes()) / 1e6 / (double(log.size()) / 1e6);
        state.counters["genes"] = double(log.genomeLength());
        state.counters["gene_width_bytes"] = log.geneWidth();
    }
}

void memoryOfPointVector(benchmark::State& state)
{
    const RunRecord run = makeRun(0);
    for (auto _ : state) {
        const double before = residentMb();
        std::vector<search::EvaluatedPoint> points;
        points.reserve(run.result.points.size());
        for (const auto& p : run.result.points)
            points.push_back(p.toPoint());
        const double after = residentMb();
        state.counters["MB_per_M_points"] = (after - before) / (double(points.size()) / 1e6);
    }
}

void saveThreeRuns(benchmark::State& state)
{
    const Session& session = sessionOfThreeRuns();
    const std::string path = scratchPath();
    for (auto _ : state)
        saveSessionFile(session, path);
    const auto bytes = std::filesystem::file_size(path);
    const double points = 3.0 * pointsPerRun();
    state.counters["points"] = points;
    state.counters["file_MB"] = double(bytes) / 1e6;
    state.counters["bytes_per_point"] = double(bytes) / points;
}

void openThreeRuns(benchmark::State& state)
{
    const std::string path = scratchPath();
    saveSessionFile(sessionOfThreeRuns(), path);
    for (auto _ : state) {
        const Session loaded = loadSessionFile(path);
        benchmark::DoNotOptimize(loaded.runs.size());
    }
    std::filesystem::remove(path);
}

} // namespace

BENCHMARK(memoryOfLog)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(memoryOfPointVector)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(saveThreeRuns)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(openThreeRuns)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();
