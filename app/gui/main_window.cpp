#include "main_window.hpp"

#include "arch_editor/architecture_document.hpp"
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
    // The editor's architecture is offered in the exploration view and follows every edit.
    auto* doc = m_architecture->document();
    auto offer = [this, doc] {
        m_exploration->setCustomArchitecture(doc->architecture(),
                                             QString::fromStdString("edited: " + doc->architecture().name));
    };
    connect(doc, &sparsemap::ui::ArchitectureDocument::changed, this, offer);
    offer();
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
