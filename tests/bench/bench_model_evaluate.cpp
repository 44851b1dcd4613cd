// Throughput of the objective function: decode + evaluate genomes, single thread (issue target:
// >= 100,000 per second on mm3 / cloud). Uniformly random genomes are almost all dead (formats
// Sparseloop cannot represent end the evaluation early); the "sparseloopSpace" runs draw what a search
// evaluates: format genes ordered for Sparseloop, spatial fan-out pre-checked, most of them valid.
// Run: ./build/tests/bench/bench_model_evaluate
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "search/genome_checks.hpp"

#include <benchmark/benchmark.h>

#include <random>

namespace {

void evaluateGenomes(benchmark::State& state, const char* workloadFile, const char* preset,
                     bool sparseloopSpace)
{
    using namespace sparsemap;
    const GenomeLayout layout(
        loadWorkloadFile(std::string(SPARSEMAP_SOURCE_DIR) + "/samples/workloads/" + workloadFile),
        loadPreset(preset));
    model::GenomeEvaluator evaluator(layout);
    std::mt19937_64 rng(1);
    std::vector<Genome> genomes;
    while (genomes.size() < 4096) {
        Genome g = randomGenome(layout, rng);
        if (sparseloopSpace) {
            orderFormatGenesForSparseloop(layout, g);
            if (!search::spatialFanoutFits(layout, g))
                continue;
        }
        genomes.push_back(std::move(g));
    }
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

void evaluateRandomGenomes(benchmark::State& state, const char* workloadFile, const char* preset)
{
    evaluateGenomes(state, workloadFile, preset, false);
}

void evaluateSparseloopSpace(benchmark::State& state, const char* workloadFile, const char* preset)
{
    evaluateGenomes(state, workloadFile, preset, true);
}

} // namespace

BENCHMARK_CAPTURE(evaluateRandomGenomes, mm3_cloud, "mm3.yaml", "cloud");
BENCHMARK_CAPTURE(evaluateRandomGenomes, conv4_cloud, "conv4.yaml", "cloud");
BENCHMARK_CAPTURE(evaluateRandomGenomes, mm10_cloud, "mm10.yaml", "cloud");
BENCHMARK_CAPTURE(evaluateRandomGenomes, mm3_edge, "mm3.yaml", "edge");
BENCHMARK_CAPTURE(evaluateSparseloopSpace, mm3_cloud, "mm3.yaml", "cloud");
BENCHMARK_CAPTURE(evaluateSparseloopSpace, conv4_cloud, "conv4.yaml", "cloud");
