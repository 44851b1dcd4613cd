#include "compute_model.hpp"

#include "editor_support.hpp"
#include "io/units.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sparsemap::ui {

namespace {

std::int64_t macsPerPeOf(const Architecture& arch)
{
    return arch.compute.instances / std::max<std::int64_t>(arch.levels.back().instances, 1);
}

// The MAC columns under each PE column when the MAC grid is an explicit multiple of the PE grid's
// columns (the presets lay out each PE's MACs side by side), else 0: no such structure to keep.
std::int64_t macColumnsPerPeColumn(const Architecture& arch)
{
    const StorageLevel& pe = arch.levels.back();
    const std::int64_t peColumns = meshColumns(pe.instances, pe.meshX);
    return arch.compute.meshX > 0 && arch.compute.meshX % peColumns == 0 ? arch.compute.meshX / peColumns : 0;
}

// After the PE array or MACs per PE changed: the MAC grid keeps its MAC columns per PE column, cut
// to a divisor of the MACs per PE so that the grid still divides the MACs (0 stays 0: the default).
void relayoutMacs(Architecture& arch, std::int64_t macColumnsPerPe)
{
    if (arch.compute.meshX == 0)
        return;
    const StorageLevel& pe = arch.levels.back();
    const std::int64_t columns = std::gcd(std::max<std::int64_t>(macColumnsPerPe, 1), macsPerPeOf(arch));
    arch.compute.meshX = meshColumns(pe.instances, pe.meshX) * std::max<std::int64_t>(columns, 1);
}

} // namespace

ComputeModel::ComputeModel(ArchitectureDocument* doc, QObject* parent)
    : ArchitectureTableModel(doc, ColumnCount, parent)
{
    followDocumentResets();
    // Every value here may depend on the innermost level, so any change refreshes the whole column.
    connect(doc, &ArchitectureDocument::changed, this,
            [this] { emit dataChanged(index(0, Value), index(RowCount - 1, Value)); });
}

int ComputeModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : RowCount;
}

QVariant ComputeModel::data(const QModelIndex& index, int role) const
{
    static const QStringList names = {tr("Architecture name"), tr("PE array"),      tr("MACs per PE"),
                                      tr("MAC array"),         tr("MACs in total"), tr("MAC name"),
                                      tr("MAC word bits"),     tr("Clock (GHz)")};
    static const QStringList helps = {
        tr("A name for the architecture (not empty)"),
        tr("The PEs (instances of the innermost level): %1").arg(gridForms()),
        tr("A positive integer"),
        tr("The MACs of the whole accelerator: %1, a multiple of the PEs; `auto` = a square-ish default")
            .arg(gridForms()),
        tr("Derived: PEs x MACs per PE"),
        tr("The compute unit's name (not empty)"),
        tr("A positive integer (at most 4096)"),
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
    const ComputeUnit& compute = arch.compute;
    switch (index.row()) {
    case ArchitectureName:
        return QString::fromStdString(arch.name);
    case PeArray:
        return gridText(pe.instances, pe.meshX);
    case MacsPerPe:
        return QString::number(macsPerPeOf(arch));
    case MacArray:
        if (compute.meshX > 0)
            return gridText(compute.instances, compute.meshX);
        return role == Qt::DisplayRole ? tr("%1 (auto)").arg(gridText(compute.instances, 0))
                                       : QStringLiteral("auto");
    case TotalMacs:
        return QString::number(compute.instances);
    case MacName:
        return QString::fromStdString(compute.name);
    case MacWordBits:
        return QString::number(compute.wordBits);
    case ClockGHz:
        return QString::fromStdString(detail::formatNumber(arch.clockGHz));
    }
    return {};
}

QVariant ComputeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    return section == Property ? tr("Property") : tr("Value");
}

Qt::ItemFlags ComputeModel::flags(const QModelIndex& index) const
{
    const bool editable = index.column() == Value && index.row() != TotalMacs;
    return editable ? ArchitectureTableModel::flags(index) : QAbstractTableModel::flags(index);
}

QString ComputeModel::validate(int row, const QString& input, Architecture& arch) const
{
    const QString text = input.trimmed();
    StorageLevel& pe = arch.levels.back();
    const std::int64_t macsPerPe = macsPerPeOf(arch);
    bool ok = false;
    switch (row) {
    case ArchitectureName:
    case MacName:
        if (text.isEmpty())
            return row == MacName ? tr("The compute unit needs a name.")
                                  : tr("The architecture needs a name.");
        (row == MacName ? arch.compute.name : arch.name) = text.toStdString();
        return {};
    case PeArray: {
        const auto grid = parseGrid(text);
        if (!grid)
            return tr("\"%1\" is not a PE array: give %2.").arg(text, gridForms());
        // The MACs keep their share per PE, laid out in the same number of MAC columns per PE column.
        const std::int64_t macColumns = macColumnsPerPeColumn(arch);
        pe.instances = grid->columns * grid->rows;
        pe.meshX = grid->columns;
        arch.compute.instances = pe.instances * macsPerPe;
        relayoutMacs(arch, macColumns);
        return {};
    }
    case MacsPerPe: {
        const qlonglong n = text.toLongLong(&ok);
        if (!ok || n <= 0 || n > (std::int64_t{1} << 40) / std::max<std::int64_t>(pe.instances, 1))
            return tr("\"%1\" is not a positive number of MACs per PE.").arg(text);
        const std::int64_t macColumns = macColumnsPerPeColumn(arch);
        arch.compute.instances = pe.instances * n;
        relayoutMacs(arch, macColumns);
        return {};
    }
    case MacArray: {
        if (text.isEmpty() || text.compare("auto", Qt::CaseInsensitive) == 0) {
            arch.compute.meshX = 0;
            return {};
        }
        const auto grid = parseGrid(text);
        if (!grid)
            return tr("\"%1\" is not a MAC array: give %2, or `auto`.").arg(text, gridForms());
        arch.compute.instances = grid->columns * grid->rows;
        arch.compute.meshX = grid->columns;
        return {};
    }
    case MacWordBits: {
        const int bits = text.toInt(&ok);
        if (!ok || bits <= 0 || bits > 4096)
            return tr("\"%1\" is not a word width: give a positive number of bits, at most 4096.").arg(text);
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
    const QString error = validate(index.row(), value.toString(), arch);
    return commitEdit(std::move(arch), error,
                      tr("Edit %1").arg(data(index.siblingAtColumn(Property)).toString()));
}

} // namespace sparsemap::ui
