// Throughput of genome decoding (the first half of every model evaluation): random genomes of mm3 and
// conv4 on the cloud preset, single thread. Run: ./build/tests/bench/bench_genome_decode
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"

#include <benchmark/benchmark.h>

#include <random>

namespace {

void decodeRandomGenomes(benchmark::State& state, const char* workloadFile)
{
    using namespace sparsemap;
    const GenomeLayout layout(
        loadWorkloadFile(std::string(SPARSEMAP_SOURCE_DIR) + "/samples/workloads/" + workloadFile),
        loadPreset("cloud"));
    std::mt19937_64 rng(1);
    std::vector<Genome> genomes;
    for (int i = 0; i < 1024; ++i)
        genomes.push_back(randomGenome(layout, rng));
    std::size_t i = 0;
    for (auto _ : state) {
        Design d = decodeGenome(layout, genomes[i++ & 1023]);
        benchmark::DoNotOptimize(d);
    }
    state.counters["decodes/s"] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

} // namespace

BENCHMARK_CAPTURE(decodeRandomGenomes, mm3_cloud, "mm3.yaml");
BENCHMARK_CAPTURE(decodeRandomGenomes, conv4_cloud, "conv4.yaml");
