#pragma once
// A workbench session: the architectures and workloads the architect works with, the search runs
// made on them (each with a snapshot of what it searched, so later edits do not rewrite history) and
// the designs pinned for comparison. The GUI's project panel shows one; core/io/session_io.hpp saves
// and loads it as a single file.
#include "arch/architecture.hpp"
#include "genome/genome_layout.hpp"
#include "model/evaluator.hpp"
#include "search/search_types.hpp"
#include "workload/workload.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sparsemap {

struct RunRecord {
    std::string name; // unique within the session, e.g. "sparsemap mm3/cloud s1"
    std::string method;
    Workload workload;         // as searched
    Architecture architecture; // as searched
    GenomeOptions genomeOptions;
    // The model's options the run was scored with (occupancy confidence, format space; the padded
    // sizes come from genomeOptions): re-evaluating its designs must use them, not the defaults.
    model::ModelOptions modelOptions;
    search::SearchSettings settings;
    search::SearchResult result; // every point, the convergence, the best, seconds, cancelled
};

// A design kept for comparison: a point of a run, under a name the architect chose.
struct PinnedDesign {
    std::string name;
    int run = -1;                 // index into Session::runs
    std::int64_t pointIndex = -1; // index into that run's result.points
};

struct Session {
    std::vector<Architecture> architectures;
    std::vector<Workload> workloads;
    std::vector<RunRecord> runs;
    std::vector<PinnedDesign> pinned;
};

// A name for `arch` that no other architecture of the session uses: its own name when every session
// architecture and run architecture of that name has the same content (and, for a preset's name, the
// preset's content), else the first free "name (2)", "name (3)", ... So an edited preset and the
// preset never share a name in runs, pins, Compare or exported designs. `ignoreArchitecture` is an
// index into `session.architectures` to leave out (the entry being renamed itself), or -1.
std::string distinctArchitectureName(const Session& session, const Architecture& arch,
                                     int ignoreArchitecture = -1);

} // namespace sparsemap
