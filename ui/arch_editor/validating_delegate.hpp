#pragma once
// Translates between a cell and its editor, nothing more: a combo box when the model offers choices
// (ChoicesRole), else a line edit carrying the model's help text. The model parses, validates and
// refuses; the delegate never judges a value.
#include <QStyledItemDelegate>

namespace sparsemap::ui {

class ValidatingDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
};

} // namespace sparsemap::ui
