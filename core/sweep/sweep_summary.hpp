#pragma once
// The summaries of a sweep, as pure functions of its shape and its cells' results (in grid order:
// architecture, workload, method, seed, the seed fastest):
// - Table IV style: per architecture and workload, the geometric mean over seeds of each method's best
//   objective, and per method the geometric mean of its ratio to the reference method (the first),
//   with how often the reference is at least as good;
// - Fig. 17a style (fig17a.csv): every method's best per workload and its ratio to the reference;
// - Fig. 17b style: the mean valid share of evaluated points per architecture and method;
// - Fig. 18 style (convergence.csv): per cell, the geometric mean over seeds of the best so far at
//   kCheckpoints points of the budget.
// Nothing here depends on timing, so a sweep's summaries are the same however it was run.
#include "sweep/cell_store.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sparsemap::sweep {

// The axes of a sweep, by name.
struct SweepShape {
    std::vector<std::string> architectures, workloads, methods;
    std::size_t seeds = 1;
    std::int64_t budget = 0;
    std::string objective; // "edp", "energy", "delay"
    std::string model;     // "Sparseloop's rules ..." or what goes beyond them (model::beyondSparseloopText)
    std::vector<std::uint64_t> seedValues; // the seeds in grid order (empty: named by position, 1..seeds)
    std::size_t cellCount() const { return architectures.size() * workloads.size() * methods.size() * seeds; }
};
SweepShape shapeOf(const SweepGrid& grid);

// Geometric mean of positive values; nullopt for none. +inf when any value is +inf (a seed without a
// valid design makes the cell's mean unknown-but-worse, never a finite number). Throws
// std::invalid_argument for a value <= 0 or NaN.
std::optional<double> geometricMean(std::span<const double> values);

struct MethodComparison {
    std::string method;
    std::optional<double> ratioGeomean; // over the workloads where both found a valid design
    int referenceAtLeastAsGood = 0;     // workloads where the reference's mean <= this method's
    int workloads = 0;
};

struct ArchitectureSummary {
    std::string architecture;
    std::vector<std::vector<double>> best; // [workload][method]: geometric mean over seeds (+inf: none valid)
    std::vector<MethodComparison> comparisons; // every method but the reference, in order
    std::vector<double> validShare;            // [method]: mean over workloads and seeds (Fig. 17b)
};

struct SweepSummary {
    SweepShape shape;
    std::vector<ArchitectureSummary> architectures;
    // [architecture][workload][method][checkpoint]: geometric mean over seeds of the best so far.
    std::vector<std::vector<std::vector<std::vector<double>>>> convergence;
    // Runs whose best design owes its figures to an artefact of Sparseloop's arithmetic, one line per
    // architecture, workload and method: "edge mm5 sparsemap, seed(s) 1, 3: <the first run's note>".
    std::vector<std::string> artefacts;
};

// Throws std::invalid_argument when results.size() != shape.cellCount().
SweepSummary summarizeSweep(const SweepShape& shape, std::span<const CellResult> results);

std::string summaryMarkdown(const SweepSummary& summary); // summary.md
std::string fig17aCsv(const SweepSummary& summary);       // architecture,workload,method,best,ratio
std::string fig17bCsv(const SweepSummary& summary);       // architecture,method,valid_share
std::string
convergenceCsv(const SweepSummary& summary); // architecture,workload,method,evaluations,best_geomean

} // namespace sparsemap::sweep
