#include "design_view/design_metrics_panel.hpp"

#include "common/objective_label.hpp"

#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace sparsemap::ui::design {

namespace {

QLabel* valueLabel()
{
    auto* l = new QLabel;
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true); // a long line (the computes) wraps instead of widening the window
    return l;
}

QTableWidgetItem* cell(const QString& text, const QString& tip = {})
{
    auto* i = new QTableWidgetItem(text);
    i->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    i->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (!tip.isEmpty())
        i->setToolTip(tip);
    return i;
}

QString bandwidthText(double demand, double bandwidth)
{
    return QString::number(demand, 'g', 4) + " / " +
           (bandwidth > 0 ? QString::number(bandwidth, 'g', 4) : "∞");
}

} // namespace

DesignMetricsPanel::DesignMetricsPanel(QWidget* parent) : QWidget(parent)
{
    m_validity = valueLabel();
    m_cycles = valueLabel();
    m_energy = valueLabel();
    m_edp = valueLabel();
    m_utilization = valueLabel();
    m_computes = valueLabel();
    auto* form = new QFormLayout;
    form->addRow("Validity:", m_validity);
    form->addRow("Cycles:", m_cycles);
    form->addRow("Energy:", m_energy);
    form->addRow("EDP:", m_edp);
    form->addRow("Utilization:", m_utilization);
    form->addRow("Computes:", m_computes);

    m_levels = new QTableWidget(0, 9);
    m_levels->setHorizontalHeaderLabels({"Level", "Instances in use (average) / max / in arch",
                                         "Capacity used: words / capacity", "Metadata bits used / store",
                                         "Read words/cycle / bw", "Write words/cycle / bw", "Throttling",
                                         "Cycles", "Energy (pJ)"});
    m_levels->horizontalHeaderItem(2)->setToolTip(
        "Per instance, at the model's occupancy quantile: data words of every kept tile, plus their "
        "metadata (md) when the level has no separate metadata store");
    m_levels->horizontalHeaderItem(4)->setToolTip("Demand per instance before throttling / the level's "
                                                  "read bandwidth (∞ = unlimited)");
    m_levels->horizontalHeaderItem(6)->setToolTip("Bandwidth slowdown factor: 1 = not throttled");
    m_levels->verticalHeader()->hide();
    m_levels->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_levels->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_levels, 1);
    clear();
}

void DesignMetricsPanel::clear()
{
    m_validity->setText("no design");
    m_validity->setStyleSheet({});
    for (auto* l : {m_cycles, m_energy, m_edp, m_utilization, m_computes})
        l->setText("–");
    m_levels->setRowCount(0);
}

QString DesignMetricsPanel::summaryValue(const QString& key) const
{
    if (key == "cycles")
        return m_cycles->text();
    if (key == "energy")
        return m_energy->text();
    if (key == "edp")
        return m_edp->text();
    if (key == "utilization")
        return m_utilization->text();
    if (key == "computes")
        return m_computes->text();
    return {};
}

void DesignMetricsPanel::setResult(const Architecture& arch, const model::EvaluationResult& r)
{
    clear();
    if (!r.valid) {
        m_validity->setText("<b>invalid</b>: " + QString::fromStdString(r.reason).toHtmlEscaped());
        m_validity->setStyleSheet("color: #b00020;");
        return;
    }
    // What the figures owe to something other than Sparseloop's rules, or to an artefact of its
    // arithmetic, under the verdict (as every summary of a result says it).
    QString validity = "<b>valid</b>";
    auto note = [&](const char* what, const std::string& text) {
        if (!text.empty())
            validity += QString("<br><span style=\"color: #8a5a00;\">%1: %2</span>")
                            .arg(what, QString::fromStdString(text).toHtmlEscaped());
    };
    note("beyond Sparseloop", r.beyondSparseloop);
    note("Sparseloop artefact", r.sparseloopArtefact);
    m_validity->setText(validity);
    m_validity->setStyleSheet("color: #1b7a1b;");
    m_cycles->setText(countText(r.cycles));
    m_energy->setText(energyText(r.energyPj));
    m_edp->setText(QString::number(r.edp, 'g', 6) + " " + edpUnit());
    m_utilization->setText(percentText(r.utilization) + " % of " + countText(double(arch.compute.instances)) +
                           " MACs");
    // Every dense compute by name: the model's actual, gated and skipped ones, and the rest, which
    // never reach a MAC (skipped away at a storage level above, position skipping, or both operands
    // absent), so that the four add up to the dense count.
    const double notIssued =
        std::max(0.0, r.compute.algorithmic - r.compute.actual - r.compute.gated - r.compute.skipped);
    m_computes->setText(QString("%1 actual + %2 gated + %3 skipped + %4 not issued = %5 (dense), on %6 MACs "
                                "on average")
                            .arg(countText(r.compute.actual), countText(r.compute.gated),
                                 countText(r.compute.skipped), countText(notIssued),
                                 countText(r.compute.algorithmic), averageText(r.compute.instances)));
    m_computes->setToolTip("not issued: computes that never reach a MAC — skipped away at a storage level "
                           "above compute, removed by position skipping, or with both operands absent");
    m_levels->setRowCount(int(r.levels.size()));
    for (std::size_t s = 0; s < r.levels.size() && s < arch.levels.size(); ++s) {
        const auto& level = r.levels[s];
        const auto& spec = arch.levels[s];
        const int row = int(s);
        auto* name = new QTableWidgetItem(QString::fromStdString(level.name));
        name->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        m_levels->setItem(row, 0, name);
        m_levels->setItem(row, 1,
                          cell(averageText(level.instances) + " / " + countText(level.maxInstances) + " / " +
                               countText(double(spec.instances))));
        // What the model's capacity check adds up (LevelResult's own *Used fields are not filled):
        // every kept tile's data words and metadata bits at the occupancy quantile.
        double dataWords = 0, metadataBits = 0;
        for (const auto& t : level.tensors)
            if (t.kept) {
                dataWords += t.maxDataWords;
                metadataBits += t.maxMetadataBits;
            }
        const bool sharedMetadata = spec.metadataCapacityBits == 0;
        const double metadataWords = spec.wordBits > 0 ? std::ceil(metadataBits / spec.wordBits) : 0;
        const double used = dataWords + (sharedMetadata ? metadataWords : 0);
        // A depth-0 buffer (imported from Sparseloop) has no capacity: "0 / 0 (no capacity)", no NaN.
        const QString parts =
            sharedMetadata && metadataWords > 0
                ? QString("%1 + %2 md = ").arg(countText(dataWords), countText(metadataWords))
                : QString();
        m_levels->setItem(row, 2,
                          cell(parts + (spec.unbounded() ? countText(used) + " / unbounded"
                                                         : usedOfText(used, double(spec.capacityWords())))));
        m_levels->setItem(row, 3,
                          cell(sharedMetadata
                                   ? countText(std::ceil(metadataBits))
                                   : usedOfText(std::ceil(metadataBits), double(spec.metadataCapacityBits))));
        m_levels->setItem(row, 4, cell(bandwidthText(level.readWordsPerCycle, spec.readBandwidth)));
        m_levels->setItem(row, 5, cell(bandwidthText(level.writeWordsPerCycle, spec.writeBandwidth)));
        auto* throttling = cell(QString::number(level.throttling, 'g', 4));
        if (level.throttling < 1)
            throttling->setForeground(QColor(0xb0, 0x00, 0x20));
        m_levels->setItem(row, 6, throttling);
        m_levels->setItem(row, 7, cell(countText(level.cycles)));
        m_levels->setItem(row, 8, cell(QString::number(level.energyPj, 'g', 6)));
    }
}

} // namespace sparsemap::ui::design
