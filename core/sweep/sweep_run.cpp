#include "sweep/sweep_run.hpp"

#include "util/file_io.hpp"
#include "io/search_io.hpp"
#include "io/units.hpp"
#include "search/method_registry.hpp"
#include "util/error.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace sparsemap::sweep {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLockName = "sweep.lock";

// dir/sweep.txt differs from `wanted`: the first differing line, for the message.
[[noreturn]] void refuseAnotherSweep(const std::string& manifestPath, const std::string& found,
                                     const std::string& wanted)
{
    std::istringstream a(found), b(wanted);
    std::string la, lb;
    int line = 0;
    while (true) {
        ++line;
        const bool ga = static_cast<bool>(std::getline(a, la)), gb = static_cast<bool>(std::getline(b, lb));
        if (!ga)
            la = "(end of file)";
        if (!gb)
            lb = "(nothing)";
        if (la != lb || (!ga && !gb))
            break;
    }
    throw InputError({Diagnostic{manifestPath, line, 1, "",
                                 "this folder holds another sweep (`" + la + "` where this sweep has `" + lb +
                                     "`); nothing was changed: use another --out folder"}});
}

// True when `dir` holds nothing but (perhaps) the lock file of an earlier sweep.
bool emptyButLock(const std::string& dir)
{
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().filename() != kLockName)
            return false;
    return !ec;
}

} // namespace

SweepFolder::SweepFolder(std::string dir, const SweepGrid& grid) : m_dir(std::move(dir)), m_grid(grid)
{
    const std::string manifestPath = m_dir + "/sweep.txt";
    const std::string wanted = grid.manifest();
    std::error_code ec;
    // Checked before anything is written (the lock file included), and again under the lock.
    auto check = [&] {
        if (fs::exists(manifestPath, ec)) {
            const std::string found = readTextFile(manifestPath);
            if (found != wanted)
                refuseAnotherSweep(manifestPath, found, wanted);
            return true;
        }
        if (fs::exists(m_dir, ec) && !fs::is_directory(m_dir, ec))
            throw InputError("--out " + m_dir + " exists and is not a folder");
        if (fs::exists(m_dir, ec) && !emptyButLock(m_dir))
            throw InputError(
                "--out " + m_dir +
                " is not empty and holds no sweep (no sweep.txt); nothing was changed: use a new or "
                "empty folder");
        return false;
    };
    check();
    fs::create_directories(m_dir, ec);
    if (ec)
        throw InputError("cannot create the output folder " + m_dir + ": " + ec.message());

    // One writer at a time: an advisory lock on dir/sweep.lock, held until this object is destroyed.
    // The system releases it when the process ends, however it ends, so a killed sweep never blocks.
    const std::string lockPath = m_dir + "/" + kLockName;
    m_lock = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (m_lock < 0)
        throw InputError("cannot create the lock file " + lockPath + ": " + std::strerror(errno));
    if (::flock(m_lock, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        ::close(m_lock);
        m_lock = -1;
        if (error == EWOULDBLOCK)
            throw InputError("--out " + m_dir + " is being written by another sweep (it holds " + lockPath +
                             "); nothing was changed: wait for it to finish, or use another --out folder");
        throw InputError("cannot lock " + lockPath + ": " + std::strerror(error));
    }
    try {
        if (!check())
            writeTextFileAtomically(manifestPath, wanted);
        fs::create_directories(m_dir + "/cells", ec);
        if (ec)
            throw InputError("cannot create " + m_dir + "/cells: " + ec.message());
    } catch (...) {
        ::close(m_lock);
        throw;
    }
}

SweepFolder::~SweepFolder()
{
    if (m_lock >= 0)
        ::close(m_lock); // releases the lock
}

std::string SweepFolder::cellPath(std::size_t index) const
{
    return m_dir + "/cells/" + m_grid.cellFileName(index);
}

std::optional<CellResult> SweepFolder::load(std::size_t index) const
{
    if (auto cell = loadCell(cellPath(index), m_grid.identity(index)))
        return cell;
    // A folder of an earlier release: the cell under its old name, when that file is this cell's (the
    // old names were not unique: it may be another cell's, which then is not reused).
    const std::string legacy = m_grid.legacyCellFileName(index);
    if (legacy == m_grid.cellFileName(index))
        return std::nullopt;
    try {
        return loadCell(m_dir + "/cells/" + legacy, m_grid.identity(index));
    } catch (const InputError&) {
        return std::nullopt;
    }
}

CellResult SweepFolder::store(std::size_t index, const std::string& cellText) const
{
    const CellResult result = parseCell(cellText, cellPath(index), m_grid.identity(index));
    writeTextFileAtomically(cellPath(index), cellText);
    return result;
}

void SweepFolder::writeSummaries(const SweepSummary& summary, const std::vector<CellResult>& results) const
{
    writeTextFileAtomically(m_dir + "/summary.md", summaryMarkdown(summary));
    writeTextFileAtomically(m_dir + "/fig17a.csv", fig17aCsv(summary));
    writeTextFileAtomically(m_dir + "/fig17b.csv", fig17bCsv(summary));
    writeTextFileAtomically(m_dir + "/convergence.csv", convergenceCsv(summary));
    std::string timing = "architecture,workload,method,seed,seconds\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const CellIdentity id = m_grid.identity(i);
        timing += csvField(id.architecture) + ',' + csvField(id.workload) + ',' + csvField(id.method) + ',' +
                  std::to_string(id.seed) + ',' + detail::formatNumber(results[i].seconds) + '\n';
    }
    writeTextFileAtomically(m_dir + "/timing.csv", timing);
}

std::string runCell(const SweepGrid& grid, std::size_t index, int threads)
{
    const SweepGrid::Cell c = grid.cell(index);
    const auto& s = grid.settings();
    const GenomeLayout layout(grid.workloads()[static_cast<std::size_t>(c.workload)].workload,
                              grid.architectures()[static_cast<std::size_t>(c.architecture)].arch, s.genome);
    auto optimizer = search::makeOptimizer(grid.methods()[static_cast<std::size_t>(c.method)]);
    search::SearchSettings settings;
    settings.objective = s.objective;
    settings.budget = s.budget;
    settings.seed = grid.seeds()[static_cast<std::size_t>(c.seed)];
    settings.threads = threads;
    model::ModelOptions modelOptions;
    modelOptions.occupancyConfidence = s.occupancyConfidence;
    modelOptions.formatSpace = s.formatSpace;
    const auto result = search::runSearch(*optimizer, layout, settings, modelOptions);
    return formatCell(grid.identity(index), cellResultOf(result, s.budget));
}

SweepOutcome runSweepHere(const SweepGrid& grid, const SweepFolder& folder, const SweepRunOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    SweepOutcome outcome;
    outcome.results.resize(grid.cellCount());
    // Every finished cell is read (and checked) before anything runs.
    std::vector<std::optional<CellResult>> done(grid.cellCount());
    for (std::size_t i = 0; i < grid.cellCount(); ++i)
        done[i] = folder.load(i);
    for (std::size_t i = 0; i < grid.cellCount(); ++i) {
        CellReport report;
        report.index = i;
        if (done[i]) {
            report.result = *done[i];
            report.reused = true;
            ++outcome.reused;
        } else {
            report.result = folder.store(i, runCell(grid, i, options.threads));
            outcome.cellSeconds += report.result.seconds;
            ++outcome.ran;
        }
        outcome.results[i] = report.result;
        if (options.onCell)
            options.onCell(report);
    }
    outcome.summary = summarizeSweep(shapeOf(grid), outcome.results);
    folder.writeSummaries(outcome.summary, outcome.results);
    outcome.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return outcome;
}

} // namespace sparsemap::sweep
