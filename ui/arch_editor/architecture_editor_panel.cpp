#include "architecture_editor_panel.hpp"

#include "common/document_toolbar.hpp"
#include "architecture_document.hpp"
#include "compute_model.hpp"
#include "energy_table_model.hpp"
#include "hierarchy_diagram.hpp"
#include "storage_level_model.hpp"
#include "validating_delegate.hpp"

#include "io/architecture_io.hpp"

#include <QAction>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

namespace sparsemap::ui {

namespace {

QTableView* makeView(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setItemDelegate(new ValidatingDelegate(view));
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    // Columns fit their contents (values and two-line titles), so nothing is clipped; a view too
    // narrow for them scrolls.
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->setVisible(false);
    return view;
}

} // namespace

ArchitectureEditorPanel::ArchitectureEditorPanel(QWidget* parent)
    : QWidget(parent), m_doc(new ArchitectureDocument(this)), m_levels(new StorageLevelModel(m_doc, this)),
      m_compute(new ComputeModel(m_doc, this)), m_energy(new EnergyTableModel(m_doc, this))
{
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(makeToolBar());
    m_diagram = new HierarchyDiagram(m_doc, this);
    layout->addWidget(m_diagram);

    m_levelView = makeView(m_levels, this);
    layout->addWidget(new QLabel(tr("Storage levels (outermost first)"), this));
    layout->addWidget(m_levelView, 2);
    auto* levelButtons = new QHBoxLayout;
    connect(addToolBarButton(tr("Add level"), this, levelButtons), &QPushButton::clicked, this, [this] {
        const int current = m_levelView->currentIndex().row();
        m_levels->insertRows(current >= 0 ? current + 1 : m_levels->rowCount(), 1);
    });
    connect(addToolBarButton(tr("Remove level"), this, levelButtons), &QPushButton::clicked, this, [this] {
        if (const int current = m_levelView->currentIndex().row(); current >= 0)
            m_levels->removeRows(current, 1);
    });
    levelButtons->addStretch();
    layout->addLayout(levelButtons);

    auto* lower = new QHBoxLayout;
    auto* computeView = makeView(m_compute, this);
    lower->addWidget(computeView, 1);
    auto* energyColumn = new QVBoxLayout;
    m_energyTitle = new QLabel(this);
    energyColumn->addWidget(m_energyTitle);
    auto* energyView = makeView(m_energy, this);
    energyColumn->addWidget(energyView);
    auto* energyButtons = new QHBoxLayout;
    connect(addToolBarButton(tr("Add action"), this, energyButtons), &QPushButton::clicked, this,
            [this] { m_energy->insertRows(m_energy->rowCount(), 1); });
    connect(addToolBarButton(tr("Remove action"), this, energyButtons), &QPushButton::clicked, this,
            [this, energyView] {
                if (const int current = energyView->currentIndex().row(); current >= 0)
                    m_energy->removeRows(current, 1);
            });
    energyButtons->addStretch();
    energyColumn->addLayout(energyButtons);
    lower->addLayout(energyColumn, 1);
    layout->addLayout(lower, 3); // the compute table has eight rows, the level table usually three

    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    layout->addWidget(m_message);

    // The energy table follows the selection: a level row, or the compute table for the MACs.
    connect(m_levelView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                m_energy->setComponent(current.isValid() ? current.row() : -1);
            });
    connect(computeView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { m_energy->setComponent(EnergyTableModel::kCompute); });
    connect(m_energy, &QAbstractItemModel::modelReset, this, &ArchitectureEditorPanel::updateTitle);
    for (ArchitectureTableModel* model :
         {static_cast<ArchitectureTableModel*>(m_levels), static_cast<ArchitectureTableModel*>(m_compute),
          static_cast<ArchitectureTableModel*>(m_energy)})
        connect(model, &ArchitectureTableModel::rejected, this,
                [this](const QString& m) { showMessage(m, true); });
    // A refusal explains the edit just tried; once the architecture changes it no longer applies.
    connect(m_doc, &ArchitectureDocument::changed, this, [this] {
        if (m_messageIsError)
            showMessage({}, false);
    });
    connect(m_doc, &ArchitectureDocument::modifiedChanged, this, &ArchitectureEditorPanel::updateTitle);
    connect(m_doc, &ArchitectureDocument::filePathChanged, this, &ArchitectureEditorPanel::updateTitle);
    connect(m_doc, &ArchitectureDocument::changed, this, &ArchitectureEditorPanel::updateTitle);
    updateTitle();
}

QWidget* ArchitectureEditorPanel::makeToolBar()
{
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Preset:"), bar));
    for (const std::string& name : presetNames()) {
        const QString preset = QString::fromStdString(name);
        connect(addToolBarButton(preset, bar, row), &QPushButton::clicked, this, [this, preset] {
            const QString error = m_doc->loadPreset(preset);
            showMessage(error.isEmpty() ? tr("Loaded the %1 preset.").arg(preset) : error, !error.isEmpty());
        });
    }
    row->addSpacing(12);
    addFileButtons(
        bar, row, tr("architecture"), [this] { return m_doc->filePath(); },
        [this](const QString& path) { openFile(path); }, [this](const QString& path) { saveFile(path); });
    addUndoButtons(this, bar, row, m_doc->undoStack());
    row->addStretch();
    m_modifiedMarker = new QLabel(bar);
    row->addWidget(m_modifiedMarker);
    return bar;
}

void ArchitectureEditorPanel::openFile(const QString& path)
{
    const QString error = m_doc->loadFile(path);
    showMessage(error.isEmpty() ? tr("Opened %1.").arg(path) : error, !error.isEmpty());
}

void ArchitectureEditorPanel::saveFile(const QString& path)
{
    const QString error = m_doc->saveAs(path);
    showMessage(error.isEmpty() ? tr("Saved %1.").arg(path) : error, !error.isEmpty());
}

void ArchitectureEditorPanel::showMessage(const QString& message, bool error)
{
    m_message->setText(message);
    m_messageIsError = error;
    m_message->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

void ArchitectureEditorPanel::updateTitle()
{
    // The marker is a pure function of the undo stack's clean state (and the file name).
    const QString file =
        m_doc->filePath().isEmpty() ? tr("untitled") : QFileInfo(m_doc->filePath()).fileName();
    const QString name = QString::fromStdString(m_doc->architecture().name);
    m_modifiedMarker->setText(QStringLiteral("%1 (%2)%3").arg(name, file, m_doc->isModified() ? " *" : ""));
    m_modifiedMarker->setToolTip(m_doc->isModified() ? tr("Modified since the last save") : tr("Saved"));
    m_energyTitle->setText(tr("Energy per action of %1").arg(m_energy->componentName()));
}

} // namespace sparsemap::ui
