#include "genome_panel.hpp"

#include "gene_table_model.hpp"

#include "common/segment_colors.hpp"
#include "io/architecture_io.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include <exception>

namespace sparsemap::ui {

namespace {

QString powerOfTen(double log10)
{
    return QStringLiteral("10<sup>%1</sup>").arg(log10, 0, 'f', 1);
}

} // namespace

GenomePanel::GenomePanel(QWidget* parent) : QWidget(parent), m_genes(new GeneTableModel(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    m_segments = new QLabel(this);
    m_segments->setWordWrap(true);
    m_segments->setTextFormat(Qt::RichText);
    layout->addWidget(m_segments);
    m_space = new QLabel(this);
    m_space->setWordWrap(true);
    m_space->setTextFormat(Qt::RichText);
    layout->addWidget(m_space);
    m_errorLabel = new QLabel(this);
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_errorLabel);
    m_view = new QTableView(this);
    m_view->setModel(m_genes);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->setVisible(false);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    layout->addWidget(m_view, 1);

    try {
        m_arch = loadPreset("edge");
    } catch (const std::exception& e) {
        m_error = QString::fromUtf8(e.what());
    }
    rebuild();
}

const GenomeLayout* GenomePanel::layout() const
{
    return m_genes->layout();
}

void GenomePanel::setWorkload(const Workload& workload)
{
    m_workload = workload;
    rebuild();
}

void GenomePanel::setArchitecture(const Architecture& arch)
{
    m_arch = arch;
    rebuild();
}

void GenomePanel::rebuild()
{
    std::shared_ptr<const GenomeLayout> built;
    m_error.clear();
    if (!m_workload) {
        m_error = tr("No workload.");
    } else if (!m_arch) {
        m_error = tr("No architecture.");
    } else {
        try {
            built = std::make_shared<const GenomeLayout>(*m_workload, *m_arch);
        } catch (const std::exception& e) {
            m_error = tr("No genome for this workload and architecture: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    m_genes->setLayout(built);
    m_view->resizeColumnsToContents();
    m_errorLabel->setText(m_error);
    m_errorLabel->setVisible(!m_error.isEmpty());
    const QString workloadName = m_workload ? QString::fromStdString(m_workload->name) : tr("(none)");
    const QString archName = m_arch ? QString::fromStdString(m_arch->name) : tr("(none)");
    if (!built) {
        m_title->setText(tr("<b>Genome</b> of %1 on %2").arg(workloadName, archName));
        m_segments->clear();
        m_space->clear();
        emit layoutChanged();
        return;
    }
    m_title->setText(
        tr("<b>Genome</b> of %1 on %2: %3 genes").arg(workloadName, archName).arg(built->size()));
    QStringList chips;
    for (const auto& part : built->parts()) {
        chips << QStringLiteral(
                     "<span style=\"background-color:%1; color:white;\">&nbsp;%2&nbsp;%3&nbsp;</span>")
                     .arg(geneSegmentColor(*built, part.segment, part.formatSlot).name(),
                          QString::fromStdString(built->partName(part)).toHtmlEscaped())
                     .arg(part.range.size());
    }
    m_segments->setText(tr("Segments: %1").arg(chips.join(QStringLiteral(" "))));
    m_space->setText(tr("Design space: raw %1 = mapping %2 × sparse %3; encoded genomes %4")
                         .arg(powerOfTen(built->rawSpaceLog10()), powerOfTen(built->rawMappingSpaceLog10()),
                              powerOfTen(built->sparseSpaceLog10()), powerOfTen(built->encodedSpaceLog10())));
    m_space->setToolTip(tr("Raw: (D!)^L × Π size^L × 5^(5(k+1)) × (1+3k(k-1))^sites for k inputs (5^15 × "
                           "7^sites for two), every loop bound free (paper IV). "
                           "Encoded: the product of every gene's range, what the search explores."));
    emit layoutChanged();
}

} // namespace sparsemap::ui
