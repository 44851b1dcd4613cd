#pragma once
// Synthetic runs for tests. syntheticRun, for the long-session measurements (tests/ui/
// test_session_background.cpp, tests/bench/bench_session_speed.cpp): random designs of the layout with
// plausible metrics, every third invalid with one of three reasons, a convergence entry per 100 points,
// as after a long cancelled search. Random genes are the hard case for the file's compression (a real
// run's genomes repeat far more). rankedRun, for the session and project tests: a few points with
// known objectives.
#include "genome/genome_layout.hpp"
#include "session/session.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace sparsemap::test {

// A run of method `method` with `points` valid points of objective (and EDP) 10, 20, ...: the best is
// point 0 (-1 without points). No genomes, workload or architecture.
inline RunRecord rankedRun(const std::string& name, const std::string& method, int points)
{
    RunRecord run;
    run.name = name;
    run.method = method;
    for (int i = 0; i < points; ++i) {
        search::EvaluatedPoint p;
        p.valid = true;
        p.objective = p.edp = 10.0 * (i + 1);
        run.result.points.push_back(p);
    }
    run.result.bestIndex = points > 0 ? 0 : -1;
    return run;
}

inline RunRecord syntheticRun(const std::string& name, const Workload& w, const Architecture& a, int points,
                              std::uint64_t seed)
{
    RunRecord run;
    run.name = name;
    run.method = "sparsemap";
    run.workload = w;
    run.architecture = a;
    run.settings.budget = 2000000;
    run.result.cancelled = true;
    const GenomeLayout layout(w, a, run.genomeOptions);
    std::mt19937_64 rng(seed);
    const char* reasons[] = {"GLB: the tiles need 140 KB but it holds 128 KB", "L2_S fan-out 2048 > 1024 PEs",
                             "PE buffer: the tiles need 200 KB but it holds 128 KB"};
    run.result.points.reserve(std::size_t(points), std::size_t(layout.size()));
    double best = std::numeric_limits<double>::infinity();
    search::EvaluatedPoint p;
    for (int i = 0; i < points; ++i) {
        p.genome.clear();
        for (const auto& g : layout.genes())
            p.genome.push_back(std::uniform_int_distribution<int>(g.lower, g.upper)(rng));
        p.valid = i % 3 != 0;
        p.generation = i / 100;
        p.reason.clear();
        p.cycles = p.energyPj = p.edp = 0;
        p.objective = std::numeric_limits<double>::infinity();
        if (p.valid) {
            p.cycles = std::floor(std::uniform_real_distribution<double>(1e5, 1e9)(rng));
            p.energyPj = std::uniform_real_distribution<double>(1e6, 1e12)(rng);
            p.edp = p.cycles * p.energyPj;
            p.objective = p.edp;
            if (p.objective < best) {
                best = p.objective;
                run.result.bestIndex = i;
            }
        } else {
            p.reason = reasons[(i / 3) % 3];
        }
        run.result.points.push_back(p);
    }
    for (int g = 0; g * 100 < points; ++g)
        run.result.convergence.push_back({g, std::int64_t(g + 1) * 100, best, 2 * best, 0.66});
    return run;
}

} // namespace sparsemap::test
