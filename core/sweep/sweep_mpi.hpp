#pragma once
// A sweep over MPI ranks: `mpirun -n N sparsemap sweep ...` (or `srun` under Slurm) when the program
// is built with MPI (CMake option SPARSEMAP_WITH_MPI, on by default, used when Open MPI is found).
// Rank 0 opens the result folder, hands out the unfinished cells one at a time to ranks 1..N-1 as they
// ask (dynamic load balancing: cells differ 10x in cost), stores each result the moment it arrives and
// writes the summaries; ranks 1..N-1 run cells, each search multi-threaded. A cell's search depends only
// on its seed, so the folder and its summaries are those of a single-process run; a killed rank or job
// loses only the cells in flight.
#include "sweep/sweep_run.hpp"

#include <optional>
#include <stdexcept>

namespace sparsemap::sweep {

// True when this program was built with MPI.
bool builtWithMpi();

// Initializes MPI when built with it and started by an MPI launcher (mpirun, mpiexec, srun), and
// finalizes it on destruction; otherwise a single process of rank 0. One per program.
class MpiSession {
public:
    MpiSession();
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    int rank() const { return m_rank; }
    int size() const { return m_size; }

private:
    bool m_initialized = false;
    int m_rank = 0;
    int m_size = 1;
};

// Thrown on ranks > 0 when rank 0 failed (it reports the reason): exit non-zero without a message.
struct PeerFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Runs the sweep in `outDir`: in this process when mpi.size() == 1, else over the ranks. Returns the
// outcome on rank 0, nullopt on the other ranks. Throws InputError for a folder of another sweep, a
// corrupt cell, or more worker ranks than cells (on every rank: nothing is written then).
std::optional<SweepOutcome> runSweep(const SweepGrid& grid, const std::string& outDir,
                                     const SweepRunOptions& options, const MpiSession& mpi);

} // namespace sparsemap::sweep
