#pragma once
// The compact point log of a session file (docs/file-formats.md, "Session", binary point log): a run's
// evaluated points as columns (generations, valid flags, the four metrics, each gene as a narrow
// offset from its least value, reasons as a dictionary) compressed with zstd. A few bytes per point
// instead of the ~150 of the CSV text, and encoded and decoded at hundreds of MB per second.
// Layout 2 (`zstd-columns-2`, written now) cuts the log into groups of points, each its own zstd
// frame, encoded and decoded in parallel; layout 1 (`zstd-columns-1`, one frame) is still read.
#include "search/search_types.hpp"

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sparsemap {

// Progress and cancellation of a long file operation. `progress` gets the fraction done (0..1) of
// `units` of work, from the thread doing it; `cancel`, when set, stops the work (OperationCancelled).
// `threads`: how many threads the point logs are encoded / decoded on (0: all cores; the bytes written
// are the same for any number).
struct IoControl {
    std::function<void(double fraction)> progress;
    const search::CancelToken* cancel = nullptr;
    int threads = 0;
};

// Thrown when an IoControl's cancel token is set: nothing was written (or nothing is returned).
class OperationCancelled : public std::runtime_error {
public:
    OperationCancelled() : std::runtime_error("cancelled") {}
};

namespace detail {

// Reports progress as units of work are done and throws OperationCancelled when asked to stop.
class IoTicker {
public:
    IoTicker(const IoControl* control, std::int64_t totalUnits);
    // Adds to the units done; reports at most ~200 times in all. Thread-safe: the reports are made
    // one at a time, in increasing order.
    void advance(std::int64_t units);
    void checkCancelled() const;

private:
    std::mutex m_mutex;
    const IoControl* m_control;
    std::int64_t m_total, m_done = 0, m_lastReported = 0;
};

} // namespace detail

// What sessions are written with, and the first layout (still read).
inline constexpr std::string_view kPointLogEncoding = "zstd-columns-2";
inline constexpr std::string_view kPointLogEncodingLayout1 = "zstd-columns-1";

// The points as layout 2: a header frame, then one frame per group of points, the groups compressed
// in parallel. Deterministic: the same points give the same bytes, whatever the number of threads
// (every group is compressed alone, on one thread). The ticker counts points.
std::string encodePointLog(const search::PointLog& points, detail::IoTicker* ticker = nullptr);

// Layout 1 (one zstd frame), as the program wrote before layout 2: kept to test the reader of older
// files (tests write such files with it).
std::string encodePointLogLayout1(const search::PointLog& points);

// The least and greatest value of each gene of a decoded log (empty when genome lengths vary).
struct GeneBounds {
    std::vector<int> low, high;
};

// Reads `count` points of `encoding` (kPointLogEncoding or kPointLogEncodingLayout1) back; nullopt
// with `error` set when the bytes are not such a log (truncated, corrupt, a different count, another
// layout). Genes are not checked against a layout here; `bounds`, when given, receives each gene's
// range (what such a check needs, without another pass over the genes). The ticker counts compressed
// bytes. The columns go straight into the log: no allocation per point; layout 2's groups are
// decompressed in parallel.
std::optional<search::PointLog> decodePointLog(std::string_view bytes, std::int64_t count, std::string& error,
                                               detail::IoTicker* ticker = nullptr,
                                               std::string_view encoding = kPointLogEncoding,
                                               GeneBounds* bounds = nullptr);

} // namespace sparsemap
