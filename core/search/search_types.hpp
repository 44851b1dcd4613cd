#pragma once
// The vocabulary every optimizer shares: settings of a run, one evaluated point of the design space,
// per-generation progress, and a cancel token. A run's state lives in SearchContext.
#include "design/design.hpp"
#include "genome/genome_layout.hpp"
#include "model/evaluation_result.hpp"
#include "search/point_log.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sparsemap::search {

using model::Objective;

struct SearchSettings {
    Objective objective = Objective::Edp;
    std::int64_t budget = 20000; // model evaluations, everything included
    std::uint64_t seed = 1;
    int threads = 0; // 0 = all hardware threads; results never depend on it
};

// One evaluated design, as an optimizer produces it. Invalid designs have objective +infinity
// ("fitness zero"). A run's log keeps them as columns (PointLog, point_log.hpp).
struct EvaluatedPoint {
    Genome genome; // the SparseMap genome (empty when the method's design has none)
    bool valid = false;
    std::string reason;
    double cycles = 0;
    double energyPj = 0;
    double edp = 0;
    double objective = std::numeric_limits<double>::infinity();
    int generation = 0;
};

struct GenerationStats {
    int generation = 0;
    std::int64_t evaluations = 0;                                       // used so far
    double best = std::numeric_limits<double>::infinity();              // best objective so far
    double populationAverage = std::numeric_limits<double>::infinity(); // of the valid members
    double validShare = 0; // valid points / evaluated points so far
};

class CancelToken {
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> m_cancelled{false};
};

using ProgressCallback = std::function<void(const GenerationStats&)>;
// Receives, at the end of every generation, the log and the index of the first point evaluated since
// the previous call (for live plots: the GUI's design-space map). Called on the search's thread; copy
// what you keep (PointLog::append(log, first)).
using PointsCallback = std::function<void(const PointLog& log, std::size_t first)>;

// The best point of a run as the search evaluated it, kept so that nobody evaluates or decodes it again
// (`sparsemap search` prints and saves it, the workbench shows it).
struct BestDesign {
    Design evaluated;                   // what the model evaluated (formats made representable under
                                        // --format-space nearest)
    Design decoded;                     // what the genome decodes to: what a design file records with it
    model::EvaluationResult evaluation; // the model's whole result for `evaluated`
};

struct SearchResult {
    std::string method;
    PointLog points;                          // every evaluation, in order
    std::vector<GenerationStats> convergence; // one entry per generation / batch
    std::int64_t bestIndex = -1;              // into points; -1 when nothing valid was found
    bool cancelled = false;
    double seconds = 0;
    // The design and the model's result of points[bestIndex], from the run that evaluated it; absent
    // when nothing valid was found and for a run read back from a session file (which keeps points).
    std::optional<BestDesign> bestDesign;
    std::optional<PointView> best() const
    {
        return bestIndex >= 0 ? std::optional(points[static_cast<std::size_t>(bestIndex)]) : std::nullopt;
    }
    // The valid evaluations, and their share of all (0 without evaluations): the one count the
    // sweep cells, the run table and the valid-share plot report.
    std::int64_t validCount() const { return points.validCount(); }
    double validShare() const
    {
        return points.empty() ? 0 : static_cast<double>(validCount()) / static_cast<double>(points.size());
    }
};

} // namespace sparsemap::search
