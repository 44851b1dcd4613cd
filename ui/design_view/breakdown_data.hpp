#pragma once
// The numbers the breakdown chart stacks, taken from an EvaluationResult without arithmetic beyond
// the per-instance -> all-instances product: one category per storage level plus the compute, one
// series per tensor (energy), or per tensor and access kind (actual / gated / skipped accesses).
#include "arch/architecture.hpp"
#include "model/evaluation_result.hpp"
#include "workload/workload.hpp"

#include <QColor>
#include <QString>
#include <QStringList>
#include <vector>

namespace sparsemap::ui::design {

enum class BreakdownMode { Energy, Accesses };

struct BreakdownSeries {
    QString name;
    QColor color;
    Qt::BrushStyle brush = Qt::SolidPattern;
    std::vector<double> values; // per category
};

struct BreakdownData {
    QStringList categories; // storage level names (outer to inner), then the compute's name
    std::vector<BreakdownSeries> series;
    QString unit; // value axis title
    double categoryTotal(int category) const;
};

// Energy: series per tensor with TensorLevelResult::energyPj (already a total over the instances),
// plus a compute series with ComputeResult::energyPj. Accesses: data reads + fills + updates of each
// tensor, split actual / gated / skipped, times the instances holding the tensor (the result's counts
// are per instance), plus the computes split the same way. Series that are zero everywhere are left
// out. An invalid result gives no categories.
BreakdownData breakdownData(const Workload& workload, const Architecture& arch,
                            const model::EvaluationResult& result, BreakdownMode mode);

} // namespace sparsemap::ui::design
