#include "run_sort_proxy.hpp"

#include "run_table_model.hpp"

namespace sparsemap::ui {

RunSortProxy::RunSortProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(RunTableModel::SortRole);
}

bool RunSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    // The view reverses lessThan for a descending sort; answering the other way round for a missing
    // value keeps it at the bottom in both orders.
    const bool descending = sortOrder() == Qt::DescendingOrder;
    if (!a.isValid() || !b.isValid()) {
        if (a.isValid() == b.isValid())
            return left.row() < right.row();
        return a.isValid() != descending;
    }
    const int ta = a.typeId(), tb = b.typeId();
    if (ta == QMetaType::ULongLong && tb == QMetaType::ULongLong) // seeds: beyond a double's precision
        return a.toULongLong() < b.toULongLong();
    if (ta == QMetaType::QString || tb == QMetaType::QString)
        return QString::compare(a.toString(), b.toString(), Qt::CaseInsensitive) < 0;
    return a.toDouble() < b.toDouble();
}

} // namespace sparsemap::ui
