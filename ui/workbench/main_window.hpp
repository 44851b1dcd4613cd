#pragma once
// The workbench's main window: the project panel (dock) beside the central views (Architecture,
// Workload, Exploration, Design, Compare); File / Edit / View / Run / Help menus, a toolbar, a status
// bar; window state and recent files remembered in QSettings. It only wires the views to the
// SessionController: every view owns its own logic, and the session (runs by stable id, pins, the
// shown design) lives behind the controller.
#include "project/session_controller.hpp"

#include <QMainWindow>
#include <QStringList>

#include <memory>

class QAction;
class QLabel;
class QMenu;
class QTabWidget;
class QUndoGroup;

namespace sparsemap::ui {

class ArchitectureEditorPanel;
class ExplorationView;
class CgraView;
class CompareView;
class DesignView;
class HardwareBehaviorView;
class ProjectPanel;
class WorkloadEditorPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    ExplorationView* explorationView() const { return m_exploration; }
    ArchitectureEditorPanel* architectureEditor() const { return m_architecture; }
    WorkloadEditorPanel* workloadEditor() const { return m_workload; }
    DesignView* designView() const { return m_design; }
    HardwareBehaviorView* hardwareView() const { return m_hardware; }
    CompareView* compareView() const { return m_compare; }
    CgraView* cgraView() const { return m_cgra; }
    // Shows point `pointIndex` of a session run (by id, or by its index) in the Design view; returns
    // an error or "".
    QString showRunPoint(RunId run, std::int64_t pointIndex, bool bringToFront = true);
    QString showRunPoint(int run, std::int64_t pointIndex, bool bringToFront = true);
    // Pins the design the Design view shows, when it is a point of a session run (Run > Pin).
    void pinShownDesign();
    SessionController* session() const { return m_session; }
    ProjectStore* project() const { return m_project; }
    ProjectPanel* projectPanel() const { return m_projectPanel; }
    QTabWidget* tabs() const { return m_tabs; }

    // Help > About's text: what the workbench is and its version (the project's CMake version).
    static QString aboutText();
    // Help > Getting started (F1): what to do first, view by view.
    static QString gettingStartedText();
    // Brings a view to the front: "architecture", "workload", "exploration", "design", "compare" or "cgra";
    // returns false for other names.
    bool showView(const QString& name);
    // Each returns an empty string or the error message (also shown to the user unless quiet).
    QString openSession(const QString& path);
    QString saveSessionAs(const QString& path);
    // When set, questions (unsaved changes, stop the run?) are answered with this button instead of
    // asking: for tests and scripted screenshots.
    void setAutoAnswer(int standardButton) { m_autoAnswer = standardButton; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createViews();
    void createActions();
    void createMenus();
    void connectEditors();
    void connectViews();
    void readSettings();
    void writeSettings() const;

    // File actions.
    void newSession();
    void openSessionDialog();
    void restoreExplorationSelection(); // the Exploration choosers to the session's selection
    bool saveSession();
    bool saveSessionDialog();
    void openArchitectureDialog();
    void openWorkloadDialog();
    void openRecent(const QString& entry);
    void addRecent(const QString& kind, const QString& path);
    void updateRecentMenu();

    // Project panel.
    void openProjectItem(ProjectStore::Group group, int row);
    void addCompletedRun(const std::shared_ptr<const RunRecord>& run);
    // Shows point `index` of the exploration view's run (stored or in progress) in the Design view.
    bool showExplorationPoint(int index, bool bringToFront);

    // Asks what to do with unsaved changes; false = the user cancelled.
    bool maybeSave();
    int ask(const QString& title, const QString& text, int buttons, int defaultButton);
    void updateTitle();
    void updateUndoTarget();
    void showError(const QString& message);

    SessionController* m_session = nullptr;
    ProjectStore* m_project = nullptr; // m_session's
    ProjectPanel* m_projectPanel = nullptr;
    QTabWidget* m_tabs = nullptr;
    ArchitectureEditorPanel* m_architecture = nullptr;
    WorkloadEditorPanel* m_workload = nullptr;
    DesignView* m_design = nullptr;
    HardwareBehaviorView* m_hardware = nullptr;
    CompareView* m_compare = nullptr;
    CgraView* m_cgra = nullptr;
    ExplorationView* m_exploration = nullptr;
    QUndoGroup* m_undoGroup = nullptr;
    QLabel* m_runStatus = nullptr;
    QMenu* m_recentMenu = nullptr;
    QStringList m_recent; // "kind\tpath", most recent first
    bool m_closeAfterRun = false;
    QAction* m_pinAction = nullptr;
    int m_autoAnswer = 0;

    QAction* m_runAction = nullptr;
    QAction* m_cancelAction = nullptr;
};

} // namespace sparsemap::ui
