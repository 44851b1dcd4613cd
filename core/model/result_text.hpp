#pragma once
// A plain-text report of an evaluation: the summary (valid or why not, cycles, energy, EDP,
// utilization) and a breakdown table per level and tensor (tile, accesses actual/gated/skipped,
// metadata, energy), as the CLI prints it.
#include "arch/architecture.hpp"
#include "model/evaluation_result.hpp"
#include "workload/workload.hpp"

#include <string>

namespace sparsemap::model {

std::string renderSummary(const EvaluationResult& result);
std::string renderBreakdown(const Workload& workload, const Architecture& arch,
                            const EvaluationResult& result);

} // namespace sparsemap::model
