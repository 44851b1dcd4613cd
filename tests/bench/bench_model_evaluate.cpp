// Throughput of the objective function: decode + evaluate random genomes, single thread
// (issue target: >= 100,000 per second on mm3 / cloud). Run: ./build/tests/bench/bench_model_evaluate
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"

#include <benchmark/benchmark.h>

#include <random>

namespace {

void evaluateRandomGenomes(benchmark::State& state, const char* workloadFile, const char* preset)
{
    using namespace sparsemap;
    const GenomeLayout layout(
        loadWorkloadFile(std::string(SPARSEMAP_SOURCE_DIR) + "/samples/workloads/" + workloadFile),
        loadPreset(preset));
    model::GenomeEvaluator evaluator(layout);
    std::mt19937_64 rng(1);
    std::vector<Genome> genomes;
    for (int i = 0; i < 4096; ++i)
        genomes.push_back(randomGenome(layout, rng));
    std::size_t i = 0, valid = 0;
    for (auto _ : state) {
        const auto& r = evaluator.evaluate(genomes[i++ & 4095]);
        valid += r.valid;
        benchmark::DoNotOptimize(r.edp);
    }
    state.counters["evals/s"] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["valid%"] = 100.0 * static_cast<double>(valid) / static_cast<double>(state.iterations());
}

} // namespace

BENCHMARK_CAPTURE(evaluateRandomGenomes, mm3_cloud, "mm3.yaml", "cloud");
BENCHMARK_CAPTURE(evaluateRandomGenomes, conv4_cloud, "conv4.yaml", "cloud");
BENCHMARK_CAPTURE(evaluateRandomGenomes, mm10_cloud, "mm10.yaml", "cloud");
BENCHMARK_CAPTURE(evaluateRandomGenomes, mm3_edge, "mm3.yaml", "edge");
