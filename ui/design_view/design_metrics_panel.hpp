#pragma once
// A design's metrics: validity (and the model's reason when invalid), cycles, energy, EDP,
// utilization and computes, then one row per storage level: instances used, capacity used against
// the capacity, bandwidth demand, throttling, cycles and energy.
#include "arch/architecture.hpp"
#include "common/number_text.hpp"
#include "model/evaluation_result.hpp"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace sparsemap::ui::design {

class DesignMetricsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DesignMetricsPanel(QWidget* parent = nullptr);

    void setResult(const Architecture& arch, const model::EvaluationResult& result);
    void clear();

    QLabel* validityLabel() const { return m_validity; }
    // Text of the summary value labels, for tests and copy: "cycles", "energy", "edp", "utilization".
    QString summaryValue(const QString& key) const;
    QTableWidget* levelTable() const { return m_levels; }

private:
    QLabel* m_validity = nullptr;
    QLabel* m_cycles = nullptr;
    QLabel* m_energy = nullptr;
    QLabel* m_edp = nullptr;
    QLabel* m_utilization = nullptr;
    QLabel* m_computes = nullptr;
    QTableWidget* m_levels = nullptr;
};

// "1.234 µJ (1234000 pJ)" style texts shared with the design view (common/number_text.hpp).
using ui::countText;
using ui::energyText;

} // namespace sparsemap::ui::design
