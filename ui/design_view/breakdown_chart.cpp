#include "design_view/breakdown_chart.hpp"
#include "common/chart_export.hpp"

#include "design_view/design_metrics_panel.hpp"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QButtonGroup>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRadioButton>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QTableWidget>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>

namespace sparsemap::ui::design {

namespace {

QString split(const model::ActionSplit& s)
{
    return countText(s.actual) + " / " + countText(s.gated) + " / " + countText(s.skipped);
}

QTableWidgetItem* item(const QString& text, bool numeric = true)
{
    auto* i = new QTableWidgetItem(text);
    i->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (numeric)
        i->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return i;
}

} // namespace

BreakdownChart::BreakdownChart(QWidget* parent) : QWidget(parent)
{
    auto* modeRow = new QHBoxLayout;
    modeRow->addWidget(new QLabel("Show:"));
    m_modeButtons = new QButtonGroup(this);
    auto* energy = new QRadioButton("Energy (pJ)");
    auto* accesses = new QRadioButton("Accesses (actual / gated / skipped)");
    energy->setToolTip("Energy per storage level and tensor, and of the compute, over all instances");
    accesses->setToolTip("Data reads + fills + updates over all instances of a level; gated accesses take "
                         "a cycle at little energy, skipped ones do not happen");
    m_modeButtons->addButton(energy, int(BreakdownMode::Energy));
    m_modeButtons->addButton(accesses, int(BreakdownMode::Accesses));
    energy->setChecked(true);
    modeRow->addWidget(energy);
    modeRow->addWidget(accesses);
    modeRow->addStretch();
    connect(m_modeButtons, &QButtonGroup::idClicked, this, [this](int id) { setMode(BreakdownMode(id)); });

    m_view = new QChartView(new QChart);
    enableChartSaving(m_view, "Breakdown", "breakdown");
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(220);
    m_view->chart()->legend()->setAlignment(Qt::AlignRight);
    m_view->chart()->setMargins(QMargins(4, 4, 4, 4));

    m_table = new QTableWidget(0, 9);
    m_table->setHorizontalHeaderLabels({"Level", "Tensor", "Instances", "Reads a/g/s", "Fills a/g/s",
                                        "Updates a/g/s", "Metadata bits a/g/s", "Data accesses, all inst.",
                                        "Energy (pJ)"});
    m_table->horizontalHeaderItem(2)->setToolTip(
        "Instances holding a tile of the tensor: the model's average over the tiles (a sparse tile may be "
        "empty, and its instance idle) of the instances the mapping uses");
    for (int c = 3; c <= 6; ++c)
        m_table->horizontalHeaderItem(c)->setToolTip("Per instance: actual / gated / skipped");
    m_table->horizontalHeaderItem(7)->setToolTip(
        "Reads + fills + updates of all kinds times the instances: what the Accesses chart stacks");
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    m_message = new QLabel;
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_view);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(modeRow);
    layout->addWidget(m_message);
    layout->addWidget(splitter, 1);
    clear("No design shown.");
}

void BreakdownChart::setResult(const Workload& workload, const Architecture& arch,
                               const model::EvaluationResult& result)
{
    if (!result.valid) {
        clear("Invalid design: " + QString::fromStdString(result.reason) + "\nThe model gives no breakdown.");
        return;
    }
    m_workload = workload;
    m_arch = arch;
    m_result = result;
    m_hasResult = true;
    m_message->hide();
    rebuild();
    fillTable();
}

void BreakdownChart::clear(const QString& message)
{
    m_hasResult = false;
    m_data = {};
    m_message->setText(message);
    m_message->show();
    rebuild();
    m_table->setRowCount(0);
}

void BreakdownChart::setMode(BreakdownMode mode)
{
    m_mode = mode;
    if (auto* button = m_modeButtons->button(int(mode)))
        button->setChecked(true);
    rebuild();
}

void BreakdownChart::rebuild()
{
    QChart* chart = m_view->chart();
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    if (!m_hasResult) {
        m_data = {};
        chart->setTitle({});
        return;
    }
    m_data = breakdownData(m_workload, m_arch, m_result, m_mode);
    double top = 0;
    for (int c = 0; c < m_data.categories.size(); ++c)
        top = std::max(top, m_data.categoryTotal(c));
    // Whole thousands, millions, ... on the axis instead of "3e+07": values up to 1e4 as they are,
    // larger ones in a unit 1e3^k times larger (pJ -> nJ -> µJ -> mJ -> J; thousands of accesses, ...).
    static const char* const energyUnits[] = {"pJ", "nJ", "µJ", "mJ", "J"};
    static const char* const countUnits[] = {"", "thousands of ", "millions of ", "billions of ",
                                             "trillions of "};
    int power = 0;
    while (power < 4 && top / std::pow(1e3, power) >= 1e4)
        ++power;
    m_axisScale = std::pow(1e3, power);
    const QString title = m_mode == BreakdownMode::Energy
                              ? QString::fromUtf8("energy (%1)").arg(QString::fromUtf8(energyUnits[power]))
                              : QString::fromUtf8("accesses (%1words; MACs)").arg(countUnits[power]);
    auto* series = new QStackedBarSeries;
    for (const auto& s : m_data.series) {
        auto* set = new QBarSet(s.name);
        for (double v : s.values)
            set->append(v / m_axisScale);
        set->setBrush(QBrush(s.color, s.brush));
        set->setPen(QPen(s.color.darker(140), 1));
        series->append(set);
    }
    chart->addSeries(series);
    auto* categories = new QBarCategoryAxis;
    categories->append(m_data.categories);
    chart->addAxis(categories, Qt::AlignBottom);
    series->attachAxis(categories);
    auto* values = new QValueAxis;
    values->setRange(0, top > 0 ? top * 1.05 / m_axisScale : 1);
    values->applyNiceNumbers();
    values->setLabelFormat("%.5g"); // below 1e5 after the scaling: never an exponent
    values->setTitleText(title);
    chart->addAxis(values, Qt::AlignLeft);
    series->attachAxis(values);
    chart->setTitle(m_mode == BreakdownMode::Energy
                        ? QString("Energy per level: %1 in total").arg(energyText(m_result.energyPj))
                        : QString("Accesses per level"));
    connect(series, &QStackedBarSeries::hovered, this, [this](bool on, int index, QBarSet* set) {
        if (!on || !set || index < 0 || index >= m_data.categories.size()) {
            QToolTip::hideText();
            return;
        }
        const double total = m_data.categoryTotal(index);
        const double value = set->at(index) * m_axisScale;
        QString text = QString("%1, %2: %3").arg(m_data.categories[index], set->label(), countText(value));
        if (m_mode == BreakdownMode::Energy)
            text += " pJ";
        if (total > 0)
            text += QString(" (%1% of %2)").arg(100 * value / total, 0, 'f', 1).arg(countText(total));
        QToolTip::showText(QCursor::pos(), text, m_view);
    });
}

void BreakdownChart::fillTable()
{
    m_table->setRowCount(0);
    const auto& r = m_result;
    auto addRow = [this](const QList<QTableWidgetItem*>& items) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        for (int c = 0; c < items.size(); ++c)
            m_table->setItem(row, c, items[c]);
    };
    for (std::size_t s = 0; s < r.levels.size(); ++s) {
        const auto& level = r.levels[s];
        const QString name = QString::fromStdString(level.name);
        double levelAccesses = 0;
        for (std::size_t t = 0; t < level.tensors.size(); ++t) {
            const auto& x = level.tensors[t];
            if (!x.kept && !x.streamed)
                continue;
            const double accesses = (x.reads.total() + x.fills.total() + x.updates.total()) * x.instances;
            levelAccesses += accesses;
            addRow(
                {item(name, false),
                 item(QString::fromStdString(m_workload.tensors[t].name) + (x.streamed ? " (streamed)" : ""),
                      false),
                 item(instancesText(x.instances, level.maxInstances)), item(split(x.reads)),
                 item(split(x.fills)), item(split(x.updates)),
                 item(countText(x.metadataReads.total()) + " / " + countText(x.metadataFills.total()) +
                      " / " + countText(x.metadataUpdates.total())),
                 item(countText(accesses)), item(countText(x.energyPj))});
            m_table->item(m_table->rowCount() - 1, 6)->setToolTip("reads / fills / updates (all kinds)");
        }
        auto* total = item(name + " total", false);
        QFont bold = total->font();
        bold.setBold(true);
        QList<QTableWidgetItem*> row{total,
                                     item("", false),
                                     item(instancesText(level.instances, level.maxInstances)),
                                     item(""),
                                     item(""),
                                     item(""),
                                     item(""),
                                     item(countText(levelAccesses)),
                                     item(countText(level.energyPj))};
        for (auto* i : row)
            i->setFont(bold);
        addRow(row);
    }
    const auto& c = r.compute;
    auto* computeName = item(QString::fromStdString(m_arch.compute.name), false);
    QList<QTableWidgetItem*> row{
        computeName,
        item("MACs", false),
        item(instancesText(c.instances, c.maxInstances)),
        item(""),
        item(""),
        item(""),
        item(""),
        item(countText(c.actual) + " / " + countText(c.gated) + " / " + countText(c.skipped)),
        item(countText(c.energyPj))};
    QFont bold = computeName->font();
    bold.setBold(true);
    for (auto* i : row)
        i->setFont(bold);
    addRow(row);
}

} // namespace sparsemap::ui::design
