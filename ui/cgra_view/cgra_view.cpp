#include "cgra_view.hpp"

#include "cgra_mapping_worker.hpp"
#include "cgra_result_model.hpp"
#include "modulo_schedule_widget.hpp"

#include "cgra/block_file.hpp"
#include "cgra/paper_blocks.hpp"
#include "io/workload_io.hpp"
#include "util/error.hpp"
#include "workload_editor/workload_document.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace sparsemap::ui {

namespace {

QSpinBox* spin(int low, int high, int value, const QString& tip)
{
    auto* box = new QSpinBox;
    box->setRange(low, high);
    box->setValue(value);
    box->setToolTip(tip);
    return box;
}

const cgra::MappingVariant kVariants[] = {cgra::MappingVariant::SparseMap, cgra::MappingVariant::AibaMulCi,
                                          cgra::MappingVariant::Aiba, cgra::MappingVariant::NoTechniques,
                                          cgra::MappingVariant::Baseline};

} // namespace

CgraView::CgraView(QWidget* parent) : QWidget(parent)
{
    m_model = new CgraResultModel(this);
    m_worker = new CgraMappingWorker(this);

    auto* results = new QWidget;
    auto* resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(CgraResultModel::SortRole);
    m_table = new QTableView;
    m_table->setModel(m_proxy);
    // No sort indicator: rows stay in mapping order (block by block) until the user sorts.
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_schedule = new ModuloScheduleWidget;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_schedule);
    scroll->setWidgetResizable(false);
    scroll->setBackgroundRole(QPalette::Base);
    m_details = new QLabel;
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* lower = new QWidget;
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(m_details);
    lowerLayout->addWidget(scroll, 1);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(lower);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    resultsLayout->addWidget(m_summary);
    resultsLayout->addWidget(split, 1);

    auto* layout = new QHBoxLayout(this);
    // The controls scroll on a short window (1024x700) instead of setting the window's height.
    auto* controls = new QScrollArea;
    controls->setWidget(buildControls());
    controls->setWidgetResizable(true);
    controls->setFrameShape(QFrame::NoFrame);
    controls->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    controls->setMaximumWidth(300 + controls->verticalScrollBar()->sizeHint().width());
    controls->setMinimumWidth(controls->widget()->minimumSizeHint().width() +
                              controls->verticalScrollBar()->sizeHint().width());
    layout->addWidget(controls);
    layout->addWidget(results, 1);

    connect(m_worker, &CgraMappingWorker::mappingReady, this, &CgraView::onMappingReady);
    connect(m_worker, &CgraMappingWorker::progressed, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
    connect(m_worker, &CgraMappingWorker::finished, this, &CgraView::onFinished);
    connect(m_worker, &CgraMappingWorker::failed, this,
            [this](const QString& message) { setStatus(message, true); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    showRow(m_proxy->mapToSource(current).row());
            });
    updateBusy(false);
}

CgraView::~CgraView()
{
    // The worker (a child) cancels and waits in its destructor; nothing it still posts may reach this
    // half-destroyed view.
    m_worker->disconnect(this);
    m_worker->cancel();
}

QWidget* CgraView::buildControls()
{
    auto* panel = new QWidget;
    auto* v = new QVBoxLayout(panel);
    v->setContentsMargins(0, 0, 0, 0);

    auto* cgraBox = new QGroupBox(tr("Streaming CGRA"));
    auto* cgraForm = new QFormLayout(cgraBox);
    m_rows = spin(1, cgra::kMaxCgraSide, 4, tr("PE rows N; also the number of output buses"));
    m_cols = spin(1, cgra::kMaxCgraSide, 4, tr("PE columns M; also the number of input buses"));
    m_lrf = spin(1, 1024, 8, tr("Local register file per PE (weights and MCIDs kept on a PE)"));
    m_grf = spin(0, 1024, 8, tr("Global register file (MCIDs between PEs)"));
    m_multicast = new QCheckBox(tr("crossbar multicast"));
    m_multicast->setChecked(true);
    auto* preset = new QPushButton(tr("Paper preset: 4 × 4, LRF 8, GRF 8"));
    connect(preset, &QPushButton::clicked, this, [this] { setCgraSpec(cgra::paperCgra()); });
    cgraForm->addRow(tr("Rows N"), m_rows);
    cgraForm->addRow(tr("Columns M"), m_cols);
    cgraForm->addRow(tr("LRF"), m_lrf);
    cgraForm->addRow(tr("GRF"), m_grf);
    cgraForm->addRow(m_multicast);
    cgraForm->addRow(preset);
    v->addWidget(cgraBox);

    auto* blockBox = new QGroupBox(tr("Sparse blocks"));
    auto* blockLayout = new QVBoxLayout(blockBox);
    m_source = new QComboBox;
    m_source->addItems(
        {tr("Random C × K"), tr("Paper's seven blocks"), tr("Mask file"), tr("SpConv workload")});
    m_sourcePages = new QStackedWidget;
    // Random
    auto* randomPage = new QWidget;
    auto* randomForm = new QFormLayout(randomPage);
    randomForm->setContentsMargins(0, 0, 0, 0);
    m_channels = spin(1, cgra::kMaxBlockSide, 8, tr("Channels C"));
    m_kernels = spin(1, cgra::kMaxBlockSide, 8, tr("Kernels K"));
    m_zeroProbability = new QDoubleSpinBox;
    m_zeroProbability->setRange(0.0, 0.99);
    m_zeroProbability->setSingleStep(0.05);
    m_zeroProbability->setValue(0.4);
    m_zeroProbability->setToolTip(tr("Each weight is zero with this probability"));
    m_seed = spin(0, 1 << 30, 1, tr("Seed of the first block"));
    m_count = spin(1, 1000, 10, tr("Blocks, with seeds seed, seed + 1, ..."));
    randomForm->addRow(tr("C"), m_channels);
    randomForm->addRow(tr("K"), m_kernels);
    randomForm->addRow(tr("Zero prob."), m_zeroProbability);
    randomForm->addRow(tr("Seed"), m_seed);
    randomForm->addRow(tr("Blocks"), m_count);
    m_sourcePages->addWidget(randomPage);
    // Paper
    auto* paperLabel = new QLabel(tr("Blocks built to Table 2's features (C, K, |V_OP|, |V_R|, |V_W|, "
                                     "fan-outs > 4); the masks themselves are ours."));
    paperLabel->setWordWrap(true);
    m_sourcePages->addWidget(paperLabel);
    // Mask file
    auto* maskPage = new QWidget;
    auto* maskLayout = new QVBoxLayout(maskPage);
    maskLayout->setContentsMargins(0, 0, 0, 0);
    auto* loadMask = new QPushButton(tr("Load mask…"));
    m_maskLabel = new QLabel(tr("no mask loaded"));
    m_maskLabel->setWordWrap(true);
    connect(loadMask, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Sparse block mask"),
                                                          QString(SPARSEMAP_SAMPLES_DIR) + "/cgra",
                                                          tr("Masks (*.mask *.txt);;All files (*)"));
        if (!path.isEmpty())
            loadMaskFile(path);
    });
    maskLayout->addWidget(loadMask);
    maskLayout->addWidget(m_maskLabel);
    m_sourcePages->addWidget(maskPage);
    // SpConv
    auto* convPage = new QWidget;
    auto* convForm = new QFormLayout(convPage);
    convForm->setContentsMargins(0, 0, 0, 0);
    m_workload = new QComboBox;
    for (const QString& name : WorkloadDocument::sampleNames()) // natural order: conv2 before conv10
        if (name.startsWith("conv"))
            m_workload->addItem(name, WorkloadDocument::samplePath(name));
    m_workload->setToolTip(tr("Weights are zero with probability 1 − (the layer's weight density)"));
    m_convChannels = spin(1, cgra::kMaxBlockSide, 8, tr("Channels C (at most the layer's)"));
    m_convKernels = spin(1, cgra::kMaxBlockSide, 8, tr("Kernels K (at most the layer's)"));
    m_convSeed = spin(0, 1 << 30, 1, tr("Seed"));
    convForm->addRow(tr("Layer"), m_workload);
    convForm->addRow(tr("C"), m_convChannels);
    convForm->addRow(tr("K"), m_convKernels);
    convForm->addRow(tr("Seed"), m_convSeed);
    m_sourcePages->addWidget(convPage);
    connect(m_source, &QComboBox::currentIndexChanged, m_sourcePages, &QStackedWidget::setCurrentIndex);
    blockLayout->addWidget(m_source);
    blockLayout->addWidget(m_sourcePages);
    v->addWidget(blockBox);

    auto* variantBox = new QGroupBox(tr("Schedulers"));
    auto* variantLayout = new QVBoxLayout(variantBox);
    for (auto variant : kVariants) {
        auto* box = new QCheckBox(QString::fromStdString(cgra::variantTitle(variant)));
        box->setChecked(variant == cgra::MappingVariant::SparseMap ||
                        variant == cgra::MappingVariant::Baseline);
        variantLayout->addWidget(box);
        m_variantBoxes.push_back(box);
    }
    v->addWidget(variantBox);

    auto* buttons = new QHBoxLayout;
    m_map = new QPushButton(tr("Map"));
    m_map->setDefault(true);
    m_cancel = new QPushButton(tr("Cancel"));
    connect(m_map, &QPushButton::clicked, this, [this] { startMapping(); });
    connect(m_cancel, &QPushButton::clicked, this, &CgraView::cancel);
    buttons->addWidget(m_map);
    buttons->addWidget(m_cancel);
    v->addLayout(buttons);
    m_progress = new QProgressBar;
    m_progress->setValue(0);
    v->addWidget(m_progress);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(m_status);
    v->addStretch(1);
    return panel;
}

cgra::CgraSpec CgraView::cgraSpec() const
{
    cgra::CgraSpec spec;
    spec.rows = m_rows->value();
    spec.cols = m_cols->value();
    spec.lrfCapacity = m_lrf->value();
    spec.grfCapacity = m_grf->value();
    spec.multicast = m_multicast->isChecked();
    if (!(spec == cgra::paperCgra()))
        spec.name = QString("%1x%2").arg(spec.rows).arg(spec.cols).toStdString();
    return spec;
}

void CgraView::setCgraSpec(const cgra::CgraSpec& cgra)
{
    m_rows->setValue(cgra.rows);
    m_cols->setValue(cgra.cols);
    m_lrf->setValue(cgra.lrfCapacity);
    m_grf->setValue(cgra.grfCapacity);
    m_multicast->setChecked(cgra.multicast);
}

void CgraView::setSource(Source source)
{
    m_source->setCurrentIndex(int(source));
}

void CgraView::setRandomBlocks(int channels, int kernels, double zeroProbability, quint64 seed, int count)
{
    setSource(Source::Random);
    m_channels->setValue(channels);
    m_kernels->setValue(kernels);
    m_zeroProbability->setValue(zeroProbability);
    m_seed->setValue(int(seed));
    m_count->setValue(count);
}

bool CgraView::loadMaskFile(const QString& path)
{
    try {
        m_mask = cgra::loadBlockFile(path.toStdString());
        m_maskPath = path;
        m_maskLabel->setText(QString("%1: C%2 K%3, %4 nonzero")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(m_mask->channels)
                                 .arg(m_mask->kernels)
                                 .arg(m_mask->nnz()));
        setSource(Source::MaskFile);
        setStatus(tr("Loaded %1").arg(QFileInfo(path).fileName()), false);
        return true;
    } catch (const std::exception& e) {
        setStatus(QString::fromStdString(e.what()), true);
        return false;
    }
}

void CgraView::setVariants(const std::vector<cgra::MappingVariant>& variants)
{
    for (std::size_t i = 0; i < m_variantBoxes.size(); ++i)
        m_variantBoxes[i]->setChecked(std::find(variants.begin(), variants.end(), kVariants[i]) !=
                                      variants.end());
}

std::vector<cgra::MappingVariant> CgraView::variants() const
{
    std::vector<cgra::MappingVariant> out;
    // Baseline first, SparseMap last: the table then reads like the paper's Table 4.
    for (std::size_t i = m_variantBoxes.size(); i-- > 0;)
        if (m_variantBoxes[i]->isChecked())
            out.push_back(kVariants[i]);
    return out;
}

std::vector<cgra::SparseBlock> CgraView::blocksFromControls() const
{
    std::vector<cgra::SparseBlock> blocks;
    switch (Source(m_source->currentIndex())) {
    case Source::Random:
        for (int i = 0; i < m_count->value(); ++i)
            blocks.push_back(cgra::randomBlock(m_channels->value(), m_kernels->value(),
                                               m_zeroProbability->value(),
                                               std::uint64_t(m_seed->value() + i)));
        break;
    case Source::PaperBlocks:
        blocks = cgra::paperBlocks();
        break;
    case Source::MaskFile:
        if (!m_mask)
            throw InputError("no mask file loaded; use Load mask…");
        blocks.push_back(*m_mask);
        break;
    case Source::SpConv: {
        if (m_workload->currentIndex() < 0)
            throw InputError("no SpConv workload found under samples/workloads");
        const auto workload = loadWorkloadFile(m_workload->currentData().toString().toStdString());
        blocks.push_back(cgra::blockFromWorkload(workload, m_convChannels->value(), m_convKernels->value(),
                                                 std::uint64_t(m_convSeed->value())));
        break;
    }
    }
    return blocks;
}

bool CgraView::startMapping()
{
    if (m_worker->isRunning())
        return false;
    const auto chosen = variants();
    if (chosen.empty()) {
        setStatus(tr("Choose at least one scheduler."), true);
        return false;
    }
    try {
        m_running = blocksFromControls();
        m_runCgra = cgraSpec();
        cgra::validateCgra(m_runCgra);
    } catch (const std::exception& e) {
        setStatus(QString::fromStdString(e.what()), true);
        return false;
    }
    m_model->clear();
    m_schedule->clear();
    m_details->clear();
    m_summary->clear();
    m_progress->setRange(0, int(m_running.size() * chosen.size()));
    m_progress->setValue(0);
    setStatus(tr("Mapping %1 block(s) with %2 scheduler(s)…").arg(m_running.size()).arg(chosen.size()),
              false);
    m_worker->start(m_running, m_runCgra, chosen);
    updateBusy(true);
    return true;
}

void CgraView::cancel()
{
    m_worker->cancel();
}

bool CgraView::isBusy() const
{
    return m_worker->isRunning();
}

QString CgraView::statusText() const
{
    return m_status->text();
}

void CgraView::onMappingReady(const cgra::BlockMapping& mapping)
{
    int nnz = 0, channels = 0, kernels = 0;
    for (const auto& b : m_running)
        if (b.name == mapping.blockName) {
            nnz = b.nnz();
            channels = b.channels;
            kernels = b.kernels;
            break;
        }
    m_model->append(mapping, nnz, channels, kernels);
    if (m_model->rowCount() == 1)
        selectRow(0);
}

void CgraView::onFinished(bool cancelled)
{
    updateBusy(false);
    m_summary->setText(m_model->summary());
    setStatus(cancelled ? tr("Cancelled after %1 mapping(s).").arg(m_model->rowCount())
                        : tr("Mapped %1 (block, scheduler) pair(s).").arg(m_model->rowCount()),
              false);
    m_table->resizeColumnsToContents();
    emit mappingFinished(cancelled);
}

void CgraView::selectRow(int row)
{
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (index.isValid())
        m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
    showRow(row);
}

void CgraView::showRow(int row)
{
    if (row < 0 || row >= m_model->rowCount())
        return;
    const auto& m = m_model->mapping(row);
    if (!m.scheduled) {
        m_schedule->clear();
        m_details->setText(QString::fromStdString(m.failure));
        return;
    }
    m_schedule->setMapping(m.finalSchedule, m.finalBinding, m_runCgra);
    const auto& b = m.finalBinding;
    QString text =
        QString("<b>%1</b>, %2: final II %3 with %4 COPs, %5 MCIDs, %6 multicast copies (the table's are "
                "at II₀). Binding: %7 MIS on a "
                "conflict graph of %8 vertices and %9 edges, %10 of %11 nodes bound; GRF %12/%13, "
                "fullest LRF %14/%15.")
            .arg(QString::fromStdString(m.blockName).toHtmlEscaped(),
                 QString::fromStdString(cgra::variantTitle(m.variant)).toHtmlEscaped())
            .arg(m.finalSchedule.ii)
            .arg(m.finalSchedule.copCount())
            .arg(m.finalSchedule.mcidCount())
            .arg(m.finalSchedule.multicastCount())
            .arg(QString::fromStdString(b.solver).toHtmlEscaped())
            .arg(b.conflictVertices)
            .arg(b.conflictEdges)
            .arg(b.boundNodes)
            .arg(b.totalNodes)
            .arg(b.grfRegisters)
            .arg(m_runCgra.grfCapacity)
            .arg(b.maxLrfRegisters)
            .arg(m_runCgra.lrfCapacity);
    if (!m.success)
        text += QString(" <span style='color:#b02020'>%1</span>")
                    .arg(QString::fromStdString(m.failure).toHtmlEscaped());
    m_details->setText(text);
}

void CgraView::setStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? "color: #b02020;" : QString());
}

void CgraView::updateBusy(bool busy)
{
    m_map->setEnabled(!busy);
    m_cancel->setEnabled(busy);
}

} // namespace sparsemap::ui
