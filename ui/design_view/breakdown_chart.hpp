#pragma once
// The breakdown of a design's cost (Qt Charts): stacked bars per storage level and the compute, one
// series per tensor, in energy (pJ) or in accesses (actual / gated / skipped); hovering a bar shows
// its value, and the table under the chart lists the result's own numbers per level and tensor.
#include "design_view/breakdown_data.hpp"

#include <QWidget>

class QButtonGroup;
class QLabel;
class QTableWidget;
class QChartView;
class QChart;

namespace sparsemap::ui::design {

class BreakdownChart : public QWidget {
    Q_OBJECT
public:
    explicit BreakdownChart(QWidget* parent = nullptr);

    void setResult(const Workload& workload, const Architecture& arch, const model::EvaluationResult& result);
    // No design, or an invalid one: empty chart and table with `message` in their place.
    void clear(const QString& message);

    BreakdownMode mode() const { return m_mode; }
    void setMode(BreakdownMode mode);
    // What is plotted now (the bar sets hold these values divided by axisScale()).
    const BreakdownData& data() const { return m_data; }
    // The value axis' unit in the data's: 1, 1e3, 1e6, ... (pJ, nJ, µJ; accesses, thousands, millions).
    double axisScale() const { return m_axisScale; }
    QChartView* chartView() const { return m_view; }
    QTableWidget* table() const { return m_table; }

private:
    void rebuild();
    void fillTable();

    Workload m_workload;
    Architecture m_arch;
    model::EvaluationResult m_result;
    bool m_hasResult = false;
    BreakdownMode m_mode = BreakdownMode::Energy;
    BreakdownData m_data;
    double m_axisScale = 1;
    QButtonGroup* m_modeButtons = nullptr;
    QChartView* m_view = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_message = nullptr;
};

} // namespace sparsemap::ui::design
