#include "validating_delegate.hpp"

#include "editor_support.hpp"

#include <QComboBox>
#include <QLineEdit>

namespace sparsemap::ui {

QWidget* ValidatingDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem&,
                                          const QModelIndex& index) const
{
    const QStringList choices = index.data(ChoicesRole).toStringList();
    if (!choices.isEmpty()) {
        auto* combo = new QComboBox(parent);
        combo->addItems(choices);
        return combo;
    }
    auto* edit = new QLineEdit(parent);
    edit->setPlaceholderText(index.data(HelpRole).toString());
    edit->setToolTip(index.data(HelpRole).toString());
    return edit;
}

void ValidatingDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const
{
    const QString text = index.data(Qt::EditRole).toString();
    if (auto* combo = qobject_cast<QComboBox*>(editor))
        combo->setCurrentText(text);
    else if (auto* edit = qobject_cast<QLineEdit*>(editor))
        edit->setText(text);
}

void ValidatingDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                      const QModelIndex& index) const
{
    // A refused value leaves the model unchanged; the model itself reports why (rejected signal).
    if (auto* combo = qobject_cast<QComboBox*>(editor))
        model->setData(index, combo->currentText(), Qt::EditRole);
    else if (auto* edit = qobject_cast<QLineEdit*>(editor))
        model->setData(index, edit->text(), Qt::EditRole);
}

} // namespace sparsemap::ui
