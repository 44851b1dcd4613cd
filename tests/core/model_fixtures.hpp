#pragma once
// Small architectures and designs built by hand for the model tests, so that every expected number
// can be worked out on paper.
#include "arch/architecture.hpp"
#include "design/design.hpp"
#include "mapping/mapping.hpp"
#include "sparse/tensor_ranks.hpp"
#include "workload/workload_factory.hpp"

#include <string>
#include <vector>

namespace sparsemap::test {

inline StorageLevel storage(std::string name, std::int64_t instances, std::int64_t capacityWords, double read,
                            double write)
{
    StorageLevel l;
    l.name = std::move(name);
    l.instances = instances;
    l.capacityBits = capacityWords * 8;
    l.wordBits = 8;
    l.metadataWordBits = 8;
    l.energy.set("read", read);
    l.energy.set("write", write);
    l.energy.set("gated_read", read / 100);
    l.energy.set("gated_write", write / 100);
    l.energy.set("metadata_read", read);
    l.energy.set("metadata_write", write);
    return l;
}

// DRAM (unbounded) -> Buffer -> `macs` MACs. Energies: DRAM 10 pJ per word read or written, buffer
// 1 pJ read / 2 pJ write, MAC 0.5 pJ (gated 0.05, skipped 0.01).
inline Architecture twoLevelArchitecture(std::int64_t macs, std::int64_t bufferWords = 1 << 16)
{
    Architecture a;
    a.name = "two-level";
    auto dram = storage("DRAM", 1, 0, 10, 10);
    dram.capacityBits = 0;
    a.levels = {dram, storage("Buffer", 1, bufferWords, 1, 2)};
    a.compute.instances = macs;
    a.compute.energy.set("mac_random", 0.5);
    a.compute.energy.set("mac_gated", 0.05);
    a.compute.energy.set("mac_skipped", 0.01);
    return a;
}

// A mapping on the architecture's template with every bound 1; set bounds and orders by name.
inline Mapping emptyMapping(const Architecture& a, const Workload& w)
{
    return trivialMapping(a, w);
}

inline MappingLevel& levelNamed(Mapping& m, const std::string& name)
{
    for (auto& l : m.levels)
        if (l.name == name)
            return l;
    throw std::runtime_error("no mapping level " + name);
}

// Formats with every rank of `tensor` at `storageLevel` in `format` (ranks from the mapping).
inline void setFormat(Design& d, const Workload& w, int storageLevel, int tensor, RankFormat format)
{
    auto ranks = tensorRanks(w, d.mapping, tensor, storageLevel);
    for (auto& r : ranks)
        r.format = format;
    d.sparse.formats[storageLevel][tensor].ranks = ranks;
}

inline Design denseDesign(const Architecture& a, const Workload& w, Mapping m)
{
    Design d;
    d.mapping = std::move(m);
    d.sparse.formats.assign(a.levels.size(), std::vector<TensorFormat>(w.tensors.size()));
    return d;
}

} // namespace sparsemap::test
