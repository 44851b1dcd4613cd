#include "main_window.hpp"

#include "arch_editor/architecture_document.hpp"
#include "arch_editor/architecture_editor_panel.hpp"
#include "cgra_view/cgra_view.hpp"
#include "compare/compare_view.hpp"
#include "design_view/design_view.hpp"
#include "hardware_view/hardware_behavior_view.hpp"
#include "exploration/exploration_view.hpp"
#include "common/chart_export.hpp"
#include "project/project_panel.hpp"
#include "project/session_file_progress.hpp"
#include "workload/workload_factory.hpp"
#include "workload_editor/workload_document.hpp"
#include "workload_editor/workload_editor_panel.hpp"
#include "util/background_threads.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QUndoGroup>
#include <QUndoStack>
#include <algorithm>
#include <exception>

namespace sparsemap::ui {

namespace {

constexpr int kMaxRecent = 10;
constexpr const char* kSessionFilter = "SparseMap session (*.session.yaml *.yaml);;All files (*)";
constexpr const char* kYamlFilter = "YAML (*.yaml *.yml);;All files (*)";

QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

// Whether the editor's architecture differs from what it was opened as: a preset (not from a file)
// is compared with the preset, a file's document is edited when it has unsaved changes.
bool isEdited(const ArchitectureDocument& doc)
{
    const Architecture& arch = doc.architecture();
    const auto presets = presetNames();
    if (doc.filePath().isEmpty() && std::find(presets.begin(), presets.end(), arch.name) != presets.end())
        return !(arch == loadPreset(arch.name));
    return doc.isModified();
}

// The same for a workload: a bundled sample or a new document's default is compared with it.
bool isEdited(const WorkloadDocument& doc)
{
    const Workload& workload = doc.workload();
    if (doc.filePath().isEmpty()) {
        const QString name = qstr(workload.name);
        if (WorkloadDocument::sampleNames().contains(name)) {
            try {
                return !(workload == loadWorkloadFile(WorkloadDocument::samplePath(name).toStdString()));
            } catch (const std::exception&) {
                return true;
            }
        }
        for (const auto kind :
             {WorkloadKind::SpMM, WorkloadKind::SpConv, WorkloadKind::BatchedSpMM, WorkloadKind::General})
            if (workload == WorkloadDocument::defaultWorkload(kind))
                return false;
    }
    return doc.isModified();
}

// The chooser's entry for an editor's document: "edited: NAME" only when it differs from what was
// opened, else "NAME (Architecture view)" / "NAME (Workload view)".
QString editorLabel(bool edited, const std::string& name, const char* view)
{
    return edited ? "edited: " + qstr(name) : QString("%1 (%2 view)").arg(qstr(name), view);
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    setObjectName("MainWindow");
    // Searches, session files and maps run below the GUI thread's priority: on a busy machine the
    // window keeps repainting instead of waiting behind its own workers.
    util::setWorkersInBackground(true);
    m_session = new SessionController(this);
    m_project = m_session->store();
    m_undoGroup = new QUndoGroup(this);
    createViews();
    createActions();
    createMenus();
    connectViews();
    readSettings();
    updateTitle();
    statusBar()->showMessage("New here? Help > Getting started (F1) says what to do first.", 15000);
}

MainWindow::~MainWindow() = default;

void MainWindow::createViews()
{
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_architecture = new ArchitectureEditorPanel;
    m_workload = new WorkloadEditorPanel;
    m_exploration = new ExplorationView;
    m_tabs->addTab(m_architecture, "&Architecture");
    m_tabs->addTab(m_workload, "&Workload");
    m_tabs->addTab(m_exploration, "&Exploration");
    m_design = new DesignView;
    m_hardware = new HardwareBehaviorView;
    m_design->addDetailTab(m_hardware, "Hardware behaviour");
    m_tabs->addTab(m_design, "&Design");
    m_compare = new CompareView;
    m_tabs->addTab(m_compare, "&Compare");
    // The CGRA SparseMap paper's analysis of one sparse CNN block (a different mapping problem).
    m_cgra = new CgraView;
    m_tabs->addTab(m_cgra, "C&GRA");
    setCentralWidget(m_tabs);

    m_projectPanel = new ProjectPanel(m_session);
    m_projectPanel->setMinimumWidth(170); // names stay readable, and a 1024 px window keeps its views
    auto* dock = new QDockWidget("Project");
    dock->setObjectName("ProjectDock");
    dock->setWidget(m_projectPanel);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    m_runStatus = new QLabel("Idle");
    statusBar()->addPermanentWidget(m_runStatus);
    m_undoGroup->addStack(m_architecture->document()->undoStack());
    m_undoGroup->addStack(m_workload->document()->undoStack());
}

void MainWindow::createActions()
{
    // Created with their menus in createMenus; the run actions are kept for enabling.
    m_runAction = new QAction("&Run search", this);
    m_runAction->setShortcut(QKeySequence("Ctrl+R"));
    m_runAction->setStatusTip("Start the search set up in the Exploration view");
    connect(m_runAction, &QAction::triggered, this, [this] {
        showView("exploration");
        m_exploration->startSearch();
    });
    m_cancelAction = new QAction("&Cancel search", this);
    m_cancelAction->setShortcut(QKeySequence("Ctrl+."));
    m_cancelAction->setEnabled(false);
    connect(m_cancelAction, &QAction::triggered, m_exploration, &ExplorationView::cancelSearch);
}

void MainWindow::createMenus()
{
    auto* file = menuBar()->addMenu("&File");
    auto* newAction = file->addAction("&New session", QKeySequence::New, this, &MainWindow::newSession);
    auto* openAction =
        file->addAction("&Open session...", QKeySequence::Open, this, &MainWindow::openSessionDialog);
    m_recentMenu = file->addMenu("Open &recent");
    auto* saveAction = file->addAction("&Save session", QKeySequence::Save, this, [this] { saveSession(); });
    file->addAction("Save session &as...", QKeySequence::SaveAs, this, [this] { saveSessionDialog(); });
    file->addSeparator();
    file->addAction("Open a&rchitecture...", this, &MainWindow::openArchitectureDialog);
    file->addAction("Open &workload...", this, &MainWindow::openWorkloadDialog);
    file->addSeparator();
    file->addAction("&Import Sparseloop design...", this, [this] {
        showView("design");
        m_design->chooseImportFolder();
    });
    auto* exportYaml = file->addAction("&Export design YAML...", QKeySequence("Ctrl+E"), this, [this] {
        showView("design");
        m_design->chooseExportYaml();
    });
    file->addAction("Export design as &Sparseloop files...", this, [this] {
        showView("design");
        m_design->chooseExportSparseloop();
    });
    // PNG / SVG / PDF of any chart on screen (ui/common/chart_export.hpp); also in each chart's context menu.
    auto* charts = file->addMenu("Save &chart");
    charts->setObjectName("SaveChartMenu");
    connect(charts, &QMenu::aboutToShow, this, [this, charts] { addSaveChartActions(charts, this); });
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);

    auto* edit = menuBar()->addMenu("&Edit");
    auto* undo = m_undoGroup->createUndoAction(this, "&Undo");
    undo->setShortcut(QKeySequence::Undo);
    auto* redo = m_undoGroup->createRedoAction(this, "&Redo");
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    auto* view = menuBar()->addMenu("&View");
    for (int i = 0; i < m_tabs->count(); ++i) {
        auto* action =
            view->addAction(m_tabs->tabText(i).remove('&'), this, [this, i] { m_tabs->setCurrentIndex(i); });
        action->setShortcut(QKeySequence(QString("Ctrl+%1").arg(i + 1)));
    }
    view->addSeparator();
    auto* dock = findChild<QDockWidget*>("ProjectDock");
    auto* toggleProject = dock->toggleViewAction();
    toggleProject->setShortcut(QKeySequence("Ctrl+0"));
    view->addAction(toggleProject);

    auto* run = menuBar()->addMenu("&Run");
    run->addAction(m_runAction);
    run->addAction(m_cancelAction);
    run->addSeparator();
    m_pinAction =
        run->addAction("&Pin shown design", QKeySequence("Ctrl+P"), this, &MainWindow::pinShownDesign);
    m_pinAction->setStatusTip("Keep the design shown in the Design view for the Compare view");
    m_pinAction->setEnabled(false);

    auto* help = menuBar()->addMenu("&Help");
    auto* start = help->addAction("&Getting started", QKeySequence::HelpContents, this, [this] {
        QMessageBox box(QMessageBox::Information, "Getting started", gettingStartedText(), QMessageBox::Ok,
                        this);
        box.setTextFormat(Qt::RichText);
        box.exec();
    });
    start->setObjectName("GettingStartedAction");
    help->addSeparator();
    help->addAction("&About", this,
                    [this] { QMessageBox::about(this, "About SparseMap Workbench", aboutText()); });

    auto* toolbar = addToolBar("Main");
    toolbar->setObjectName("MainToolBar");
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolbar->addAction(newAction);
    toolbar->addAction(openAction);
    toolbar->addAction(saveAction);
    toolbar->addSeparator();
    toolbar->addAction(undo);
    toolbar->addAction(redo);
    toolbar->addSeparator();
    toolbar->addAction(m_runAction);
    toolbar->addAction(m_cancelAction);
    toolbar->addSeparator();
    toolbar->addAction(m_pinAction);
    toolbar->addAction(exportYaml);
    updateRecentMenu();
}

QString MainWindow::aboutText()
{
    return QString(
               "<b>SparseMap Workbench %1</b><br><br>"
               "Co-designs the mapping and the sparse strategy of sparse tensor accelerators: an "
               "evolution strategy over a genome of both, scored by a Sparseloop-style analytical model.<br>"
               "Built with Qt %2.")
        .arg(SPARSEMAP_VERSION, QT_VERSION_STR);
}

QString MainWindow::gettingStartedText()
{
    return "<b>Getting started</b><ol>"
           "<li><b>Architecture</b> (Ctrl+1): pick a preset (edge, mobile, cloud) or edit its levels; an "
           "edited "
           "preset gets a name of its own, such as \"mobile (2)\".</li>"
           "<li><b>Workload</b> (Ctrl+2): pick a sample (mm1..mm15, conv1..conv13), open a file or edit the "
           "sizes and densities.</li>"
           "<li><b>Exploration</b> (Ctrl+3): it searches what the two editors show. Choose a method and a "
           "budget and press <b>Run</b> (Ctrl+R); watch it converge, click a dot to see that design.</li>"
           "<li><b>Design</b> (Ctrl+4): the best design's loop nest, metrics and hardware behaviour; "
           "Run &gt; Pin (Ctrl+P) keeps it, File &gt; Export design YAML (Ctrl+E) saves it (the file "
           "alone evaluates again: <tt>sparsemap evaluate DESIGN.yaml</tt>).</li>"
           "<li><b>Compare</b> (Ctrl+5): runs and pinned designs side by side.</li></ol>"
           "The Project panel lists the session's architectures, workloads, runs and pins: double-click one "
           "to open it in its view. File &gt; Save session keeps everything, with what Exploration searched "
           "last; opening the session brings it back.";
}

void MainWindow::connectEditors()
{
    // The architecture being edited is a session entry, kept up to date on every edit, and is offered
    // in the exploration view.
    auto* doc = m_architecture->document();
    auto mirror = [this, doc](bool reloaded) {
        const Architecture arch = m_session->mirrorEditedArchitecture(doc->architecture(), reloaded);
        m_exploration->setCustomArchitecture(arch, editorLabel(isEdited(*doc), arch.name, "Architecture"),
                                             true);
    };
    m_exploration->setArchitectureNamer(
        [this](const Architecture& arch) { return distinctArchitectureName(m_project->session(), arch); });
    m_exploration->setWorkloadNamer(
        [this](const Workload& workload) { return distinctWorkloadName(m_project->session(), workload); });
    // A run is named and coloured as the session will keep it from its first generation on.
    m_exploration->setRunIdentity([this](const std::string& label) {
        return RunIdentity{uniqueRunName(m_project->session(), label),
                           distinctRunColor(m_project->session())};
    });
    connect(doc, &ArchitectureDocument::reset, this, [mirror] { mirror(true); });
    connect(doc, &ArchitectureDocument::changed, this, [mirror] { mirror(false); });
    connect(doc, &ArchitectureDocument::filePathChanged, this, [this](const QString& path) {
        if (!path.isEmpty())
            addRecent("architecture", path);
    });
    // The same for the workload editor; it also shows the genome of its workload on that architecture.
    auto* workloadDoc = m_workload->document();
    auto mirrorWorkload = [this, workloadDoc](bool reloaded) {
        if (!workloadProblems(workloadDoc->workload()).empty())
            return; // half-edited (a general workload being built): not searchable yet
        const Workload workload = m_session->mirrorEditedWorkload(workloadDoc->workload(), reloaded);
        m_exploration->setCustomWorkload(
            workload, editorLabel(isEdited(*workloadDoc), workload.name, "Workload"), true);
    };
    connect(workloadDoc, &WorkloadDocument::reset, this, [mirrorWorkload] { mirrorWorkload(true); });
    connect(workloadDoc, &WorkloadDocument::changed, this, [mirrorWorkload] { mirrorWorkload(false); });
    connect(workloadDoc, &WorkloadDocument::filePathChanged, this, [this](const QString& path) {
        if (!path.isEmpty())
            addRecent("workload", path);
    });
    connect(doc, &ArchitectureDocument::changed, this,
            [this, doc] { m_workload->setArchitecture(doc->architecture()); });
    m_workload->setArchitecture(doc->architecture());
    m_workload->setConfirmDiscard([this, workloadDoc] {
        // Without a file the workload lives in the session already; edits to a file would be lost.
        return workloadDoc->filePath().isEmpty() ||
               ask("Discard changes", "The workload has unsaved changes to its file. Discard them?",
                   QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel) == QMessageBox::Discard;
    });

    mirror(true);
    mirrorWorkload(true);
    m_project->markClean(); // the start-up preset and workload are not the user's work yet

    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateUndoTarget);
    updateUndoTarget();
}

void MainWindow::connectViews()
{
    connectEditors();

    // Exploration: its finished runs join the session; a clicked design opens in the Design view.
    connect(m_exploration, &ExplorationView::runCompleted, this, &MainWindow::addCompletedRun);
    connect(m_exploration, &ExplorationView::searchStarted, this, [this](const QString& label) {
        m_cancelAction->setEnabled(true);
        m_runAction->setEnabled(false);
        m_runStatus->setText("Running " + label);
        m_session->setExplorationRun(RunId::None);
    });
    connect(m_exploration, &ExplorationView::searchFinished, this, [this] {
        m_cancelAction->setEnabled(false);
        m_runAction->setEnabled(true);
        m_runStatus->setText("Idle");
        if (m_closeAfterRun)
            close();
    });
    connect(m_exploration, &ExplorationView::pointActivated, this, [this](int index) {
        if (showExplorationPoint(index, false))
            statusBar()->showMessage(QString("Design #%1 is in the Design view (Ctrl+4)").arg(index), 4000);
    });
    connect(m_exploration, &ExplorationView::designOpenRequested, this,
            [this](int index) { showExplorationPoint(index, true); });
    connect(m_session, &SessionController::workloadsChanged, m_exploration,
            [this] { m_exploration->setSessionWorkloads(m_project->session().workloads); });
    m_exploration->setSessionWorkloads(m_project->session().workloads);
    connect(m_session, &SessionController::architecturesChanged, m_exploration,
            [this] { m_exploration->setSessionArchitectures(m_project->session().architectures); });
    m_exploration->setSessionArchitectures(m_project->session().architectures);

    // Design: the hardware view draws its design; Run > Pin acts on it while it is a session run's.
    connect(m_design, &DesignView::designChanged, this, [this] {
        if (m_design->hasDesign())
            m_hardware->setDesign(m_design->workload(), m_design->architecture(), m_design->design(),
                                  m_design->result());
        else
            m_hardware->clear();
    });
    connect(m_session, &SessionController::shownDesignChanged, m_pinAction,
            [this](RunId run) { m_pinAction->setEnabled(run != RunId::None); });
    connect(m_session, &SessionController::designRequested, this,
            [this](RunId run, qint64 point, bool bringToFront) { showRunPoint(run, point, bringToFront); });

    // Compare: the session's runs and pins; a double-clicked row asks for its design.
    auto showSession = [this] { m_compare->setSession(m_project->session()); };
    connect(m_session, &SessionController::runsChanged, m_compare, showSession);
    connect(m_session, &SessionController::pinsChanged, m_compare, showSession);
    connect(m_compare, &CompareView::designRequested, m_session,
            [this](int run, std::int64_t point) { m_session->requestDesign(m_session->runId(run), point); });

    // The project panel.
    connect(m_projectPanel, &ProjectPanel::compareRequested, this, [this] { showView("compare"); });
    connect(m_projectPanel, &ProjectPanel::activated, this, &MainWindow::openProjectItem);
    connect(m_projectPanel, &ProjectPanel::problem, this, &MainWindow::showError);
    connect(m_project, &ProjectStore::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_project, &ProjectStore::filePathChanged, this, &MainWindow::updateTitle);
}

void MainWindow::addCompletedRun(const std::shared_ptr<const RunRecord>& run)
{
    if (m_project->isBusy()) { // a session file is being written or read: add the run after it
        connect(
            m_project, &ProjectStore::fileFinished, this,
            [this, run] { emit m_exploration->runCompleted(run); }, Qt::SingleShotConnection);
        return;
    }
    const RunId id = m_session->addRun(*run);
    m_exploration->runStored(*m_session->run(id));
    m_session->setExplorationRun(id);
    if (run->result.bestIndex >= 0 && !m_closeAfterRun)
        showRunPoint(id, run->result.bestIndex, false);
    statusBar()->showMessage(QString("Run \"%1\" added to the session").arg(qstr(m_session->run(id)->name)),
                             5000);
}

bool MainWindow::showView(const QString& name)
{
    // By the view itself, not by its tab's text.
    const std::pair<const char*, QWidget*> views[] = {
        {"architecture", m_architecture}, {"workload", m_workload},
        {"exploration", m_exploration},   {"design", m_design},
        {"compare", m_compare},           {"cgra", m_cgra}};
    for (const auto& [key, view] : views)
        if (name.compare(QLatin1String(key), Qt::CaseInsensitive) == 0) {
            m_tabs->setCurrentWidget(view);
            return true;
        }
    return false;
}

void MainWindow::updateUndoTarget()
{
    // Undo / Redo act on the document of the view in front.
    QWidget* current = m_tabs->currentWidget();
    if (current == m_architecture)
        m_undoGroup->setActiveStack(m_architecture->document()->undoStack());
    else if (current == m_workload)
        m_undoGroup->setActiveStack(m_workload->document()->undoStack());
    else
        m_undoGroup->setActiveStack(nullptr);
}

void MainWindow::updateTitle()
{
    const QString path = m_project->filePath();
    const QString name = path.isEmpty() ? QString("untitled session") : QFileInfo(path).fileName();
    setWindowTitle(QString("%1%2 - SparseMap Workbench").arg(name, m_project->isModified() ? " *" : ""));
}

void MainWindow::showError(const QString& message)
{
    statusBar()->showMessage(message, 10000);
    if (!m_autoAnswer)
        QMessageBox::warning(this, "SparseMap Workbench", message);
}

int MainWindow::ask(const QString& title, const QString& text, int buttons, int defaultButton)
{
    if (m_autoAnswer)
        return m_autoAnswer;
    return QMessageBox::question(this, title, text, QMessageBox::StandardButtons(buttons),
                                 QMessageBox::StandardButton(defaultButton));
}

// ---- sessions and files -------------------------------------------------------------------------

void MainWindow::newSession()
{
    if (!maybeSave())
        return;
    m_project->clear(); // the editors' entries go with it
    // The views keep what they show; it joins the new session when it is edited again.
}

QString MainWindow::openSession(const QString& path)
{
    const QString error = runSessionFileOperation(m_project, this, SessionFileOperation::Load, path);
    if (error == "cancelled") {
        statusBar()->showMessage("Opening " + path + " cancelled", 5000);
        return error;
    }
    if (!error.isEmpty()) {
        showError(error);
        return error;
    }
    addRecent("session", path);
    statusBar()->showMessage("Opened " + path, 5000);
    // The last run, if any, is what the architect was looking at.
    const int runs = m_project->count(ProjectStore::Group::Runs);
    if (runs > 0)
        openProjectItem(ProjectStore::Group::Runs, runs - 1);
    restoreExplorationSelection();
    return {};
}

void MainWindow::restoreExplorationSelection()
{
    // The session's workload and architecture last searched: the next Run searches them again.
    const Session& session = m_project->session();
    const auto indexOf = [](const auto& items, const std::string& name) {
        for (std::size_t i = 0; i < items.size(); ++i)
            if (items[i].name == name)
                return int(i);
        return -1;
    };
    if (const int w = indexOf(session.workloads, session.selection.workload); w >= 0)
        m_exploration->selectSessionWorkload(w);
    if (const int a = indexOf(session.architectures, session.selection.architecture); a >= 0)
        m_exploration->selectSessionArchitecture(a);
}

void MainWindow::openSessionDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(this, "Open session", QString(), kSessionFilter);
    if (!path.isEmpty())
        openSession(path);
}

QString MainWindow::saveSessionAs(const QString& path)
{
    const QString error = runSessionFileOperation(m_project, this, SessionFileOperation::Save, path);
    if (error == "cancelled") {
        statusBar()->showMessage("Saving cancelled; " + path + " is as it was", 5000);
        return error;
    }
    if (!error.isEmpty()) {
        showError(error);
        return error;
    }
    addRecent("session", path);
    statusBar()->showMessage("Saved " + path, 5000);
    return {};
}

bool MainWindow::saveSession()
{
    if (m_project->filePath().isEmpty())
        return saveSessionDialog();
    return saveSessionAs(m_project->filePath()).isEmpty();
}

bool MainWindow::saveSessionDialog()
{
    QString path = QFileDialog::getSaveFileName(this, "Save session", m_project->filePath(), kSessionFilter);
    if (path.isEmpty())
        return false;
    if (!path.endsWith(".yaml") && !path.endsWith(".yml"))
        path += ".session.yaml";
    return saveSessionAs(path).isEmpty();
}

void MainWindow::openArchitectureDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open architecture", QString(), kYamlFilter);
    if (path.isEmpty())
        return;
    showView("architecture");
    m_architecture->openFile(path); // errors show in the editor's message line
}

void MainWindow::openWorkloadDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open workload", QString(), kYamlFilter);
    if (path.isEmpty())
        return;
    showView("workload");
    m_workload->openFile(path); // errors show in the editor's message line
}

void MainWindow::addRecent(const QString& kind, const QString& path)
{
    const QString entry = kind + '\t' + QFileInfo(path).absoluteFilePath();
    m_recent.removeAll(entry);
    m_recent.prepend(entry);
    while (m_recent.size() > kMaxRecent)
        m_recent.removeLast();
    updateRecentMenu();
    writeSettings();
}

void MainWindow::updateRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    for (const QString& entry : m_recent) {
        const QStringList parts = entry.split('\t');
        if (parts.size() != 2)
            continue;
        m_recentMenu
            ->addAction(QString("%1  (%2)").arg(QFileInfo(parts[1]).fileName(), parts[0]), this,
                        [this, entry] { openRecent(entry); })
            ->setToolTip(parts[1]);
    }
    m_recentMenu->setEnabled(!m_recent.isEmpty());
}

void MainWindow::openRecent(const QString& entry)
{
    const QStringList parts = entry.split('\t');
    if (parts.size() != 2)
        return;
    const QString& kind = parts[0];
    const QString& path = parts[1];
    if (!QFileInfo::exists(path)) {
        showError(QString("%1 no longer exists; removed from the recent files.").arg(path));
        m_recent.removeAll(entry);
        updateRecentMenu();
        return;
    }
    if (kind == "session") {
        if (maybeSave())
            openSession(path);
    } else if (kind == "architecture") {
        showView("architecture");
        m_architecture->openFile(path);
    } else if (kind == "workload") {
        showView("workload");
        m_workload->openFile(path);
    }
}

// ---- project panel --------------------------------------------------------------------------------

void MainWindow::openProjectItem(ProjectStore::Group group, int row)
{
    const Session& session = m_project->session();
    switch (group) {
    case ProjectStore::Group::Architectures: {
        const QString error = m_architecture->document()->loadArchitecture(session.architectures[row]);
        if (!error.isEmpty())
            return showError(error);
        m_session->setEditedArchitecture(row);
        showView("architecture");
        break;
    }
    case ProjectStore::Group::Workloads: {
        // Like an architecture, in its editor (which the Exploration view then follows).
        const QString error = m_workload->document()->loadWorkload(session.workloads[row]);
        if (!error.isEmpty())
            return showError(error);
        m_session->setEditedWorkload(row);
        showView("workload");
        break;
    }
    case ProjectStore::Group::Runs:
        if (m_exploration->isRunning())
            return showError("A search is running; open the run when it has finished.");
        m_exploration->showRun(session.runs[row]);
        m_session->setExplorationRun(m_session->runId(row));
        if (session.runs[row].result.bestIndex >= 0)
            showRunPoint(m_session->runId(row), session.runs[row].result.bestIndex, false);
        showView("exploration");
        break;
    case ProjectStore::Group::Pinned: {
        const QString error = showRunPoint(m_project->pinnedRun(row), session.pinned[row].pointIndex);
        if (!error.isEmpty())
            showError(error);
        break;
    }
    }
}

bool MainWindow::showExplorationPoint(int index, bool bringToFront)
{
    if (m_exploration->isRunning() || m_session->explorationRun() == RunId::None) {
        // A point of the run in progress: not in the session yet, shown from the view's own log.
        const auto& points = m_exploration->points();
        if (!m_exploration->layout() || index < 0 || index >= int(points.size()) ||
            points[index].genome.empty())
            return false;
        if (!m_design
                 ->showGenome(m_exploration->layout(), points[index].genome,
                              QString("design #%1 of the running search").arg(index))
                 .isEmpty())
            return false;
        m_session->setShownDesign(RunId::None, -1);
        if (bringToFront)
            showView("design");
        return true;
    }
    const QString error = showRunPoint(m_session->explorationRun(), index, bringToFront);
    if (!error.isEmpty())
        statusBar()->showMessage(error, 5000);
    return error.isEmpty();
}

QString MainWindow::showRunPoint(int run, std::int64_t pointIndex, bool bringToFront)
{
    return showRunPoint(m_session->runId(run), pointIndex, bringToFront);
}

QString MainWindow::showRunPoint(RunId run, std::int64_t pointIndex, bool bringToFront)
{
    const RunRecord* found = m_session->run(run);
    if (!found || pointIndex < 0 || pointIndex >= std::int64_t(found->result.points.size()))
        return "No such design in the session.";
    const RunRecord& record = *found;
    const auto& point = record.result.points[std::size_t(pointIndex)];
    if (point.genome.empty())
        return "This method's designs have no SparseMap genome to show.";
    QString error;
    try {
        auto layout =
            std::make_shared<const GenomeLayout>(record.workload, record.architecture, record.genomeOptions);
        const QString title = QString("%1, design #%2").arg(qstr(record.name)).arg(pointIndex);
        // A run's best, fresh from its search, comes with its design and result (not evaluated again).
        const auto& best = record.result.bestDesign;
        error = pointIndex == record.result.bestIndex && best
                    ? m_design->showEvaluatedGenome(layout, point.genome, best->evaluated, best->evaluation,
                                                    title, record.modelOptions)
                    : m_design->showGenome(layout, point.genome, title, record.modelOptions);
    } catch (const std::exception& e) {
        error = qstr(e.what());
    }
    if (!error.isEmpty())
        return error;
    m_session->setShownDesign(run, pointIndex);
    if (bringToFront)
        showView("design");
    return {};
}

void MainWindow::pinShownDesign()
{
    const int pin = m_session->pinShownDesign();
    if (pin >= 0)
        statusBar()->showMessage(QString("Pinned \"%1\"").arg(qstr(m_project->session().pinned[pin].name)),
                                 4000);
}

// ---- closing --------------------------------------------------------------------------------------

bool MainWindow::maybeSave()
{
    QStringList unsaved;
    if (m_project->isModified())
        unsaved << "the session";
    auto* arch = m_architecture->document();
    if (arch->isModified() && !arch->filePath().isEmpty())
        unsaved << "the architecture file " + QFileInfo(arch->filePath()).fileName();
    auto* workload = m_workload->document();
    if (workload->isModified() && !workload->filePath().isEmpty())
        unsaved << "the workload file " + QFileInfo(workload->filePath()).fileName();
    if (unsaved.isEmpty())
        return true;
    const int answer = ask("Unsaved changes",
                           QString("There are unsaved changes to %1. Save them?").arg(unsaved.join(" and ")),
                           QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Discard)
        return true;
    if (arch->isModified() && !arch->filePath().isEmpty()) {
        const QString error = arch->save();
        if (!error.isEmpty()) {
            showError(error);
            return false;
        }
    }
    if (workload->isModified() && !workload->filePath().isEmpty()) {
        const QString error = workload->save();
        if (!error.isEmpty()) {
            showError(error);
            return false;
        }
    }
    return !m_project->isModified() || saveSession();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_exploration->isRunning()) {
        const int answer = ask("Search running",
                               "A search is running. Stop it and quit? What it found so far is kept in the "
                               "session.",
                               QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (answer != QMessageBox::Yes) {
            event->ignore();
            return;
        }
        // Stop, let the run land in the session, then close again (searchFinished calls close()).
        m_closeAfterRun = true;
        m_exploration->stopForClose();
        m_runStatus->setText("Stopping the search...");
        event->ignore();
        return;
    }
    m_closeAfterRun = false;
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    writeSettings();
    event->accept();
}

void MainWindow::readSettings()
{
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    if (!settings.contains("window/geometry"))
        resize(1400, 880);
    if (!restoreState(settings.value("window/state").toByteArray())) {
        // First start: room for the entries' summaries (docks take their size once shown).
        QTimer::singleShot(0, this, [this] {
            resizeDocks({findChild<QDockWidget*>("ProjectDock")}, {290}, Qt::Horizontal);
        });
    }
    m_tabs->setCurrentIndex(settings.value("window/tab", m_tabs->indexOf(m_exploration)).toInt());
    m_recent = settings.value("recentFiles").toStringList();
    updateRecentMenu();
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    settings.setValue("window/tab", m_tabs->currentIndex());
    settings.setValue("recentFiles", m_recent);
}

} // namespace sparsemap::ui
