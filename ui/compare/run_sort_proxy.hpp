#pragma once
// Sorts the compare table by RunTableModel::SortRole: numbers numerically (9e10 before 1e11), texts
// case-insensitively, and rows without a value (invalid QVariant, shown as "—") last in either order.
#include <QSortFilterProxyModel>

namespace sparsemap::ui {

class RunSortProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunSortProxy(QObject* parent = nullptr);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

} // namespace sparsemap::ui
