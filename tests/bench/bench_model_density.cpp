// Throughput of the density-model queries the sparse analysis makes for every tile of every design:
// P(empty) on a 1e9-coordinate tensor (plain and conditioned, the format walk's query), the worst-case
// and 99 % occupancy, the bounded occupancy distribution, and an expected format walk of a 3-rank tile
// (cold: first query of the shape; warm: answered by the model's distribution cache).
// Run: ./build/tests/bench/bench_model_density
#include "model/density/density_model_factory.hpp"
#include "model/format/format_walk.hpp"

#include <benchmark/benchmark.h>

#include <array>

namespace {

using namespace sparsemap;
using namespace sparsemap::model;

const std::vector<std::int64_t> kBigTensor{100000, 10000}; // 1e9 coordinates

std::unique_ptr<DensityModel> uniform(double density, const std::vector<std::int64_t>& extents = kBigTensor)
{
    DensitySpec spec;
    spec.density = density;
    return makeDensityModel(spec, extents);
}

void reportRate(benchmark::State& state, const char* name)
{
    state.counters[name] =
        benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void probabilityEmpty1e9(benchmark::State& state)
{
    const auto model = uniform(0.01);
    std::array<std::int64_t, 2> shape{1, 1};
    std::int64_t i = 0;
    for (auto _ : state) {
        shape = {1 + (i & 63), 16 + (i & 1023)}; // 16 .. 65 000 coordinates
        benchmark::DoNotOptimize(model->probabilityEmpty(shape));
        ++i;
    }
    reportRate(state, "queries/s");
}

void probabilityEmptyGiven1e9(benchmark::State& state)
{
    const auto model = uniform(0.01);
    std::int64_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(model->probabilityEmptyGiven(16 + (i & 1023), 1 << 20, 10000 + (i & 4095)));
        ++i;
    }
    reportRate(state, "queries/s");
}

void maxOccupancy1e9(benchmark::State& state)
{
    const auto model = uniform(0.01);
    const double confidence = static_cast<double>(state.range(0)) / 100;
    std::array<std::int64_t, 2> shape{1, 1};
    std::int64_t i = 0;
    for (auto _ : state) {
        shape = {64 + (i & 63), 1024 + (i & 1023)};
        benchmark::DoNotOptimize(model->maxOccupancy(shape, confidence));
        ++i;
    }
    reportRate(state, "queries/s");
}

// Cold: a fresh model each time (the first query of a tile shape builds the Gauss rule); warm: the
// model's distribution cache answers.
void distribution1e9(benchmark::State& state, bool cold)
{
    auto model = uniform(0.01);
    std::vector<OccupancyPoint> points;
    const std::array<std::int64_t, 2> shape{state.range(0), 1024};
    for (auto _ : state) {
        if (cold)
            model = uniform(0.01);
        model->distribution(shape, points);
        benchmark::DoNotOptimize(points.data());
    }
    reportRate(state, "distributions/s");
}

// A 3-rank tile (UOP 32 over B 64 over RLE 16, 32768 coordinates) of a uniform tensor, expected format
// occupancy conditioned on non-empty (the per-level, per-tensor work of the sparse analysis).
void expectedFormatWalk(benchmark::State& state, bool cold)
{
    const double density = static_cast<double>(state.range(0)) / 1000;
    auto model = uniform(density, {4096, 1024});
    const std::vector<WalkRank> ranks{{RankFormat::RLE, 16, 1, 2048, 4, 0, false},
                                      {RankFormat::B, 64, 16, 32, 1, 8, false},
                                      {RankFormat::UOP, 32, 1024, 1, 0, 16, false}};
    const std::array<std::int64_t, 2> shape{1024, 32};
    std::array<RankOccupancy, kMaxWalkRanks> out{};
    std::vector<OccupancyPoint> scratch;
    for (auto _ : state) {
        if (cold)
            model = uniform(density, {4096, 1024});
        const auto e = expectedFormatOccupancy(*model, ranks, shape, true, out, scratch);
        benchmark::DoNotOptimize(e);
        benchmark::DoNotOptimize(out.data());
    }
    reportRate(state, "walks/s");
}

} // namespace

BENCHMARK(probabilityEmpty1e9);
BENCHMARK(probabilityEmptyGiven1e9);
BENCHMARK(maxOccupancy1e9)->Arg(100)->Arg(99);
BENCHMARK_CAPTURE(distribution1e9, cold, true)->Arg(1)->Arg(64)->Arg(4096);
BENCHMARK_CAPTURE(distribution1e9, warm, false)->Arg(64);
BENCHMARK_CAPTURE(expectedFormatWalk, cold, true)->Arg(1)->Arg(50)->Arg(500);
BENCHMARK_CAPTURE(expectedFormatWalk, warm, false)->Arg(50);
