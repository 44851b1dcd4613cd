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
    // The run's colour in every view (legends, curves, swatches), "#rrggbb"; empty until the run
    // joins a session (addRunToSession gives it one).
    std::string color;
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

// What the Exploration view searches next: a session workload and a session architecture, by name
// (names are unique within each list). Empty: nothing recorded.
struct ExplorationSelection {
    std::string workload;
    std::string architecture;
    bool operator==(const ExplorationSelection&) const = default;
};

struct Session {
    std::vector<Architecture> architectures;
    std::vector<Workload> workloads;
    std::vector<RunRecord> runs;
    std::vector<PinnedDesign> pinned;
    ExplorationSelection selection;
};

// The run colours, "#rrggbb": distinct hues that stay readable on white.
const std::vector<std::string>& runPalette();
// A run's colour when its file names none: the palette's entry `runIndex` (cycling).
std::string defaultRunColor(std::size_t runIndex);
// The colour run `runIndex` of a session is drawn in: its own, or (a run built without one, not yet
// in a session) defaultRunColor(runIndex).
std::string runColor(const Session& session, std::size_t runIndex);
// Whether `color` is "#rrggbb" (six hex digits).
bool isRunColor(const std::string& color);
// The first palette colour no run of the session has; when every one is taken, the least used
// (the earliest of those in the palette).
std::string distinctRunColor(const Session& session);
// `name`, or the first of "name (2)", "name (3)", ... that no run of the session has. `ignoreRun`
// is an index into `session.runs` to leave out (the run being renamed), or -1.
std::string uniqueRunName(const Session& session, const std::string& name, int ignoreRun = -1);
// Adds `run` as the session's last run under a unique name (uniqueRunName) and with its colour: its
// own when it has one no other run has, else distinctRunColor. Returns its index.
std::size_t addRunToSession(Session& session, RunRecord run);

// A name for `arch` that no other architecture of the session uses: its own name when every session
// architecture and run architecture of that name has the same content (and, for a preset's name, the
// preset's content), else the first free "name (2)", "name (3)", ... So an edited preset and the
// preset never share a name in runs, pins, Compare or exported designs. `ignoreArchitecture` is an
// index into `session.architectures` to leave out (the entry being renamed itself), or -1.
std::string distinctArchitectureName(const Session& session, const Architecture& arch,
                                     int ignoreArchitecture = -1);
// The same for a workload: its own name unless a session workload or a run's workload of that name
// differs from it, else "name (2)", ... So a workload from the Workload view and a session workload
// of the same name but other sizes never collide.
std::string distinctWorkloadName(const Session& session, const Workload& workload, int ignoreWorkload = -1);

} // namespace sparsemap
