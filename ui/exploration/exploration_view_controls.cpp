// The exploration view's control strip (choosers, run settings, progress) and its setters, apart from
// the run logic in exploration_view.cpp.
#include "exploration_view.hpp"

#include "workload_editor/workload_document.hpp"

#include "io/architecture_io.hpp"
#include "search/method_registry.hpp"
#include "util/limits.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QSignalBlocker>
#include <QThread>
#include <algorithm>
#include <optional>

namespace sparsemap::ui {

namespace {

QString qstr(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

QWidget* ExplorationView::buildControls()
{
    m_workload = new QComboBox;
    for (const QString& name : WorkloadDocument::sampleNames()) // mm1, mm2, ..., conv1, conv2, ..., conv10
        m_workload->addItem(name, QFileInfo(WorkloadDocument::samplePath(name)).absoluteFilePath());
    auto* open = new QPushButton("Open...");
    connect(open, &QPushButton::clicked, this, &ExplorationView::openWorkload);
    m_preset = new QComboBox;
    for (const auto& name : presetNames())
        m_preset->addItem(qstr(name));
    // The methods in their groups (the default, the baselines, the published ES, ablations, variants),
    // each group under a heading that cannot be chosen.
    m_method = new QComboBox;
    m_method->setMaxVisibleItems(24);
    std::optional<search::MethodGroup> group;
    for (const auto& method : search::searchMethods()) {
        if (method.group != group) {
            if (group)
                m_method->insertSeparator(m_method->count());
            group = method.group;
            m_method->addItem(qstr(std::string(search::methodGroupTitle(method.group))));
            if (auto* model = qobject_cast<QStandardItemModel*>(m_method->model())) {
                QStandardItem* heading = model->item(m_method->count() - 1);
                heading->setFlags(heading->flags() & ~(Qt::ItemIsSelectable | Qt::ItemIsEnabled));
                QFont font = heading->font();
                font.setItalic(true);
                heading->setFont(font);
            }
        }
        m_method->addItem(qstr(method.name), qstr(method.name));
        m_method->setItemData(m_method->count() - 1, qstr(method.summary), Qt::ToolTipRole);
    }
    m_method->setCurrentIndex(m_method->findData(QString("sparsemap")));
    m_objective = new QComboBox;
    m_objective->addItem("EDP", int(search::Objective::Edp));
    m_objective->addItem("energy", int(search::Objective::Energy));
    m_objective->addItem("delay", int(search::Objective::Delay));
    m_budgetSpin = new QSpinBox;
    m_budgetSpin->setRange(10, int(kMaxBudget));
    m_budgetSpin->setSingleStep(1000);
    m_budgetSpin->setValue(20000);
    m_budgetSpin->setToolTip(
        "Evaluations of the model the search may spend (every candidate counts, valid or not)");
    m_seedSpin = new QSpinBox;
    m_seedSpin->setRange(0, 1'000'000'000);
    m_seedSpin->setValue(1);
    m_seedSpin->setToolTip("Seed of the search's random numbers: the same seed gives the same run");
    m_threads = new QSpinBox;
    m_threads->setRange(0, 4 * QThread::idealThreadCount());
    m_threads->setSpecialValueText("all");
    m_threads->setToolTip("Worker threads evaluating candidates (\"all\": one per core); the result does not "
                          "depend on it");
    m_run = new QPushButton("Run");
    m_cancel = new QPushButton("Cancel");
    connect(m_run, &QPushButton::clicked, this, &ExplorationView::startSearch);
    connect(m_cancel, &QPushButton::clicked, this, &ExplorationView::cancelSearch);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_followNote = new QLabel;
    m_followNote->setWordWrap(true);
    m_followNote->setStyleSheet("QLabel { color: #b35900; font-weight: bold; }");
    m_followNote->hide();
    connect(m_workload, &QComboBox::currentIndexChanged, this, &ExplorationView::updateFollowNote);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &ExplorationView::updateFollowNote);

    // Long names (methods, workload files) do not set the row's width: the lists show them whole.
    for (QComboBox* combo : {m_workload, m_preset, m_method, m_objective}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(9);
    }
    auto* box = new QWidget;
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    int column = 0;
    auto add = [&](const QString& label, QWidget* field, int row) {
        grid->addWidget(new QLabel(label), row, column);
        grid->addWidget(field, row, column + 1);
    };
    add("Workload", m_workload, 0);
    add("Architecture", m_preset, 1);
    grid->addWidget(open, 0, 2);
    column = 3;
    add("Method", m_method, 0);
    add("Objective", m_objective, 1);
    column = 5;
    add("Budget", m_budgetSpin, 0);
    add("Seed", m_seedSpin, 1);
    add("Threads", m_threads, 2); // a third row, not a fourth column: the row fits a 1024 px window
    grid->addWidget(m_run, 0, 7);
    grid->addWidget(m_cancel, 1, 7);
    grid->addWidget(m_progress, 3, 0, 1, 8);
    grid->addWidget(m_status, 4, 0, 1, 8);
    grid->addWidget(m_followNote, 5, 0, 1, 8);
    grid->setColumnStretch(1, 2);
    grid->setColumnStretch(4, 1);
    return box;
}

void ExplorationView::setWorkloadPath(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    int index = m_workload->findData(absolute);
    if (index < 0) {
        m_workload->addItem(QFileInfo(path).completeBaseName(), absolute);
        index = m_workload->count() - 1;
    }
    m_workload->setCurrentIndex(index);
}

void ExplorationView::setPreset(const QString& name)
{
    m_preset->setCurrentText(name);
}

namespace {

// Adds (or renames) the chooser's entry with data `data` and selects it when asked.
void offer(QComboBox* chooser, const QString& label, const QString& data, bool select)
{
    int index = chooser->findData(data);
    if (index < 0) {
        chooser->addItem(label, data);
        index = chooser->count() - 1;
    } else {
        chooser->setItemText(index, label);
    }
    if (select)
        chooser->setCurrentIndex(index);
}

} // namespace

void ExplorationView::setCustomArchitecture(const Architecture& arch, const QString& label, bool select)
{
    m_customArch = arch;
    offer(m_preset, label, "custom", select);
    updateFollowNote();
}

void ExplorationView::setCustomWorkload(const Workload& workload, const QString& label, bool select)
{
    m_customWorkload = workload;
    offer(m_workload, label, "custom", select);
    updateFollowNote();
}

namespace {

// Replaces a chooser's "session: NAME" entries (data "session:<index>") by `names`, keeping what was
// chosen: the same entry by its name (its index moves when an entry before it goes), else by its
// place, a preset by its text, anything else by its data.
void refillSessionEntries(QComboBox* chooser, const QStringList& names)
{
    const QString data = chooser->currentData().toString();
    const QString text = chooser->currentText();
    QSignalBlocker block(chooser);
    for (int i = chooser->count() - 1; i >= 0; --i)
        if (chooser->itemData(i).toString().startsWith("session:"))
            chooser->removeItem(i);
    for (int i = 0; i < names.size(); ++i)
        chooser->addItem("session: " + names[i], QString("session:%1").arg(i));
    int index = data.isEmpty() || data.startsWith("session:") ? chooser->findText(text) : -1;
    if (index < 0 && !data.isEmpty())
        index = chooser->findData(data);
    chooser->setCurrentIndex(index >= 0 ? index : 0);
}

} // namespace

void ExplorationView::setSessionWorkloads(const std::vector<Workload>& workloads)
{
    m_sessionWorkloads = workloads;
    QStringList names;
    for (const auto& workload : workloads)
        names << qstr(workload.name);
    refillSessionEntries(m_workload, names);
    updateFollowNote();
}

bool ExplorationView::selectSessionWorkload(int index)
{
    const int row = m_workload->findData(QString("session:%1").arg(index));
    if (row < 0)
        return false;
    m_workload->setCurrentIndex(row);
    return true;
}

void ExplorationView::setSessionArchitectures(const std::vector<Architecture>& architectures)
{
    m_sessionArchitectures = architectures;
    QStringList names;
    for (const auto& arch : architectures)
        names << qstr(arch.name);
    refillSessionEntries(m_preset, names); // a preset has no data: it is found by its text
    updateFollowNote();
}

bool ExplorationView::selectSessionArchitecture(int index)
{
    const int row = m_preset->findData(QString("session:%1").arg(index));
    if (row < 0)
        return false;
    m_preset->setCurrentIndex(row);
    return true;
}

QString ExplorationView::workloadChoice() const
{
    return m_workload->currentText();
}

QString ExplorationView::architectureChoice() const
{
    return m_preset->currentText();
}

void ExplorationView::setArchitectureNamer(std::function<std::string(const Architecture&)> namer)
{
    m_architectureNamer = std::move(namer);
}

void ExplorationView::setWorkloadNamer(std::function<std::string(const Workload&)> namer)
{
    m_workloadNamer = std::move(namer);
}

void ExplorationView::setRunIdentity(std::function<RunIdentity(const std::string&)> identity)
{
    m_runIdentity = std::move(identity);
}

QString ExplorationView::followNote() const
{
    return m_followNote->isHidden() ? QString() : m_followNote->text();
}

void ExplorationView::updateFollowNote()
{
    QStringList notes;
    const auto differs = [](QComboBox* chooser) {
        const int custom = chooser->findData("custom");
        return custom >= 0 && chooser->currentIndex() != custom ? chooser->itemText(custom) : QString();
    };
    if (const QString other = differs(m_workload); !other.isEmpty())
        notes << QString("the workload is %1, not the Workload view's (%2)")
                     .arg(m_workload->currentText(), other);
    if (const QString other = differs(m_preset); !other.isEmpty())
        notes << QString("the architecture is %1, not the Architecture view's (%2)")
                     .arg(m_preset->currentText(), other);
    m_followNote->setText(notes.isEmpty() ? QString() : "Runs here: " + notes.join("; ") + ".");
    m_followNote->setVisible(!notes.isEmpty());
}

void ExplorationView::setMethod(const QString& name)
{
    if (const int index = m_method->findData(name); index >= 0)
        m_method->setCurrentIndex(index);
}

void ExplorationView::setBudget(int budget)
{
    m_budgetSpin->setValue(budget);
}

void ExplorationView::setSeed(int seed)
{
    m_seedSpin->setValue(seed);
}

} // namespace sparsemap::ui
