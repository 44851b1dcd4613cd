#pragma once
// The energy-delay view of a run (beyond the SparseMap paper): every valid design as a dot at
// (cycles, energy), both axes logarithmic, and the Pareto front (analysis/pareto_front.hpp) drawn as
// the staircase that bounds what the run achieved; the best design by the run's objective is ringed.
// Hovering a dot shows its metrics, clicking it emits pointClicked with its index in the run's points,
// like the design-space map.
#include "search/search_types.hpp"

#include <qcustomplot.h>

#include <cstdint>
#include <vector>

namespace sparsemap::ui {

class ParetoPlotView : public QCustomPlot {
    Q_OBJECT
public:
    explicit ParetoPlotView(QWidget* parent = nullptr);

    void setPoints(const search::PointLog& points, std::int64_t bestIndex);
    void clearPoints();
    // Indices into the points last given, fastest first.
    const std::vector<std::int64_t>& front() const { return m_front; }
    int validCount() const { return static_cast<int>(m_index.size()); }
    // The index (into the points) of the valid dot nearest to `pixel` within a few pixels, or -1.
    std::int64_t pointAt(const QPointF& pixel) const;
    QPointF pixelOf(std::int64_t index) const; // where point `index` is drawn (it must be valid)

signals:
    void pointClicked(int index);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    struct Dot {
        double cycles = 0, energyPj = 0, edp = 0, objective = 0;
        int generation = 0;
    };
    QString tipFor(std::size_t dot) const;

    QCPGraph* m_valid = nullptr;
    QCPGraph* m_frontLine = nullptr;
    QCPGraph* m_best = nullptr;
    std::vector<Dot> m_dots;           // the valid points, in evaluation order
    std::vector<std::int64_t> m_index; // m_dots[i] is point m_index[i]
    std::vector<std::int64_t> m_front;
    QPoint m_pressPos;
};

} // namespace sparsemap::ui
