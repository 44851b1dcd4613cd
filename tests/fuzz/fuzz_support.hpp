#pragma once
// Shared pieces of the libFuzzer targets (one per file reader). A target feeds the bytes to a reader;
// an InputError is the expected answer to bad input, anything else (a crash, a sanitizer report, an
// uncaught exception, a hang) is a finding. Inputs that read well go on through the model, so that a
// value the reader accepts but the model cannot represent is found too.
#include "arch/architecture.hpp"
#include "genome/genome_layout.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "util/error.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <unistd.h>

namespace sparsemap::fuzz {

inline std::string sourcePath(const std::string& relative)
{
    return std::string(SPARSEMAP_SOURCE_DIR) + "/" + relative;
}

// The scratch files of this process, removed when it exits normally (a fuzzer run that finds a crash
// leaves its file: it is the input).
struct ScratchFiles {
    std::set<std::string> paths;
    ~ScratchFiles()
    {
        for (const auto& p : paths)
            std::remove(p.c_str());
    }
};

// A scratch file of this process holding `bytes` (for the readers that take a path); `suffix` keeps
// the extension the reader may look at.
inline std::string writeScratch(const std::uint8_t* data, std::size_t size, const std::string& suffix)
{
    static const std::string dir = [] {
        const char* tmp = std::getenv("TMPDIR");
        return std::string(tmp && *tmp ? tmp : "/tmp");
    }();
    static ScratchFiles scratch;
    const std::string path = dir + "/sparsemap-fuzz-" + std::to_string(::getpid()) + suffix;
    scratch.paths.insert(path);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path;
}

// Fails loudly (libFuzzer records the input) when a promise of the model is broken.
inline void check(bool ok, const char* what)
{
    if (!ok) {
        std::fprintf(stderr, "fuzz: broken promise: %s\n", what);
        std::abort();
    }
}

// A result the model calls valid has finite, non-negative figures, and cycles >= 1 when data moves
// (words read, filled or updated at some level).
inline void checkResult(const model::EvaluationResult& r)
{
    if (!r.valid)
        return;
    check(std::isfinite(r.cycles) && std::isfinite(r.energyPj) && std::isfinite(r.edp), "finite result");
    if (r.cycles < 1)
        for (const auto& level : r.levels)
            for (const auto& t : level.tensors)
                check(t.reads.actual + t.reads.gated + t.fills.actual + t.fills.gated + t.updates.actual +
                              t.updates.gated <=
                          0,
                      "a design that moves data takes at least one cycle");
    check(r.energyPj >= 0, "energy >= 0");
}

// Evaluates a few genomes of `layout`, drawn from the input bytes (so the fuzzer steers them).
inline void evaluateSome(const GenomeLayout& layout, const std::uint8_t* data, std::size_t size)
{
    model::GenomeEvaluator evaluator(layout);
    Genome genome(static_cast<std::size_t>(layout.size()));
    std::uint64_t state = 0x9e3779b97f4a7c15ull ^ size;
    for (std::size_t i = 0; i < size; ++i)
        state = (state ^ data[i]) * 0x100000001b3ull;
    for (int draw = 0; draw < 3; ++draw) {
        for (int g = 0; g < layout.size(); ++g) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const auto& gene = layout.gene(g);
            const auto span = static_cast<std::uint64_t>(gene.upper - gene.lower + 1);
            genome[static_cast<std::size_t>(g)] = gene.lower + static_cast<int>((state >> 33) % span);
        }
        checkResult(evaluator.evaluate(genome));
    }
}

inline Workload toyWorkload()
{
    return loadWorkloadFile(sourcePath("samples/workloads/toy.yaml"));
}

inline Architecture toyArchitecture()
{
    return loadArchitectureFile(sourcePath("samples/arch/toy.yaml"));
}

} // namespace sparsemap::fuzz
