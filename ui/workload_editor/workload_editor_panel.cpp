#include "workload_editor_panel.hpp"

#include "common/document_toolbar.hpp"
#include "dimension_model.hpp"
#include "genome_panel.hpp"
#include "parameter_model.hpp"
#include "sample_list_model.hpp"
#include "tensor_model.hpp"
#include "workload_document.hpp"
#include "workload_text.hpp"

#include "arch_editor/validating_delegate.hpp"
#include "workload/workload_factory.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace sparsemap::ui {

namespace {

QTableView* makeView(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setItemDelegate(new ValidatingDelegate(view));
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->setVisible(false);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    return view;
}

QLabel* heading(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()), parent);
    return label;
}

constexpr WorkloadKind kKinds[] = {WorkloadKind::SpMM, WorkloadKind::SpConv, WorkloadKind::BatchedSpMM,
                                   WorkloadKind::General};

} // namespace

WorkloadEditorPanel::WorkloadEditorPanel(QWidget* parent)
    : QWidget(parent), m_doc(new WorkloadDocument(this)), m_params(new ParameterModel(m_doc, this)),
      m_dims(new DimensionModel(m_doc, this)), m_tensors(new TensorModel(m_doc, this)),
      m_samples(new SampleListModel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(makeToolBar());

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    auto* left = new QWidget(splitter);
    auto* leftColumn = new QVBoxLayout(left);
    leftColumn->setContentsMargins(0, 0, 0, 0);
    leftColumn->addWidget(heading(tr("Samples (double-click to load)"), left));
    m_sampleView = new QListView(left);
    m_sampleView->setModel(m_samples);
    m_sampleView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_sampleView->setAlternatingRowColors(true);
    m_sampleView->setWordWrap(true);
    m_sampleView->setUniformItemSizes(true);
    m_sampleView->setSpacing(2); // each sample is two lines; keep neighbours apart
    leftColumn->addWidget(m_sampleView);
    splitter->addWidget(left);
    splitter->addWidget(makeTables());
    m_genome = new GenomePanel(splitter);
    splitter->addWidget(m_genome);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 4);
    splitter->setStretchFactor(2, 4);
    splitter->setSizes({340, 560, 700}); // the sample summaries need room to be read
    layout->addWidget(splitter, 1);

    m_problems = new QLabel(this);
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #8a5a00;"));
    layout->addWidget(m_problems);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);

    connect(m_sampleView, &QListView::activated, this, [this](const QModelIndex& index) {
        openSample(index.data(SampleListModel::NameRole).toString());
    });
    const auto rejected = [this](const QString& m) { showMessage(m, true); };
    connect(m_params, &ParameterModel::rejected, this, rejected);
    connect(m_dims, &DimensionModel::rejected, this, rejected);
    connect(m_tensors, &TensorModel::rejected, this, rejected);
    connect(m_doc, &WorkloadDocument::modifiedChanged, this, &WorkloadEditorPanel::updateTitle);
    connect(m_doc, &WorkloadDocument::filePathChanged, this, &WorkloadEditorPanel::updateTitle);
    connect(m_doc, &WorkloadDocument::changed, this, [this] {
        // A rejected edit's message is about the workload before this change: it no longer applies.
        if (m_messageIsError)
            showMessage({}, false);
        updateTitle();
        updateProblems();
        rebuildLoadButtons();
        m_genome->setWorkload(m_doc->workload());
        m_tensorView->resizeColumnsToContents();
    });
    emit m_doc->changed(); // show the initial workload everywhere
}

QWidget* WorkloadEditorPanel::makeToolBar()
{
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    m_kindChooser = new QComboBox(bar);
    for (WorkloadKind kind : kKinds)
        m_kindChooser->addItem(workloadKindTitle(kind), static_cast<int>(kind));
    m_kindChooser->setToolTip(tr("The kind of workload New creates"));
    row->addWidget(m_kindChooser);
    connect(addToolBarButton(tr("New"), bar, row), &QPushButton::clicked, this,
            [this] { newWorkload(m_kindChooser->currentData().toInt()); });
    addFileButtons(
        bar, row, tr("workload"), [this] { return m_doc->filePath(); },
        [this](const QString& path) { openFile(path); }, [this](const QString& path) { saveFile(path); });
    addUndoButtons(this, bar, row, m_doc->undoStack());
    auto* makeGeneral = addToolBarButton(tr("Make general"), bar, row);
    makeGeneral->setToolTip(tr("Edit the dims and tensors one by one (the workload is then saved in the "
                               "general form)"));
    connect(makeGeneral, &QPushButton::clicked, this, [this] {
        const QString error = m_doc->convertToGeneral();
        showMessage(error.isEmpty() ? tr("The workload is now general: edit its dims and tensors directly.")
                                    : error,
                    !error.isEmpty());
    });
    row->addStretch();
    m_modifiedMarker = new QLabel(bar);
    row->addWidget(m_modifiedMarker);
    return bar;
}

QWidget* WorkloadEditorPanel::makeTables()
{
    auto* box = new QWidget(this);
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);

    column->addWidget(heading(tr("Parameters"), box));
    m_paramView = makeView(m_params, box);
    column->addWidget(m_paramView, 3);

    column->addWidget(heading(tr("Dimensions (loop order)"), box));
    m_dimView = makeView(m_dims, box);
    column->addWidget(m_dimView, 2);
    m_dimButtons = new QWidget(box);
    auto* dimRow = new QHBoxLayout(m_dimButtons);
    dimRow->setContentsMargins(0, 0, 0, 0);
    connect(addToolBarButton(tr("Add dim"), m_dimButtons, dimRow), &QPushButton::clicked, this, [this] {
        const int current = m_dimView->currentIndex().row();
        m_dims->insertRows(current >= 0 ? current + 1 : m_dims->rowCount(), 1);
    });
    connect(addToolBarButton(tr("Remove dim"), m_dimButtons, dimRow), &QPushButton::clicked, this, [this] {
        if (const int current = m_dimView->currentIndex().row(); current >= 0)
            m_dims->removeRows(current, 1);
    });
    dimRow->addStretch();
    column->addWidget(m_dimButtons);

    column->addWidget(heading(tr("Tensors and densities"), box));
    m_tensorView = makeView(m_tensors, box);
    column->addWidget(m_tensorView, 2);
    m_tensorButtons = new QWidget(box);
    auto* tensorRow = new QHBoxLayout(m_tensorButtons);
    tensorRow->setContentsMargins(0, 0, 0, 0);
    connect(addToolBarButton(tr("Add tensor"), m_tensorButtons, tensorRow), &QPushButton::clicked, this,
            [this] {
                const int current = m_tensorView->currentIndex().row();
                m_tensors->insertRows(current >= 0 ? current + 1 : m_tensors->rowCount(), 1);
            });
    connect(addToolBarButton(tr("Remove tensor"), m_tensorButtons, tensorRow), &QPushButton::clicked, this,
            [this] {
                if (const int current = m_tensorView->currentIndex().row(); current >= 0)
                    m_tensors->removeRows(current, 1);
            });
    tensorRow->addStretch();
    column->addWidget(m_tensorButtons);

    auto* loadRow = new QWidget(box);
    m_loadButtons = new QHBoxLayout(loadRow);
    m_loadButtons->setContentsMargins(0, 0, 0, 0);
    column->addWidget(loadRow);
    return box;
}

void WorkloadEditorPanel::rebuildLoadButtons()
{
    // One "Load .mtx…" per input tensor; the inputs change with the workload, so the row is rebuilt.
    while (QLayoutItem* item = m_loadButtons->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const bool general = m_doc->workload().kind == WorkloadKind::General;
    m_dimButtons->setVisible(general);
    m_tensorButtons->setVisible(general);
    auto* parent = m_loadButtons->parentWidget();
    m_loadButtons->addWidget(new QLabel(tr("Actual data:"), parent));
    for (int t : m_doc->workload().inputTensors()) {
        const QString name = QString::fromStdString(m_doc->workload().tensors[t].name);
        auto* button = new QPushButton(tr("Load .mtx for %1…").arg(name), parent);
        button->setObjectName(QStringLiteral("loadData_") + name);
        button->setToolTip(tr("Use the nonzero pattern of a Matrix Market .mtx file or a 0/1 mask as %1's "
                              "density (its shape must match %1's)")
                               .arg(name));
        connect(button, &QPushButton::clicked, this, [this, t, name] {
            const QString path = QFileDialog::getOpenFileName(
                this, tr("Actual data for %1").arg(name), {},
                tr("Matrix Market (*.mtx);;0/1 mask (*.txt *.mask);;All files (*)"));
            if (!path.isEmpty())
                loadDensityFile(t, path);
        });
        m_loadButtons->addWidget(button);
    }
    m_loadButtons->addStretch();
}

void WorkloadEditorPanel::setArchitecture(const Architecture& arch)
{
    m_genome->setArchitecture(arch);
}

bool WorkloadEditorPanel::mayDiscard()
{
    return !m_doc->isModified() || !m_confirmDiscard || m_confirmDiscard();
}

bool WorkloadEditorPanel::openFile(const QString& path)
{
    if (!mayDiscard())
        return false;
    const QString error = m_doc->loadFile(path);
    showMessage(error.isEmpty() ? tr("Opened %1.").arg(path) : error, !error.isEmpty());
    return error.isEmpty();
}

bool WorkloadEditorPanel::openSample(const QString& name)
{
    if (!mayDiscard())
        return false;
    const QString error = m_doc->loadSample(name);
    showMessage(error.isEmpty() ? tr("Loaded the sample %1.").arg(name) : error, !error.isEmpty());
    return error.isEmpty();
}

bool WorkloadEditorPanel::newWorkload(int kind)
{
    if (!mayDiscard())
        return false;
    m_doc->newWorkload(static_cast<WorkloadKind>(kind));
    showMessage(tr("New %1 workload.").arg(workloadKindTitle(static_cast<WorkloadKind>(kind))), false);
    return true;
}

bool WorkloadEditorPanel::saveFile(const QString& path)
{
    const QString error = m_doc->saveAs(path);
    showMessage(error.isEmpty() ? tr("Saved %1.").arg(path) : error, !error.isEmpty());
    return error.isEmpty();
}

bool WorkloadEditorPanel::loadDensityFile(int tensor, const QString& path)
{
    const QString error = m_doc->setActualDensity(tensor, path);
    showMessage(error.isEmpty() ? tr("Loaded actual data from %1.").arg(path) : error, !error.isEmpty());
    return error.isEmpty();
}

void WorkloadEditorPanel::showMessage(const QString& message, bool error)
{
    m_message->setText(message);
    m_message->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    m_messageIsError = error;
}

void WorkloadEditorPanel::updateProblems()
{
    // Structural edits of a general workload may leave it unfinished; say what is left to do.
    QStringList problems;
    for (const auto& p : workloadProblems(m_doc->workload()))
        problems << QString::fromStdString(p);
    m_problems->setText(problems.isEmpty()
                            ? QString()
                            : tr("To complete the workload: %1.").arg(problems.join(QStringLiteral("; "))));
    m_problems->setVisible(!problems.isEmpty());
}

void WorkloadEditorPanel::updateTitle()
{
    const QString file =
        m_doc->filePath().isEmpty() ? tr("untitled") : QFileInfo(m_doc->filePath()).fileName();
    const QString name = QString::fromStdString(m_doc->workload().name);
    m_modifiedMarker->setText(QStringLiteral("%1 (%2)%3").arg(name, file, m_doc->isModified() ? " *" : ""));
    m_modifiedMarker->setToolTip(m_doc->isModified() ? tr("Modified since the last save") : tr("Saved"));
}

} // namespace sparsemap::ui
