#pragma once
// Text forms shared by the workload editor's models and sample list: densities, rank expressions,
// one-line summaries, and the parsing of a size typed into a cell.
#include "workload/workload.hpp"

#include <QString>

#include <cstdint>
#include <optional>

namespace sparsemap::ui {

// Sizes are capped like the workload file's (docs/file-formats.md: positive integers up to 2^40), so
// that products, padding and factorization stay in range.
inline constexpr std::int64_t kMaxDimensionSize = std::int64_t(1) << 40;

// A positive integer up to kMaxDimensionSize, or nullopt with `error` saying what is allowed.
std::optional<std::int64_t> parseDimensionSize(const QString& text, const QString& what, QString& error);

// "0.118", "2:4", "0.5 (fixed)", "band 3", "band 3 x 0.5", "actual: a.mtx (0.12)".
QString densityText(const DensitySpec& spec);
// "C, 2*P + R": the tensor's ranks, outer to inner, in the workload file's index-expression syntax.
QString ranksText(const Tensor& tensor, const std::vector<Dimension>& dims);
// "SpMM · M 730, K 730, N 730 · P 0.118, Q 0.118".
QString workloadSummary(const Workload& workload);
// The display name of a kind: "SpMM", "SpConv", "Batched SpMM", "General".
QString workloadKindTitle(WorkloadKind kind);

// The first problem (workloadProblems) that `after` has and `before` had not, or empty. Edits are
// judged by what they break, so that an unfinished general workload can still be completed.
QString newWorkloadProblem(const Workload& before, const Workload& after);

} // namespace sparsemap::ui
