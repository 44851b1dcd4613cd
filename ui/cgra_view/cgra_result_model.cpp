#include "cgra_result_model.hpp"

#include <QBrush>
#include <QColor>

#include <map>

namespace sparsemap::ui {

CgraResultModel::CgraResultModel(QObject* parent) : QAbstractTableModel(parent) {}

void CgraResultModel::append(const cgra::BlockMapping& mapping, int nnz, int channels, int kernels)
{
    const int row = int(m_rows.size());
    beginInsertRows({}, row, row);
    m_rows.push_back({mapping, nnz, channels, kernels});
    endInsertRows();
}

void CgraResultModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int CgraResultModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CgraResultModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CgraResultModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    // COPs and MCIDs are those of the first attempt (at II₀), not of the final II the details show.
    static const char* titles[] = {"Block",         "Variant", "C x K",       "nnz",
                                   "MII",           "II₀",     "COPs at II₀", "MCIDs at II₀",
                                   "Mapped at II₀", "II",      "Speed-up",    "Binding / failure"};
    static const char* tips[] = {
        "The sparse block",
        "Scheduler: SparseMap (AIBA + Mul-CI + RID-AT), its ablations, or the baseline",
        "Channels x kernels",
        "Nonzero weights (multiplications)",
        "Minimum II = max(ceil(|V_OP|/NM), ceil(|V_R|/M), ceil(|V_W|/N))",
        "II of the first mapping attempt",
        "Caching operations of the first attempt, at II₀ (the details below give the final II's)",
        "Multi-cycle internal dependencies of the first attempt, at II₀ (the details below give the final "
        "II's)",
        "Did the first attempt bind?",
        "Final II (Failed when no II up to II₀ + 4 binds)",
        "Dense block's MII / II",
        "Binding solver, or why the mapping failed"};
    if (section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole)
        return QString::fromUtf8(titles[section]);
    if (role == Qt::ToolTipRole)
        return QString::fromUtf8(tips[section]);
    return {};
}

QVariant CgraResultModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row& r = m_rows[std::size_t(index.row())];
    const auto& m = r.mapping;
    if (role == SortRole) {
        switch (index.column()) {
        case Nnz:
            return r.nnz;
        case Mii:
            return m.mii;
        case FirstIi:
            return m.firstIi;
        case Cops:
            return m.firstCops;
        case Mcids:
            return m.firstMcids;
        case FinalIi:
            return m.success ? QVariant(m.finalIi) : QVariant(1 << 30);
        case Speedup:
            return m.success ? m.speedup : 0.0;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::ForegroundRole && (index.column() == FinalIi || index.column() == FirstMapped)) {
        const bool ok = index.column() == FinalIi ? m.success : m.firstSuccess;
        return QBrush(ok ? QColor(0x1b, 0x7a, 0x3a) : QColor(0xb0, 0x20, 0x20));
    }
    if (role == Qt::ToolTipRole && index.column() == Note)
        return QString::fromStdString(m.success ? m.finalBinding.solver : m.failure);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Block:
        return QString::fromStdString(m.blockName);
    case Variant:
        return QString::fromStdString(cgra::variantName(m.variant));
    case Shape:
        return QString("C%1K%2").arg(r.channels).arg(r.kernels);
    case Nnz:
        return r.nnz;
    case Mii:
        return m.mii;
    case FirstIi:
        return m.scheduled ? QVariant(m.firstIi) : QVariant("—");
    case Cops:
        return m.firstCops;
    case Mcids:
        return m.firstMcids;
    case FirstMapped:
        return m.firstSuccess ? "Y" : "N";
    case FinalIi:
        return m.success ? QVariant(m.finalIi) : QVariant("Failed");
    case Speedup:
        return m.success ? QString::number(m.speedup, 'f', 2) : QString("—");
    case Note:
        return QString::fromStdString(m.success ? m.finalBinding.solver + " MIS" : m.failure);
    }
    return {};
}

QString CgraResultModel::summary() const
{
    struct Sum {
        int blocks = 0, atMii = 0, cops = 0, mcids = 0, mapped = 0;
    };
    std::map<cgra::MappingVariant, Sum> sums;
    for (const auto& r : m_rows) {
        auto& s = sums[r.mapping.variant];
        ++s.blocks;
        s.atMii += r.mapping.scheduled && r.mapping.firstIi == r.mapping.mii;
        s.cops += r.mapping.firstCops;
        s.mcids += r.mapping.firstMcids;
        s.mapped += r.mapping.success;
    }
    QStringList parts;
    for (const auto& [variant, s] : sums)
        parts << QString("%1: II₀=MII %2/%3, COPs at II₀ %4, MCIDs at II₀ %5, mapped %6")
                     .arg(QString::fromStdString(cgra::variantName(variant)))
                     .arg(s.atMii)
                     .arg(s.blocks)
                     .arg(s.cops)
                     .arg(s.mcids)
                     .arg(s.mapped);
    return parts.join("   |   ");
}

} // namespace sparsemap::ui
