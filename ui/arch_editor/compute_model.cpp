#include "compute_model.hpp"

#include "architecture_commands.hpp"
#include "editor_support.hpp"
#include "io/units.hpp"

#include <QRegularExpression>

#include <cmath>

namespace sparsemap::ui {

namespace {

// Columns of a grid of n instances: the explicit mesh, else the square-ish default of the core.
std::int64_t columnsOf(std::int64_t n, std::int64_t meshX)
{
    if (meshX > 0)
        return meshX;
    auto x = static_cast<std::int64_t>(std::sqrt(static_cast<double>(n)));
    while (x > 1 && n % x != 0)
        --x;
    return std::max<std::int64_t>(x, 1);
}

} // namespace

ComputeModel::ComputeModel(ArchitectureDocument* doc, QObject* parent)
    : QAbstractTableModel(parent), m_doc(doc)
{
    connect(doc, &ArchitectureDocument::aboutToReset, this, [this] { beginResetModel(); });
    connect(doc, &ArchitectureDocument::reset, this, [this] { endResetModel(); });
    // Every value here may depend on the innermost level, so any change refreshes the whole column.
    connect(doc, &ArchitectureDocument::changed, this,
            [this] { emit dataChanged(index(0, Value), index(RowCount - 1, Value)); });
}

int ComputeModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : RowCount;
}

int ComputeModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComputeModel::data(const QModelIndex& index, int role) const
{
    static const QStringList names = {tr("PE array"), tr("MACs per PE"), tr("MACs in total"),
                                      tr("MAC word bits"), tr("Clock (GHz)")};
    static const QStringList helps = {
        tr("Rows x columns of PEs, e.g. `16 x 16` (instances of the innermost level)"),
        tr("A positive integer"), tr("Derived: PEs x MACs per PE"), tr("A positive integer"),
        tr("A positive number")};
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role == HelpRole || role == Qt::ToolTipRole)
        return helps[index.row()];
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    if (index.column() == Property)
        return names[index.row()];
    const Architecture& arch = m_doc->architecture();
    if (arch.levels.empty())
        return {};
    const StorageLevel& pe = arch.levels.back();
    const std::int64_t columns = columnsOf(pe.instances, pe.meshX);
    switch (index.row()) {
    case PeArray:
        return QStringLiteral("%1 x %2").arg(pe.instances / columns).arg(columns);
    case MacsPerPe:
        return QString::number(arch.compute.instances / std::max<std::int64_t>(pe.instances, 1));
    case TotalMacs:
        return QString::number(arch.compute.instances);
    case MacWordBits:
        return QString::number(arch.compute.wordBits);
    case ClockGHz:
        return QString::fromStdString(detail::formatNumber(arch.clockGHz));
    }
    return {};
}

QVariant ComputeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    return section == Property ? tr("Compute") : tr("Value");
}

Qt::ItemFlags ComputeModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    const bool editable = index.column() == Value && index.row() != TotalMacs;
    return QAbstractTableModel::flags(index) | (editable ? Qt::ItemIsEditable : Qt::NoItemFlags);
}

QString ComputeModel::validate(int row, const QString& input, Architecture& arch) const
{
    const QString text = input.trimmed();
    StorageLevel& pe = arch.levels.back();
    const std::int64_t macsPerPe = arch.compute.instances / std::max<std::int64_t>(pe.instances, 1);
    bool ok = false;
    switch (row) {
    case PeArray: {
        static const QRegularExpression shape(R"(^(\d+)\s*[xX×*]\s*(\d+)$)");
        const auto match = shape.match(text);
        const qlonglong rows = match.captured(1).toLongLong();
        const qlonglong columns = match.captured(2).toLongLong();
        if (!match.hasMatch() || rows <= 0 || columns <= 0)
            return tr("\"%1\" is not a PE array: give rows x columns, e.g. 16 x 16.").arg(text);
        // The MACs keep their share per PE, laid out in the same number of MAC columns per PE column.
        const std::int64_t oldColumns = columnsOf(pe.instances, pe.meshX);
        const std::int64_t macColumnsPerPe =
            arch.compute.meshX % oldColumns == 0 ? arch.compute.meshX / oldColumns : 1;
        pe.instances = rows * columns;
        pe.meshX = columns;
        arch.compute.instances = pe.instances * macsPerPe;
        arch.compute.meshX = columns * macColumnsPerPe; // 0 stays 0: the core's default layout
        return {};
    }
    case MacsPerPe: {
        const qlonglong n = text.toLongLong(&ok);
        if (!ok || n <= 0)
            return tr("\"%1\" is not a positive number of MACs per PE.").arg(text);
        arch.compute.instances = pe.instances * n;
        return {};
    }
    case MacWordBits: {
        const int bits = text.toInt(&ok);
        if (!ok || bits <= 0)
            return tr("\"%1\" is not a positive number of bits.").arg(text);
        arch.compute.wordBits = bits;
        return {};
    }
    case ClockGHz: {
        const double ghz = text.toDouble(&ok);
        if (!ok || !(ghz > 0) || !std::isfinite(ghz))
            return tr("\"%1\" is not a clock: give a positive number of GHz.").arg(text);
        arch.clockGHz = ghz;
        return {};
    }
    }
    return tr("This value is derived and cannot be edited.");
}

bool ComputeModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid) ||
        index.column() != Value || m_doc->architecture().levels.empty())
        return false;
    Architecture arch = m_doc->architecture();
    QString error = validate(index.row(), value.toString(), arch);
    if (error.isEmpty())
        error = newProblem(m_doc->architecture(), arch);
    if (!error.isEmpty()) {
        emit rejected(error);
        return false;
    }
    if (arch != m_doc->architecture())
        m_doc->undoStack()->push(new EditArchitectureCommand(
            m_doc, std::move(arch), tr("Edit %1").arg(data(index.siblingAtColumn(Property)).toString())));
    return true;
}

} // namespace sparsemap::ui
