#include "sweep/sweep_mpi.hpp"

#include "util/error.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#ifdef SPARSEMAP_WITH_MPI
#define OMPI_SKIP_MPICXX 1 // the C API only: no deprecated C++ bindings
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace sparsemap::sweep {

bool builtWithMpi()
{
#ifdef SPARSEMAP_WITH_MPI
    return true;
#else
    return false;
#endif
}

namespace {

// Set by Open MPI's mpirun, by PMIx launchers (Open MPI 5, srun --mpi=pmix) and by PMI-1/2 (srun
// --mpi=pmi2, MPICH's mpiexec).
bool startedByLauncher()
{
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
        if (std::getenv(name))
            return true;
    return false;
}

} // namespace

MpiSession::MpiSession()
{
#ifdef SPARSEMAP_WITH_MPI
    if (!startedByLauncher())
        return;
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    m_initialized = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m_size);
#endif
}

MpiSession::~MpiSession()
{
#ifdef SPARSEMAP_WITH_MPI
    if (m_initialized)
        MPI_Finalize();
#endif
}

#ifdef SPARSEMAP_WITH_MPI
namespace {

enum Tag { kReady = 1, kResult = 2, kError = 3, kWork = 4 };

double secondsSince(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void sendText(const std::string& text, int to, Tag tag)
{
    MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

// Rank 0's part after a successful setup.
SweepOutcome master(const SweepGrid& grid, const SweepFolder& folder,
                    std::vector<std::optional<CellResult>> done, const SweepRunOptions& options, int size,
                    std::chrono::steady_clock::time_point start)
{
    SweepOutcome outcome;
    outcome.workers = size - 1;
    outcome.results.resize(grid.cellCount());
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < done.size(); ++i) {
        if (!done[i]) {
            todo.push_back(i);
            continue;
        }
        outcome.results[i] = *done[i];
        ++outcome.reused;
        if (options.onCell)
            options.onCell({i, *done[i], true, 0});
    }
    std::size_t next = 0;
    std::string error; // the first failure: hand out nothing more, keep what finished
    for (int active = size - 1; active > 0;) {
        // Poll with a short sleep rather than a blocking probe: Open MPI's blocking calls spin, and rank 0
        // would take a core from the workers (costs at most ~0.1 ms per cell; cells take far longer).
        MPI_Status status;
        for (int flag = 0;;) {
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
            if (flag)
                break;
            std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
        int length = 0;
        MPI_Get_count(&status, MPI_CHAR, &length);
        std::string message(static_cast<std::size_t>(length), '\0');
        MPI_Recv(message.data(), length, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        if (status.MPI_TAG == kResult) {
            // "<cell index> <seconds the worker waited for it>\n<cell file text>"
            try {
                const auto newline = message.find('\n');
                std::size_t index = 0;
                double waited = 0;
                if (newline == std::string::npos ||
                    std::sscanf(message.c_str(), "%zu %lf", &index, &waited) != 2 ||
                    index >= grid.cellCount())
                    throw InputError("rank " + std::to_string(status.MPI_SOURCE) +
                                     " sent a malformed result");
                const CellResult result = folder.store(index, message.substr(newline + 1));
                outcome.results[index] = result;
                outcome.cellSeconds += result.seconds;
                outcome.dispatchWaitSeconds += waited;
                ++outcome.ran;
                if (options.onCell)
                    options.onCell({index, result, false, status.MPI_SOURCE});
            } catch (const std::exception& e) {
                if (error.empty())
                    error = e.what();
            }
        } else if (status.MPI_TAG == kError && error.empty()) {
            error = "rank " + std::to_string(status.MPI_SOURCE) + ": " + message;
        }
        long long work = -1;
        if (error.empty() && next < todo.size())
            work = static_cast<long long>(todo[next++]);
        MPI_Send(&work, 1, MPI_LONG_LONG, status.MPI_SOURCE, kWork, MPI_COMM_WORLD);
        if (work < 0)
            --active;
    }
    if (!error.empty())
        throw InputError(error + " (the cells that finished are kept; rerun to resume)");
    outcome.summary = summarizeSweep(shapeOf(grid), outcome.results);
    folder.writeSummaries(outcome.summary, outcome.results);
    outcome.wallSeconds = secondsSince(start);
    return outcome;
}

void worker(const SweepGrid& grid, const SweepRunOptions& options)
{
    sendText({}, 0, kReady);
    auto asked = std::chrono::steady_clock::now();
    while (true) {
        long long work = -1;
        MPI_Recv(&work, 1, MPI_LONG_LONG, 0, kWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const double waited = secondsSince(asked);
        if (work < 0)
            return;
        std::string message;
        Tag tag = kResult;
        try {
            const std::string text = runCell(grid, static_cast<std::size_t>(work), options.threads);
            char header[64];
            std::snprintf(header, sizeof header, "%lld %.9g\n", work, waited);
            message = header + text;
        } catch (const std::exception& e) {
            message = e.what();
            tag = kError;
        }
        sendText(message, 0, tag);
        asked = std::chrono::steady_clock::now();
    }
}

} // namespace
#endif

std::optional<SweepOutcome> runSweep(const SweepGrid& grid, const std::string& outDir,
                                     const SweepRunOptions& options, const MpiSession& mpi)
{
    if (mpi.size() <= 1) {
        const SweepFolder folder(outDir, grid);
        return runSweepHere(grid, folder, options);
    }
#ifdef SPARSEMAP_WITH_MPI
    const auto start = std::chrono::steady_clock::now();
    const auto workers = static_cast<std::size_t>(mpi.size() - 1);
    if (workers > grid.cellCount())
        throw InputError(std::to_string(mpi.size()) + " ranks for a grid of " +
                         std::to_string(grid.cellCount()) +
                         " cells: rank 0 hands out the cells, so at most " +
                         std::to_string(grid.cellCount() + 1) + " ranks are useful; nothing was written");
    // Rank 0 opens the folder and reads every finished cell; the others learn whether that worked.
    int ok = 1;
    if (mpi.rank() == 0) {
        std::optional<SweepFolder> folder;
        std::vector<std::optional<CellResult>> done(grid.cellCount());
        try {
            folder.emplace(outDir, grid);
            for (std::size_t i = 0; i < grid.cellCount(); ++i)
                done[i] = folder->load(i);
        } catch (...) {
            ok = 0;
            MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
            throw;
        }
        MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
        return master(grid, *folder, std::move(done), options, mpi.size(), start);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok)
        throw PeerFailure("rank 0 could not open the sweep folder");
    worker(grid, options);
    return std::nullopt;
#else
    (void)outDir;
    (void)options;
    throw InputError("this sparsemap was built without MPI");
#endif
}

} // namespace sparsemap::sweep
