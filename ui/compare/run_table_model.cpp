#include "run_table_model.hpp"

#include <QBrush>

namespace sparsemap::ui {

namespace {

const QString kNone = QStringLiteral("—");

QString number(double value)
{
    return QString::number(value, 'g', 4);
}

// The metrics of a point when it is a valid design.
void fillMetrics(RunTableModel::Row& row, const search::SearchResult& result, std::int64_t point)
{
    if (point < 0 || point >= static_cast<std::int64_t>(result.points.size()))
        return;
    const auto& p = result.points[static_cast<std::size_t>(point)];
    if (!p.valid)
        return;
    row.edp = p.edp;
    row.energyPj = p.energyPj;
    row.cycles = p.cycles;
}

} // namespace

RunTableModel::RunTableModel(QObject* parent) : QAbstractTableModel(parent) {}

QColor RunTableModel::runColor(const Session& session, int run)
{
    return QColor(QString::fromStdString(sparsemap::runColor(session, static_cast<std::size_t>(run))));
}

void RunTableModel::setSession(const Session& session)
{
    beginResetModel();
    m_rows.clear();
    m_runCount = static_cast<int>(session.runs.size());
    const auto base = [&](int runIndex) {
        const RunRecord& run = session.runs[static_cast<std::size_t>(runIndex)];
        Row r;
        r.run = runIndex;
        r.method = QString::fromStdString(run.method);
        r.color = runColor(session, runIndex);
        r.workload = QString::fromStdString(run.workload.name);
        r.architecture = QString::fromStdString(run.architecture.name);
        r.seed = run.settings.seed;
        r.budget = run.settings.budget;
        return r;
    };
    for (int i = 0; i < m_runCount; ++i) {
        const RunRecord& run = session.runs[static_cast<std::size_t>(i)];
        Row r = base(i);
        r.name = QString::fromStdString(run.name);
        r.point = run.result.bestIndex;
        r.evaluations = static_cast<std::int64_t>(run.result.points.size());
        fillMetrics(r, run.result, r.point);
        if (!run.result.points.empty())
            r.validShare = run.result.validShare();
        r.seconds = run.result.seconds;
        r.cancelled = run.result.cancelled;
        m_rows.push_back(std::move(r));
    }
    for (const auto& pin : session.pinned) {
        if (pin.run < 0 || pin.run >= m_runCount)
            continue; // a dangling pin has nothing to show; the session loader never produces one
        Row r = base(pin.run);
        r.name = QString::fromStdString(pin.name);
        r.pinned = true;
        r.point = pin.pointIndex;
        r.evaluations = pin.pointIndex + 1;
        fillMetrics(r, session.runs[static_cast<std::size_t>(pin.run)].result, pin.pointIndex);
        m_rows.push_back(std::move(r));
    }
    endResetModel();
}

int RunTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RunTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunTableModel::display(const Row& r, int column) const
{
    const auto optional = [](const std::optional<double>& v, auto format) {
        return v ? QVariant(format(*v)) : QVariant(kNone);
    };
    switch (column) {
    case Name:
        return r.name;
    case Kind:
        return r.pinned ? tr("pinned") : tr("run");
    case Method:
        return r.method;
    case Workload:
        return r.workload;
    case Architecture:
        return r.architecture;
    case Seed:
        return QString::number(r.seed);
    case Budget:
        return QString::number(r.budget);
    case Evaluations:
        return QString::number(r.evaluations);
    case BestEdp:
        return optional(r.edp, number);
    case Energy:
        return optional(r.energyPj, number);
    case Cycles:
        return optional(r.cycles, number);
    case ValidShare:
        return optional(r.validShare, [](double v) { return QString::number(100 * v, 'f', 1) + " %"; });
    case Seconds:
        return optional(r.seconds, [](double v) { return QString::number(v, 'f', v < 10 ? 2 : 1); });
    case Cancelled:
        return r.cancelled ? (*r.cancelled ? tr("yes") : tr("no")) : kNone;
    }
    return {};
}

QVariant RunTableModel::sortValue(const Row& r, int column) const
{
    const auto optional = [](const auto& v) { return v ? QVariant(*v) : QVariant(); };
    switch (column) {
    case Seed:
        return QVariant::fromValue<qulonglong>(r.seed);
    case Budget:
        return QVariant::fromValue<qlonglong>(r.budget);
    case Evaluations:
        return QVariant::fromValue<qlonglong>(r.evaluations);
    case BestEdp:
        return optional(r.edp);
    case Energy:
        return optional(r.energyPj);
    case Cycles:
        return optional(r.cycles);
    case ValidShare:
        return optional(r.validShare);
    case Seconds:
        return optional(r.seconds);
    case Cancelled:
        return optional(r.cancelled);
    default:
        return display(r, column);
    }
}

QVariant RunTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(r, column);
    case SortRole:
        return sortValue(r, column);
    case RunRole:
        return r.run;
    case PointRole:
        return QVariant::fromValue<qlonglong>(r.point);
    case Qt::TextAlignmentRole:
        if (column == Cancelled)
            return QVariant(Qt::AlignCenter);
        return column >= Seed ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                              : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::DecorationRole:
        return column == Name && !r.pinned ? QVariant(r.color) : QVariant();
    case Qt::ForegroundRole:
        return r.pinned && column != Name ? QVariant(QBrush(QColor(90, 90, 90))) : QVariant();
    case Qt::ToolTipRole:
        if (r.pinned)
            return tr("pinned design: point %1 of run %2").arg(r.point).arg(r.run + 1);
        if (column >= BestEdp && column <= Cycles && !r.edp)
            return tr("no valid design was found");
        return {};
    default:
        return {};
    }
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        static const char* const kTitles[ColumnCount] = {
            "Name",        "Kind",     "Method",      "Workload", "Architecture", "Seed",     "Budget",
            "Evaluations", "Best EDP", "Energy (pJ)", "Cycles",   "Valid share",  "Time (s)", "Cancelled"};
        return section >= 0 && section < ColumnCount ? tr(kTitles[section]) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Evaluations:
            return tr("Runs: model evaluations spent. Pinned designs: the evaluation that found them.");
        case BestEdp:
            return tr("Energy x delay (pJ x cycles) of the run's best design (by its objective) or of the "
                      "pinned design; — when no valid design was found.");
        case ValidShare:
            return tr("Share of the run's evaluated designs that were valid.");
        default:
            return {};
        }
    }
    return {};
}

} // namespace sparsemap::ui
