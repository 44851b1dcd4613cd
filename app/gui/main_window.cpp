#include "main_window.hpp"

#include "arch_editor/architecture_editor_panel.hpp"
#include "exploration/exploration_view.hpp"

#include <QTabWidget>

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle("SparseMap Workbench");
    m_tabs = new QTabWidget;
    m_exploration = new sparsemap::ui::ExplorationView;
    m_architecture = new sparsemap::ui::ArchitectureEditorPanel;
    m_tabs->addTab(m_architecture, "Architecture");
    m_tabs->addTab(m_exploration, "Exploration");
    m_tabs->setCurrentWidget(m_exploration);
    setCentralWidget(m_tabs);
    resize(1360, 860);
}

void MainWindow::showView(const QString& name)
{
    if (name == "architecture")
        m_tabs->setCurrentWidget(m_architecture);
    else if (name == "exploration")
        m_tabs->setCurrentWidget(m_exploration);
}
