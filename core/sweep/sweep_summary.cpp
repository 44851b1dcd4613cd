#include "sweep/sweep_summary.hpp"

#include "io/search_io.hpp"
#include "io/units.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace sparsemap::sweep {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string exact(double v)
{
    return std::isinf(v) ? std::string("inf") : detail::formatNumber(v);
}

std::string printf4(double v)
{
    if (std::isinf(v))
        return "none valid";
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

// "| first | m1 | m2 |" and its separator line.
void tableHeader(std::ostringstream& md, const char* first, const std::vector<std::string>& methods)
{
    md << "| " << first << " |";
    for (const auto& m : methods)
        md << ' ' << m << " |";
    md << "\n|---|";
    for (std::size_t i = 0; i < methods.size(); ++i)
        md << "---|";
    md << '\n';
}

} // namespace

SweepShape shapeOf(const SweepGrid& grid)
{
    SweepShape s;
    for (const auto& a : grid.architectures())
        s.architectures.push_back(a.label);
    for (const auto& w : grid.workloads())
        s.workloads.push_back(w.workload.name);
    s.methods = grid.methods();
    s.seeds = grid.seeds().size();
    s.seedValues = grid.seeds();
    s.budget = grid.settings().budget;
    s.objective = model::objectiveName(grid.settings().objective);
    model::ModelOptions options;
    options.occupancyConfidence = grid.settings().occupancyConfidence;
    options.formatSpace = grid.settings().formatSpace;
    const std::string beyond = model::beyondSparseloopText(options);
    s.model = beyond.empty()
                  ? "Sparseloop's rules (capacity at the worst case, formats Sparseloop can represent)"
                  : "beyond Sparseloop: " + beyond;
    return s;
}

std::optional<double> geometricMean(std::span<const double> values)
{
    if (values.empty())
        return std::nullopt;
    double logSum = 0;
    bool infinite = false;
    for (double v : values) {
        if (!(v > 0))
            throw std::invalid_argument("geometric mean of a value that is not positive: " + exact(v));
        if (std::isinf(v))
            infinite = true;
        else
            logSum += std::log(v);
    }
    if (infinite)
        return kInf;
    return std::exp(logSum / static_cast<double>(values.size()));
}

SweepSummary summarizeSweep(const SweepShape& shape, std::span<const CellResult> results)
{
    if (results.size() != shape.cellCount())
        throw std::invalid_argument("summarizeSweep: " + std::to_string(results.size()) + " results for " +
                                    std::to_string(shape.cellCount()) + " cells");
    if (shape.methods.empty() || shape.seeds == 0)
        throw std::invalid_argument("summarizeSweep: a sweep needs at least one method and seed");
    SweepSummary summary;
    summary.shape = shape;
    const std::size_t nw = shape.workloads.size(), nm = shape.methods.size(), ns = shape.seeds;
    auto cellAt = [&](std::size_t a, std::size_t w, std::size_t m, std::size_t s) -> const CellResult& {
        return results[((a * nw + w) * nm + m) * ns + s];
    };
    for (std::size_t a = 0; a < shape.architectures.size(); ++a) {
        ArchitectureSummary as;
        as.architecture = shape.architectures[a];
        as.best.assign(nw, std::vector<double>(nm, kInf));
        as.validShare.assign(nm, 0);
        auto& conv = summary.convergence.emplace_back(nw, std::vector<std::vector<double>>(nm));
        for (std::size_t w = 0; w < nw; ++w)
            for (std::size_t m = 0; m < nm; ++m) {
                std::vector<double> bests;
                std::string seeds, note; // the seeds whose best design owes to an artefact, the first note
                for (std::size_t s = 0; s < ns; ++s) {
                    const auto& cell = cellAt(a, w, m, s);
                    bests.push_back(cell.best);
                    as.validShare[m] += cell.validShare;
                    if (cell.sparseloopArtefact.empty())
                        continue;
                    seeds += (seeds.empty() ? "" : ", ") +
                             std::to_string(s < shape.seedValues.size() ? shape.seedValues[s] : s + 1);
                    if (note.empty())
                        note = cell.sparseloopArtefact;
                }
                as.best[w][m] = *geometricMean(bests);
                if (!seeds.empty())
                    summary.artefacts.push_back(shape.architectures[a] + " " + shape.workloads[w] + " " +
                                                shape.methods[m] + ", seed(s) " + seeds + ": " + note);
                for (int k = 0; k < kCheckpoints; ++k) {
                    std::vector<double> atK;
                    for (std::size_t s = 0; s < ns; ++s)
                        atK.push_back(cellAt(a, w, m, s).curve.at(static_cast<std::size_t>(k)));
                    conv[w][m].push_back(*geometricMean(atK));
                }
            }
        for (auto& v : as.validShare)
            v /= static_cast<double>(nw * ns);
        for (std::size_t m = 1; m < nm; ++m) {
            MethodComparison c;
            c.method = shape.methods[m];
            std::vector<double> ratios;
            for (std::size_t w = 0; w < nw; ++w) {
                const double ref = as.best[w][0], b = as.best[w][m];
                ++c.workloads;
                if (ref <= b)
                    ++c.referenceAtLeastAsGood;
                if (std::isfinite(ref) && std::isfinite(b))
                    ratios.push_back(b / ref);
            }
            c.ratioGeomean = geometricMean(ratios);
            as.comparisons.push_back(c);
        }
        summary.architectures.push_back(std::move(as));
    }
    return summary;
}

std::string summaryMarkdown(const SweepSummary& summary)
{
    const auto& shape = summary.shape;
    const std::string& reference = shape.methods.front();
    std::ostringstream md;
    md << "# Sweep summary\n\nobjective " << shape.objective << ", budget " << shape.budget
       << " evaluations, " << shape.seeds
       << " seed(s); per cell the geometric mean over seeds of the best objective "
       << "(none valid: some seed found no valid design); ratios are method / " << reference
       << " (> 1: " << reference << " is better).\n\n";
    if (!shape.model.empty())
        md << "Model: " << shape.model << ".\n\n";
    for (const auto& as : summary.architectures) {
        md << "## " << as.architecture << "\n\n";
        tableHeader(md, "workload", shape.methods);
        for (std::size_t w = 0; w < shape.workloads.size(); ++w) {
            md << "| " << shape.workloads[w] << " |";
            for (double b : as.best[w])
                md << ' ' << printf4(b) << " |";
            md << '\n';
        }
        md << '\n';
        for (const auto& c : as.comparisons) {
            md << "- " << c.method << ": ";
            if (c.ratioGeomean) {
                char buffer[40];
                std::snprintf(buffer, sizeof buffer, "%.3g", *c.ratioGeomean);
                md << "geometric-mean ratio " << buffer << "x";
            } else {
                md << "no workload where both found a valid design";
            }
            md << "; " << reference << " at least as good in " << c.referenceAtLeastAsGood << " of "
               << c.workloads << " workloads\n";
        }
        md << '\n';
    }
    md << "## Valid share of evaluated points (Fig. 17b)\n\n";
    tableHeader(md, "architecture", shape.methods);
    for (const auto& as : summary.architectures) {
        md << "| " << as.architecture << " |";
        for (double v : as.validShare) {
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, " %.1f%% |", 100 * v);
            md << buffer;
        }
        md << '\n';
    }
    if (!summary.artefacts.empty()) {
        md << "\n## Best designs that owe their figures to a Sparseloop artefact\n\n";
        for (const auto& line : summary.artefacts)
            md << "- " << line << '\n';
    }
    return md.str();
}

std::string fig17aCsv(const SweepSummary& summary)
{
    const auto& shape = summary.shape;
    std::ostringstream csv;
    csv << "architecture,workload,method,best_geomean,ratio_to_" << shape.methods.front() << "\n";
    for (const auto& as : summary.architectures)
        for (std::size_t w = 0; w < shape.workloads.size(); ++w)
            for (std::size_t m = 0; m < shape.methods.size(); ++m) {
                const double b = as.best[w][m], ref = as.best[w][0];
                csv << csvField(as.architecture) << ',' << csvField(shape.workloads[w]) << ','
                    << csvField(shape.methods[m]) << ',' << exact(b) << ','
                    << (std::isfinite(b) && std::isfinite(ref) ? exact(b / ref) : std::string()) << '\n';
            }
    return csv.str();
}

std::string fig17bCsv(const SweepSummary& summary)
{
    std::ostringstream csv;
    csv << "architecture,method,valid_share\n";
    for (const auto& as : summary.architectures)
        for (std::size_t m = 0; m < summary.shape.methods.size(); ++m)
            csv << csvField(as.architecture) << ',' << csvField(summary.shape.methods[m]) << ','
                << exact(as.validShare[m]) << '\n';
    return csv.str();
}

std::string convergenceCsv(const SweepSummary& summary)
{
    const auto& shape = summary.shape;
    std::ostringstream csv;
    csv << "architecture,workload,method,evaluations,best_geomean\n";
    for (std::size_t a = 0; a < shape.architectures.size(); ++a)
        for (std::size_t w = 0; w < shape.workloads.size(); ++w)
            for (std::size_t m = 0; m < shape.methods.size(); ++m)
                for (int k = 0; k < kCheckpoints; ++k)
                    csv << csvField(shape.architectures[a]) << ',' << csvField(shape.workloads[w]) << ','
                        << csvField(shape.methods[m]) << ',' << (shape.budget * (k + 1)) / kCheckpoints << ','
                        << exact(summary.convergence[a][w][m][static_cast<std::size_t>(k)]) << '\n';
    return csv.str();
}

} // namespace sparsemap::sweep
