#pragma once
// The workbench's main window: a tab per view. Kept minimal; the views own their logic.
#include <QMainWindow>

class QTabWidget;

namespace sparsemap::ui {
class ArchitectureEditorPanel;
class ExplorationView;
} // namespace sparsemap::ui

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    sparsemap::ui::ExplorationView* explorationView() const { return m_exploration; }
    // Brings the named tab ("architecture" or "exploration") to the front; other names are ignored.
    void showView(const QString& name);

private:
    QTabWidget* m_tabs = nullptr;
    sparsemap::ui::ExplorationView* m_exploration = nullptr;
    sparsemap::ui::ArchitectureEditorPanel* m_architecture = nullptr;
};
