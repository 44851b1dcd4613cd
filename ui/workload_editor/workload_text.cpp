#include "workload_text.hpp"

#include "io/index_expression.hpp"
#include "io/units.hpp"
#include "workload/workload_factory.hpp"

#include <QFileInfo>
#include <QStringList>

#include <algorithm>

namespace sparsemap::ui {

namespace {
QString number(double value)
{
    return QString::fromStdString(detail::formatNumber(value));
}
} // namespace

std::optional<std::int64_t> parseDimensionSize(const QString& text, const QString& what, QString& error)
{
    bool ok = false;
    const qlonglong value = text.trimmed().toLongLong(&ok);
    if (!ok || value <= 0) {
        error = QObject::tr("\"%1\" is not a valid %2: give a positive integer.").arg(text.trimmed(), what);
        return std::nullopt;
    }
    if (value > kMaxDimensionSize) {
        error = QObject::tr("%1 = %2 is too large: sizes up to 2^40 = %3 are supported.")
                    .arg(what)
                    .arg(value)
                    .arg(kMaxDimensionSize);
        return std::nullopt;
    }
    return value;
}

QString densityText(const DensitySpec& spec)
{
    switch (spec.model) {
    case DensityModelKind::Uniform:
        return number(spec.density);
    case DensityModelKind::FixedStructured:
        if (spec.structuredM > 0)
            return QStringLiteral("%1:%2").arg(spec.structuredN).arg(spec.structuredM);
        return QObject::tr("%1 (fixed)").arg(number(spec.density));
    case DensityModelKind::Banded:
        if (spec.density == 1.0)
            return QObject::tr("band %1").arg(spec.bandwidth);
        return QObject::tr("band %1 x %2").arg(spec.bandwidth).arg(number(spec.density));
    case DensityModelKind::Actual:
        return QObject::tr("actual: %1 (%2)")
            .arg(QFileInfo(QString::fromStdString(spec.file)).fileName(), number(spec.density));
    }
    return {};
}

QString ranksText(const Tensor& tensor, const std::vector<Dimension>& dims)
{
    QStringList ranks;
    for (const auto& rank : tensor.ranks)
        ranks << QString::fromStdString(detail::indexExpressionText(rank, dims));
    return ranks.join(QStringLiteral(", "));
}

QString workloadKindTitle(WorkloadKind kind)
{
    switch (kind) {
    case WorkloadKind::SpMM:
        return QObject::tr("SpMM");
    case WorkloadKind::SpConv:
        return QObject::tr("SpConv");
    case WorkloadKind::BatchedSpMM:
        return QObject::tr("Batched SpMM");
    case WorkloadKind::General:
        return QObject::tr("General");
    }
    return {};
}

QString workloadSummary(const Workload& workload)
{
    QStringList dims;
    for (const auto& d : workload.dims)
        dims << QStringLiteral("%1 %2").arg(QString::fromStdString(d.name)).arg(d.size);
    QStringList densities;
    for (int t : workload.inputTensors())
        densities << QStringLiteral("%1 %2").arg(QString::fromStdString(workload.tensors[t].name),
                                                 densityText(workload.tensors[t].density));
    return QStringLiteral("%1 · %2 · %3")
        .arg(workloadKindTitle(workload.kind), dims.join(QStringLiteral(", ")),
             densities.join(QStringLiteral(", ")));
}

QString newWorkloadProblem(const Workload& before, const Workload& after)
{
    const auto old = workloadProblems(before);
    for (const auto& problem : workloadProblems(after)) {
        if (std::find(old.begin(), old.end(), problem) == old.end())
            return QString::fromStdString(problem);
    }
    return {};
}

} // namespace sparsemap::ui
