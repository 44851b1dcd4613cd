#pragma once
// Architectures and workloads built in code for the core tests, so that a test of the codec does not
// depend on the YAML loaders.
#include "arch/architecture.hpp"
#include "genome/genome_layout.hpp"
#include "search/optimizer.hpp"
#include "search/search_types.hpp"
#include "workload/workload_factory.hpp"

#include <limits>
#include <string>

namespace sparsemap::test {

// The SparseMap template DRAM -> GLB -> PE buffer -> MACs with `pes` PEs of `macsPerPe` MACs.
inline Architecture templateArchitecture(std::int64_t pes, std::int64_t macsPerPe,
                                         std::int64_t glbBytes = 1 << 20,
                                         std::int64_t peBufferBytes = 1 << 10)
{
    Architecture a;
    a.name = "template-" + std::to_string(pes) + "x" + std::to_string(macsPerPe);
    StorageLevel dram;
    dram.name = "DRAM";
    dram.technology = "DRAM";
    dram.energy.set("read", 32);
    StorageLevel glb;
    glb.name = "GLB";
    glb.capacityBits = glbBytes * 8;
    glb.energy.set("read", 1);
    StorageLevel pe;
    pe.name = "PE buffer";
    pe.instances = pes;
    pe.capacityBits = peBufferBytes * 8;
    pe.energy.set("read", 0.1);
    a.levels = {dram, glb, pe};
    a.compute.instances = pes * macsPerPe;
    a.compute.energy.set("mac_random", 0.06);
    return a;
}

// The paper's toy accelerator of Fig. 3a: 4 PEs with 4 MACs each.
inline Architecture toyArchitecture()
{
    return templateArchitecture(4, 4, 1024, 64);
}

// A point of a run with these metrics: EDP = cycles x energy, the objective its EDP when valid.
inline search::EvaluatedPoint evaluatedPoint(double cycles, double energyPj, bool valid = true)
{
    search::EvaluatedPoint p;
    p.valid = valid;
    p.cycles = cycles;
    p.energyPj = energyPj;
    p.edp = cycles * energyPj;
    p.objective = valid ? p.edp : std::numeric_limits<double>::infinity();
    return p;
}

// A run of `optimizer` with this budget and seed, every other setting at its default.
inline search::SearchResult runSeeded(search::Optimizer& optimizer, const GenomeLayout& layout,
                                      std::int64_t budget, std::uint64_t seed, int threads = 0,
                                      const search::CancelToken* cancel = nullptr,
                                      const search::ProgressCallback& progress = {})
{
    search::SearchSettings settings;
    settings.budget = budget;
    settings.seed = seed;
    settings.threads = threads;
    return search::runSearch(optimizer, layout, settings, {}, cancel, progress);
}

// The paper's toy SpMM of Fig. 9 / Fig. 13: M = 4, K = 8, N = 4.
inline Workload toyWorkload()
{
    return makeSpmm("toy", 4, 8, 4, uniformDensity(0.5), uniformDensity(0.5));
}

// A genome with every prime factor at mapping level 1 (DRAM, temporal) and every other gene at its
// lowest value: DRAM's loops are the only non-unit loops, so the other levels' orders are free.
inline Genome allFactorsAtDram(const GenomeLayout& layout)
{
    Genome g(static_cast<std::size_t>(layout.size()));
    for (int i = 0; i < layout.size(); ++i)
        g[i] = layout.gene(i).lower;
    const auto tiling = layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end; ++i)
        g[i] = 1;
    return g;
}

} // namespace sparsemap::test
