#pragma once
// The compact point log of a session file (docs/file-formats.md, "Session", binary point log): a run's
// evaluated points as columns (generations, valid flags, the four metrics, each gene as a narrow
// offset from its least value, reasons as a dictionary) compressed with zstd. A few bytes per point
// instead of the ~150 of the CSV text, and encoded and decoded at hundreds of MB per second.
#include "search/search_types.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sparsemap {

// Progress and cancellation of a long file operation. `progress` gets the fraction done (0..1) of
// `units` of work, from the thread doing it; `cancel`, when set, stops the work (OperationCancelled).
struct IoControl {
    std::function<void(double fraction)> progress;
    const search::CancelToken* cancel = nullptr;
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
    void advance(std::int64_t units); // adds to the units done; reports at most ~200 times in all
    void checkCancelled() const;

private:
    const IoControl* m_control;
    std::int64_t m_total, m_done = 0, m_lastReported = 0;
};

} // namespace detail

inline constexpr std::string_view kPointLogEncoding = "zstd-columns-1";

// The points as one zstd frame. Deterministic: the same points give the same bytes. The ticker counts
// points.
std::string encodePointLog(const search::PointLog& points, detail::IoTicker* ticker = nullptr);

// Reads `count` points back; nullopt with `error` set when the bytes are not such a log (truncated,
// corrupt, a different count). Genes are not checked against a layout here. The ticker counts
// compressed bytes.
// The columns go straight into the log: no allocation per point.
std::optional<search::PointLog> decodePointLog(std::string_view bytes, std::int64_t count, std::string& error,
                                               detail::IoTicker* ticker = nullptr);

} // namespace sparsemap
