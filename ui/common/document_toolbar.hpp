#pragma once
// The buttons every document editor's tool bar has (the architecture and the workload editor):
// Open / Save / Save As with their file dialogs, and Undo / Redo over the document's stack.
#include <QString>

#include <functional>

class QLayout;
class QPushButton;
class QUndoStack;
class QWidget;

namespace sparsemap::ui {

QPushButton* addToolBarButton(const QString& text, QWidget* bar, QLayout* row);

// `noun` names the document in the dialogs ("architecture"). Save writes to `currentPath()` and
// asks for a file only when there is none; `open` and `save` report their own errors.
void addFileButtons(QWidget* bar, QLayout* row, const QString& noun, std::function<QString()> currentPath,
                    std::function<void(const QString&)> open, std::function<void(const QString&)> save);

// Undo / Redo keep a short label and name the edit in their tooltips: the actions' own texts ("Undo
// Edit metadata capacity of GLB") would resize the tool bar with every edit. The actions are added
// to `panel`, and act on `stack` whatever the window's focus.
void addUndoButtons(QWidget* panel, QWidget* bar, QLayout* row, QUndoStack* stack);

} // namespace sparsemap::ui
