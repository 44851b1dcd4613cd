#pragma once
// Running a sweep: the result folder (its manifest sweep.txt, one file per finished cell under cells/,
// and the summaries), one cell's search, and the whole grid in this process or over MPI ranks
// (sweep/sweep_mpi.hpp). A rerun with the same grid reuses every finished cell; a folder that holds
// anything else is refused before anything is written.
#include "sweep/cell_store.hpp"
#include "sweep/sweep_grid.hpp"
#include "sweep/sweep_summary.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sparsemap::sweep {

class SweepFolder {
public:
    // Creates `dir` (and dir/cells) or opens it, and locks it (dir/sweep.lock, flock) until destroyed:
    // one process writes a sweep folder at a time. Throws InputError when another process holds the
    // lock, when dir/sweep.txt describes another grid (naming the first differing line), or when dir
    // has no sweep.txt but is not empty.
    SweepFolder(std::string dir, const SweepGrid& grid);
    ~SweepFolder();
    SweepFolder(const SweepFolder&) = delete;
    SweepFolder& operator=(const SweepFolder&) = delete;

    const std::string& dir() const { return m_dir; }
    std::string cellPath(std::size_t index) const;
    // The finished cell, nullopt when it has not run; InputError for a corrupt cell or another run's.
    std::optional<CellResult> load(std::size_t index) const;
    // Checks `cellText` (formatCell output) against the cell's identity, writes it atomically and
    // returns its result as read back.
    CellResult store(std::size_t index, const std::string& cellText) const;
    // summary.md, fig17a.csv, fig17b.csv, convergence.csv (all independent of timing) and timing.csv.
    void writeSummaries(const SweepSummary& summary, const std::vector<CellResult>& results) const;

private:
    std::string m_dir;
    const SweepGrid& m_grid;
    int m_lock = -1; // the open dir/sweep.lock, locked
};

// Runs one cell's search (the grid's settings, `threads` worker threads) and returns its file text.
std::string runCell(const SweepGrid& grid, std::size_t index, int threads);

struct CellReport {
    std::size_t index = 0;
    CellResult result;
    bool reused = false; // found finished in the folder
    int rank = 0;        // the MPI rank that ran it (0 in a single process)
};

struct SweepRunOptions {
    int threads = 0;                               // per process; 0 = all cores
    std::function<void(const CellReport&)> onCell; // called on rank 0 as cells finish
};

struct SweepOutcome {
    SweepSummary summary;
    std::vector<CellResult> results; // in grid order
    std::size_t ran = 0, reused = 0;
    double wallSeconds = 0;
    double cellSeconds = 0;         // sum of the searches' times of the cells run now
    double dispatchWaitSeconds = 0; // MPI: time workers waited between a result and their next cell
    int workers = 1;
};

// Runs every unfinished cell in this process, then writes the summaries.
SweepOutcome runSweepHere(const SweepGrid& grid, const SweepFolder& folder, const SweepRunOptions& options);

} // namespace sparsemap::sweep
