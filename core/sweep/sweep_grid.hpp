#pragma once
// A sweep: the grid of searches architectures x workloads x methods x seeds, one cell per search, in
// that order (the seed varies fastest). Architectures are base architectures times every combination
// of the values of the override axes (sweep/arch_override.hpp). Everything that identifies a cell —
// workload and architecture (names and content hashes), method, seed, budget, objective and the
// genome/model options — is its CellIdentity, recorded in its file (sweep/cell_store.hpp) so that a
// resumed sweep never mixes runs.
#include "sweep/arch_override.hpp"
#include "arch/architecture.hpp"
#include "genome/genome_layout.hpp"
#include "model/evaluator.hpp"
#include "search/search_types.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sparsemap::sweep {

// Best-so-far checkpoints per cell (the convergence curves of Fig. 18 style).
inline constexpr int kCheckpoints = 20;

// What every cell of a sweep shares.
struct SweepSettings {
    search::Objective objective = search::Objective::Edp;
    std::int64_t budget = 20000;
    GenomeOptions genome;
    double occupancyConfidence = 1.0; // model::ModelOptions: 1 = the worst case, Sparseloop's rule
    model::FormatSpace formatSpace = model::FormatSpace::SparseloopDead; // model::ModelOptions
    bool operator==(const SweepSettings&) const = default;
};

struct SweepArchitecture {
    std::string label; // "cloud", or "cloud[glb.capacity=64KB,pe.count=8x8]"
    std::vector<ArchOverride> overrides;
    Architecture arch; // with the overrides applied
    std::string hash;  // contentHash of its canonical YAML
};

struct SweepWorkload {
    Workload workload;
    std::string hash; // contentHash of its canonical YAML
};

struct CellIdentity {
    std::string workload, workloadHash;
    std::string architecture, architectureHash;
    std::string method;
    std::uint64_t seed = 0;
    std::int64_t budget = 0;
    std::string objective; // "edp", "energy", "delay"
    std::string padding;   // dim padding mode of the genome
    double occupancyConfidence = 0;
    std::string formatSpace; // "dead", "nearest", "unrestricted"
    bool operator==(const CellIdentity&) const = default;
};

// "fnv1a64:<16 hex digits>" of `text`.
std::string contentHash(std::string_view text);

class SweepGrid {
public:
    struct Cell {
        int architecture = 0, workload = 0, method = 0, seed = 0; // indices into the axes
    };

    // Throws InputError for an empty axis, an unknown method, a bad override (unknown unit, attribute
    // or value), two architectures or workloads of one name, or a workload the genome cannot encode
    // on an architecture.
    SweepGrid(std::vector<Workload> workloads, const std::vector<Architecture>& bases,
              const std::vector<ArchAxis>& axes, std::vector<std::string> methods,
              std::vector<std::uint64_t> seeds, SweepSettings settings);

    const std::vector<SweepArchitecture>& architectures() const { return m_archs; }
    const std::vector<SweepWorkload>& workloads() const { return m_workloads; }
    const std::vector<std::string>& methods() const { return m_methods; }
    const std::vector<std::uint64_t>& seeds() const { return m_seeds; }
    const SweepSettings& settings() const { return m_settings; }

    std::size_t cellCount() const;
    Cell cell(std::size_t index) const;
    std::size_t cellIndex(const Cell& cell) const;
    CellIdentity identity(std::size_t index) const;
    // "<architecture>__<workload>__<method>__seed<N>.cell", unique within the grid: a name that holds
    // characters outside [A-Za-z0-9._,=+-], `__`, or a `_` at either end is written as its safe
    // characters followed by `~` and 8 hex digits of its hash (docs/file-formats.md), so `x/y` and
    // `x_y` name different files.
    std::string cellFileName(std::size_t index) const;
    // The name an earlier release gave the cell (every character outside [A-Za-z0-9._,=+-] as `_`,
    // not unique): a folder written then is still read (SweepFolder::load).
    std::string legacyCellFileName(std::size_t index) const;
    // The text of the folder's sweep.txt: the settings and every cell's identity, one per line.
    std::string manifest() const;

private:
    std::vector<SweepArchitecture> m_archs;
    std::vector<SweepWorkload> m_workloads;
    std::vector<std::string> m_methods;
    std::vector<std::uint64_t> m_seeds;
    SweepSettings m_settings;
};

} // namespace sparsemap::sweep
