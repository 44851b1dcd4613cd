// The exploration view's control strip (choosers, run settings, progress) and its setters, apart from
// the run logic in exploration_view.cpp.
#include "exploration_view.hpp"

#include "io/architecture_io.hpp"
#include "search/method_registry.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>

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
    const QDir samples(QStringLiteral(SPARSEMAP_SAMPLES_DIR "/workloads"));
    for (const QFileInfo& file : samples.entryInfoList({"*.yaml"}, QDir::Files, QDir::Name))
        m_workload->addItem(file.completeBaseName(), file.absoluteFilePath());
    auto* open = new QPushButton("Open...");
    connect(open, &QPushButton::clicked, this, &ExplorationView::openWorkload);
    m_preset = new QComboBox;
    for (const auto& name : presetNames())
        m_preset->addItem(qstr(name));
    m_method = new QComboBox;
    for (const auto& method : search::searchMethods()) {
        m_method->addItem(qstr(method.name));
        m_method->setItemData(m_method->count() - 1, qstr(method.summary), Qt::ToolTipRole);
    }
    m_objective = new QComboBox;
    m_objective->addItem("EDP", int(search::Objective::Edp));
    m_objective->addItem("energy", int(search::Objective::Energy));
    m_objective->addItem("delay", int(search::Objective::Delay));
    m_budgetSpin = new QSpinBox;
    m_budgetSpin->setRange(10, 10'000'000);
    m_budgetSpin->setSingleStep(1000);
    m_budgetSpin->setValue(20000);
    m_seedSpin = new QSpinBox;
    m_seedSpin->setRange(0, 1'000'000'000);
    m_seedSpin->setValue(1);
    m_threads = new QSpinBox;
    m_threads->setRange(0, 4 * QThread::idealThreadCount());
    m_threads->setSpecialValueText("all");
    m_run = new QPushButton("Run");
    m_cancel = new QPushButton("Cancel");
    connect(m_run, &QPushButton::clicked, this, &ExplorationView::startSearch);
    connect(m_cancel, &QPushButton::clicked, this, &ExplorationView::cancelSearch);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel;
    m_status->setWordWrap(true);

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
    column = 7;
    add("Threads", m_threads, 0);
    grid->addWidget(m_run, 0, 9);
    grid->addWidget(m_cancel, 1, 9);
    grid->addWidget(m_progress, 2, 0, 1, 10);
    grid->addWidget(m_status, 3, 0, 1, 10);
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

void ExplorationView::setCustomArchitecture(const Architecture& arch, const QString& label)
{
    m_customArch = arch;
    const int index = m_preset->findData("custom");
    if (index < 0)
        m_preset->addItem(label, "custom");
    else
        m_preset->setItemText(index, label);
}

void ExplorationView::setCustomWorkload(const Workload& workload, const QString& label)
{
    m_customWorkload = workload;
    const int index = m_workload->findData("custom");
    if (index < 0)
        m_workload->addItem(label, "custom");
    else
        m_workload->setItemText(index, label);
}

void ExplorationView::setMethod(const QString& name)
{
    m_method->setCurrentText(name);
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
