#include "design_view/design_view.hpp"

#include "common/elided_label.hpp"
#include "design/loop_nest_text.hpp"
#include "design_view/breakdown_chart.hpp"
#include "design_view/design_metrics_panel.hpp"
#include "design_view/gene_meaning.hpp"
#include "design_view/genome_strip.hpp"
#include "genome/genome_codec.hpp"
#include "io/design_io.hpp"
#include "io/sparseloop/sparseloop_export.hpp"
#include "io/sparseloop/sparseloop_import.hpp"
#include "model/genome_evaluator.hpp"
#include "model/padded_workload.hpp"
#include "io/sparseloop/sparseloop_options.hpp"

#include <QDir>
#include <cmath>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

namespace sparsemap::ui {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

} // namespace

DesignView::DesignView(QWidget* parent) : QWidget(parent)
{
    m_titleLabel = new ElidedLabel;
    QFont titleFont = m_titleLabel->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_titleLabel->setFont(titleFont);
    m_titleLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_titleLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_info = new QLabel;
    m_info->setWordWrap(true);

    m_importButton = new QPushButton("Import Sparseloop…");
    m_importButton->setToolTip("Evaluate a Sparseloop / Timeloop v0.3 case folder (aggregated_input.yaml, "
                               "map.yaml, ERT.yaml) with our model");
    m_exportYamlButton = new QPushButton("Export design YAML…");
    m_exportYamlButton->setToolTip("Save the genome, its decoded mapping, formats, S/G and metrics");
    m_exportSparseloopButton = new QPushButton("Export Sparseloop…");
    m_exportSparseloopButton->setToolTip(
        "Write aggregated_input.yaml and ERT.yaml (Timeloop v0.3) for this design into a folder");
    connect(m_importButton, &QPushButton::clicked, this, &DesignView::chooseImportFolder);
    connect(m_exportYamlButton, &QPushButton::clicked, this, &DesignView::chooseExportYaml);
    connect(m_exportSparseloopButton, &QPushButton::clicked, this, &DesignView::chooseExportSparseloop);

    auto* header = new QHBoxLayout;
    auto* titles = new QVBoxLayout;
    titles->addWidget(m_titleLabel);
    titles->addWidget(m_info);
    header->addLayout(titles, 1);
    header->addWidget(m_importButton, 0, Qt::AlignTop);
    header->addWidget(m_exportYamlButton, 0, Qt::AlignTop);
    header->addWidget(m_exportSparseloopButton, 0, Qt::AlignTop);

    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();

    m_strip = new design::GenomeStrip;
    auto* stripScroll = new QScrollArea;
    m_stripScroll = stripScroll;
    stripScroll->setWidget(m_strip);
    stripScroll->setWidgetResizable(true);
    stripScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    stripScroll->setFrameShape(QFrame::NoFrame);
    // Room for the strip and a horizontal scroll bar under it (long genomes in narrow windows).
    m_strip->setMinimumHeight(m_strip->minimumSizeHint().height());
    stripScroll->setFixedHeight(m_strip->minimumSizeHint().height() +
                                std::max(stripScroll->horizontalScrollBar()->sizeHint().height(),
                                         style()->pixelMetric(QStyle::PM_ScrollBarExtent)) +
                                6);
    m_geneLine = new QLabel;
    m_geneLine->setWordWrap(true);
    m_geneLine->setTextFormat(Qt::RichText);
    connect(m_strip, &design::GenomeStrip::geneSelected, this, &DesignView::showSelectedGene);

    m_loopNest = new QPlainTextEdit;
    m_loopNest->setReadOnly(true);
    m_loopNest->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_loopNest->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_loopNest->setPlaceholderText("No design: run a search and pick a point, or import a Sparseloop case.");

    m_metrics = new design::DesignMetricsPanel;
    m_breakdown = new design::BreakdownChart;
    m_tabs = new QTabWidget;
    m_tabs->addTab(m_metrics, "Metrics");
    m_tabs->addTab(m_breakdown, "Breakdown");

    auto* nestBox = new QWidget;
    auto* nestLayout = new QVBoxLayout(nestBox);
    nestLayout->setContentsMargins(0, 0, 0, 0);
    nestLayout->addWidget(new QLabel("<b>Loop nest</b> (outer to inner; par-for = spatial)"));
    nestLayout->addWidget(m_loopNest, 1);

    auto* splitter = new QSplitter(Qt::Horizontal);
    m_splitter = splitter;
    splitter->setChildrenCollapsible(true);
    splitter->addWidget(nestBox);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    // The nest's lines run to ~60 columns: the splitter may not squeeze them below ~50.
    m_loopNest->setMinimumWidth(m_loopNest->fontMetrics().horizontalAdvance(QString(50, 'x')));

    // A detail tab marked "sparsemapWideDetail" (the hardware picture) takes the whole width while it
    // is shown: the loop nest folds, and comes back as it was with any other tab.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        const QWidget* tab = m_tabs->widget(index);
        const bool wide = tab && tab->property("sparsemapWideDetail").toBool();
        const QList<int> sizes = m_splitter->sizes();
        if (wide && sizes.value(0) > 0) {
            m_nestSizes = sizes;
            m_splitter->setSizes({0, sizes.value(0) + sizes.value(1)});
        } else if (!wide && sizes.value(0) == 0 && !m_nestSizes.isEmpty()) {
            m_splitter->setSizes(m_nestSizes);
        }
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_message);
    layout->addWidget(stripScroll);
    layout->addWidget(m_geneLine);
    layout->addWidget(splitter, 1);
    refresh();
}

DesignView::~DesignView() = default;

QString DesignView::showGenome(std::shared_ptr<const GenomeLayout> layout, const Genome& genome,
                               const QString& title, const model::ModelOptions& options)
{
    if (!layout)
        return "No genome layout given.";
    // Everything into locals first, so that a failure leaves the shown design as it was.
    model::EvaluationResult result;
    Design decoded;
    Workload workload;
    try {
        layout->validate(genome);
        model::GenomeEvaluator evaluator(*layout, options); // pads as the layout does
        result = evaluator.evaluate(genome);
        decoded = evaluator.lastDesign();
        workload = evaluator.evaluator().workload();
    } catch (const std::exception& e) {
        const QString message = "Cannot show the genome: " + qs(e.what());
        showMessage(message, true);
        return message;
    }
    showGenomeResult(std::move(layout), genome, std::move(decoded), std::move(result), std::move(workload),
                     title, options);
    return {};
}

QString DesignView::showEvaluatedGenome(std::shared_ptr<const GenomeLayout> layout, const Genome& genome,
                                        const Design& evaluated, const model::EvaluationResult& result,
                                        const QString& title, const model::ModelOptions& options)
{
    if (!layout)
        return "No genome layout given.";
    Workload workload;
    try {
        layout->validate(genome);
        workload = model::paddedWorkload(layout->workload(), layout->paddedSizes()); // as the model had it
    } catch (const std::exception& e) {
        const QString message = "Cannot show the genome: " + qs(e.what());
        showMessage(message, true);
        return message;
    }
    showGenomeResult(std::move(layout), genome, evaluated, result, std::move(workload), title, options);
    return {};
}

void DesignView::showGenomeResult(std::shared_ptr<const GenomeLayout> layout, const Genome& genome,
                                  Design design, model::EvaluationResult result, Workload workload,
                                  const QString& title, const model::ModelOptions& options)
{
    m_result = std::move(result);
    m_design = std::move(design);
    m_workload = std::move(workload);
    m_arch = layout->architecture();
    m_layout = std::move(layout);
    m_genome = genome;
    m_modelOptions = options;
    m_case.reset();
    m_title = title;
    m_hasDesign = true;
    showMessage({}, false);
    refresh();
    emit designChanged();
}

QString DesignView::showSparseloopCase(const SparseloopCase& c, const QString& title)
{
    model::EvaluationResult result;
    Design design;
    try {
        model::Evaluator evaluator(c.workload, c.architecture, model::sparseloopModelOptions(c));
        design = model::sparseloopDesign(c);
        result = evaluator.evaluate(design);
    } catch (const std::exception& e) {
        const QString message = "Cannot evaluate the Sparseloop case: " + qs(e.what());
        showMessage(message, true);
        return message;
    }
    m_result = std::move(result);
    m_design = std::move(design);
    m_workload = c.workload;
    m_arch = c.architecture;
    m_layout.reset();
    m_genome.reset();
    m_modelOptions = {};
    m_case = c;
    m_title = title;
    m_hasDesign = true;
    showMessage({}, false);
    refresh();
    emit designChanged();
    return {};
}

QString DesignView::importSparseloop(const QString& dir)
{
    SparseloopCase c;
    try {
        c = importSparseloopCase(QDir::toNativeSeparators(dir).toStdString());
    } catch (const std::exception& e) {
        const QString message = "Cannot import " + dir + ":\n" + qs(e.what());
        showMessage(message, true);
        return message;
    }
    const QString name = c.name.empty() ? QFileInfo(dir).fileName() : qs(c.name);
    const QString error = showSparseloopCase(c, "Sparseloop case " + name);
    if (error.isEmpty() && !c.notes.empty())
        showMessage(
            QString("Imported %1 (%2 on what was assumed or dropped; hover the line above).")
                .arg(dir, c.notes.size() == 1 ? QString("1 note") : QString("%1 notes").arg(c.notes.size())),
            false);
    return error;
}

QString DesignView::exportDesignYaml(const QString& path) const
{
    if (!m_hasDesign)
        return "There is no design to export.";
    if (!m_layout || !m_genome)
        return "This design (an imported Sparseloop case) has no SparseMap genome, so it has no design YAML; "
               "export it as a Sparseloop folder instead.";
    try {
        const DesignMetrics metrics{m_result.valid, m_result.reason, m_result.cycles, m_result.energyPj,
                                    m_result.edp};
        // The genome's own design: with --format-space nearest the evaluated one has its formats made
        // representable, which the genome does not say.
        saveDesignFile(*m_layout, *m_genome, decodeGenome(*m_layout, *m_genome), path.toStdString(), &metrics,
                       &m_modelOptions);
    } catch (const std::exception& e) {
        return "Cannot save " + path + ": " + qs(e.what());
    }
    return {};
}

QString DesignView::exportSparseloop(const QString& dir) const
{
    if (!m_hasDesign)
        return "There is no design to export.";
    try {
        if (m_case) {
            exportSparseloopCase(*m_case, dir.toStdString());
        } else {
            exportSparseloopCase(m_workload, m_arch, m_design, dir.toStdString());
        }
    } catch (const std::exception& e) {
        return "Cannot export to " + dir + ": " + qs(e.what());
    }
    return {};
}

QString DesignView::sparseloopExportNote(const QString& dir) const
{
    if (!m_hasDesign || m_case)
        return {};
    try {
        const SparseloopCase c = importSparseloopCase(dir.toStdString());
        model::Evaluator evaluator(c.workload, c.architecture, model::sparseloopModelOptions(c));
        const auto& r = evaluator.evaluate(model::sparseloopDesign(c));
        auto same = [](double a, double b) {
            return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
        };
        if (r.valid == m_result.valid && same(r.cycles, m_result.cycles) &&
            same(r.energyPj, m_result.energyPj))
            return {};
        const QString theirs =
            r.valid
                ? QString("%1 cycles, %2").arg(design::countText(r.cycles), design::energyText(r.energyPj))
                : "invalid (" + qs(r.reason) + ")";
        const QString ours = m_result.valid ? QString("%1 cycles, %2")
                                                  .arg(design::countText(m_result.cycles),
                                                       design::energyText(m_result.energyPj))
                                            : "invalid";
        return "Read back as Sparseloop reads it, the case gives " + theirs + "; our genome model gives " +
               ours +
               ". Sparseloop binds format ranks to loops itself, checks capacity at the worst case and "
               "applies compute S/G to every operand.";
    } catch (const std::exception& e) {
        return "The written case does not read back: " + qs(e.what());
    }
}

void DesignView::addDetailTab(QWidget* widget, const QString& title)
{
    m_tabs->addTab(widget, title);
}

void DesignView::chooseImportFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, "Import a Sparseloop case folder");
    if (!dir.isEmpty())
        importSparseloop(dir);
}

void DesignView::chooseExportYaml()
{
    if (!m_genome) {
        showMessage(exportDesignYaml({}), true);
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, "Export design YAML", QString(),
                                                      "Design YAML (*.yaml *.yml);;All files (*)");
    if (path.isEmpty())
        return;
    const QString error = exportDesignYaml(path);
    showMessage(error.isEmpty() ? "Saved the design to " + path : error, !error.isEmpty());
}

void DesignView::chooseExportSparseloop()
{
    if (!m_hasDesign) {
        showMessage(exportSparseloop({}), true);
        return;
    }
    // A save dialog, so that a new folder can be typed (it is created); an existing one is reused.
    const QString dir = QFileDialog::getSaveFileName(
        this, "Export as a Sparseloop case into folder (new or existing)", QString(), "Folder (*)", nullptr,
        QFileDialog::ShowDirsOnly | QFileDialog::DontConfirmOverwrite);
    if (dir.isEmpty())
        return;
    const QString error = exportSparseloop(dir);
    showMessage(error.isEmpty() ? "Wrote aggregated_input.yaml and ERT.yaml to " + dir : error,
                !error.isEmpty());
}

void DesignView::showMessage(const QString& text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? "color: #b00020;" : "color: #1b5e20;");
    m_message->setVisible(!text.isEmpty());
}

void DesignView::showSelectedGene(int gene)
{
    if (!m_layout || !m_genome || gene < 0) {
        m_geneLine->setText(m_genome ? "<i>Hover a gene for what it means; click one to keep it here.</i>"
                                     : QString());
        return;
    }
    m_geneLine->setText(design::geneToolTip(*m_layout, gene, (*m_genome)[std::size_t(gene)]));
}

void DesignView::refresh()
{
    m_exportYamlButton->setEnabled(m_hasDesign && m_genome.has_value());
    m_exportSparseloopButton->setEnabled(m_hasDesign);
    if (!m_hasDesign) {
        m_titleLabel->setFullText("No design");
        m_info->setText("Pick a point of a run, load a design, or import a Sparseloop case.");
        m_strip->clear();
        m_stripScroll->hide();
        m_loopNest->clear();
        m_metrics->clear();
        m_breakdown->clear("No design shown.");
        showSelectedGene(-1);
        return;
    }
    m_titleLabel->setFullText(m_title);
    QString info = QString("%1 on %2").arg(qs(m_workload.name), qs(m_arch.name));
    if (m_genome) {
        info += QString(" · genome of %1 genes").arg(m_genome->size());
        m_strip->setGenome(m_layout, *m_genome);
        m_stripScroll->show();
        m_info->setToolTip({});
    } else {
        info += " · imported Sparseloop case (no genome; evaluated as Sparseloop does: worst-case "
                "occupancy, its rank order and action types)";
        m_strip->clear();
        m_stripScroll->hide(); // nothing to show but a placeholder: give the room to the nest
        QStringList notes;
        for (const auto& n : m_case->notes)
            notes << "• " + qs(n);
        m_info->setToolTip(notes.join('\n'));
    }
    m_info->setText(info);
    showSelectedGene(-1);
    try {
        m_loopNest->setPlainText(qs(renderLoopNest(m_workload, m_arch, m_design)));
    } catch (const std::exception& e) { // a design the text cannot name: say so, keep the rest
        m_loopNest->setPlainText("The loop nest cannot be written for this design: " + qs(e.what()));
    }
    m_metrics->setResult(m_arch, m_result);
    m_breakdown->setResult(m_workload, m_arch, m_result);
}

} // namespace sparsemap::ui
