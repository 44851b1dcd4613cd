#include "document_toolbar.hpp"

#include <QAction>
#include <QFileDialog>
#include <QLayout>
#include <QPushButton>
#include <QToolButton>
#include <QUndoStack>
#include <utility>

namespace sparsemap::ui {

namespace {

const QString kYamlFilter = QStringLiteral("YAML (*.yaml *.yml)");

} // namespace

QPushButton* addToolBarButton(const QString& text, QWidget* bar, QLayout* row)
{
    auto* button = new QPushButton(text, bar);
    row->addWidget(button);
    return button;
}

void addFileButtons(QWidget* bar, QLayout* row, const QString& noun, std::function<QString()> currentPath,
                    std::function<void(const QString&)> open, std::function<void(const QString&)> save)
{
    QObject::connect(
        addToolBarButton(QObject::tr("Open…"), bar, row), &QPushButton::clicked, bar, [bar, noun, open] {
            const QString path =
                QFileDialog::getOpenFileName(bar, QObject::tr("Open %1").arg(noun), {}, kYamlFilter);
            if (!path.isEmpty())
                open(path);
        });
    QObject::connect(addToolBarButton(QObject::tr("Save"), bar, row), &QPushButton::clicked, bar,
                     [bar, noun, currentPath, save] {
                         QString path = currentPath();
                         if (path.isEmpty())
                             path = QFileDialog::getSaveFileName(bar, QObject::tr("Save %1").arg(noun), {},
                                                                 kYamlFilter);
                         if (!path.isEmpty())
                             save(path);
                     });
    QObject::connect(addToolBarButton(QObject::tr("Save As…"), bar, row), &QPushButton::clicked, bar,
                     [bar, noun, currentPath, save] {
                         const QString path = QFileDialog::getSaveFileName(
                             bar, QObject::tr("Save %1 as").arg(noun), currentPath(), kYamlFilter);
                         if (!path.isEmpty())
                             save(path);
                     });
}

void addUndoButtons(QWidget* panel, QWidget* bar, QLayout* row, QUndoStack* stack)
{
    for (auto [action, label] :
         {std::pair(stack->createUndoAction(bar, QObject::tr("Undo")), QObject::tr("Undo")),
          std::pair(stack->createRedoAction(bar, QObject::tr("Redo")), QObject::tr("Redo"))}) {
        auto* button = new QToolButton(bar);
        button->setText(label);
        const auto follow = [button, action] {
            button->setEnabled(action->isEnabled());
            button->setToolTip(action->text());
        };
        follow();
        QObject::connect(action, &QAction::changed, button, follow);
        QObject::connect(button, &QToolButton::clicked, action, &QAction::trigger);
        row->addWidget(button);
        panel->addAction(action);
    }
}

} // namespace sparsemap::ui
