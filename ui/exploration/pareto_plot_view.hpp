#pragma once
// The energy-delay view of a run (beyond the SparseMap paper): every valid design as a dot at
// (cycles, energy), both axes logarithmic, and the Pareto front (analysis/pareto_front.hpp) drawn as
// the staircase that bounds what the run achieved; the best design by the run's objective is ringed.
// Hovering a dot shows its metrics, clicking it emits pointClicked with its index in the run's points,
// like the design-space map.
#include "search/search_types.hpp"

#include <qcustomplot.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace sparsemap::ui {

class ParetoPlotView : public QCustomPlot {
    Q_OBJECT
public:
    explicit ParetoPlotView(QWidget* parent = nullptr);

    // What setPoints draws, made without the view (a worker thread can make it for millions of
    // points; apply() on the GUI thread hands its containers to the graphs). With the plot's size in
    // `pixels`, a run of many points draws one dot per 4-pixel cell (dot_thinning.hpp); without, all.
    struct Frame;
    static std::shared_ptr<Frame> prepare(const search::PointLog& points, std::int64_t bestIndex,
                                          QSize pixels = {});
    QSize drawingSize() const // (the widget's size until the axes are first laid out)
    {
        return axisRect()->width() > 10 && axisRect()->height() > 10 ? axisRect()->size() : size();
    }
    std::size_t drawnCount() const { return m_frame->drawnCount; } // dots drawn (at most validCount())
    void apply(std::shared_ptr<Frame> frame);
    void setPoints(const search::PointLog& points, std::int64_t bestIndex)
    {
        apply(prepare(points, bestIndex));
    }
    void clearPoints();
    // Indices into the points last given, fastest first.
    const std::vector<std::int64_t>& front() const { return m_frame->front; }
    int validCount() const { return static_cast<int>(m_frame->index.size()); }
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

public:
    struct Frame {
        std::vector<Dot> dots;           // the valid points, in evaluation order
        std::vector<std::int64_t> index; // dots[i] is point index[i]
        std::vector<std::int64_t> front;
        QSharedPointer<QCPGraphDataContainer> valid, frontLine;
        bool hasBest = false;
        double bestCycles = 0, bestEnergyUj = 0;
        std::size_t drawnCount = 0;
    };

private:
    QString tipFor(std::size_t dot) const;
    void fitAxes();

    QCPGraph* m_valid = nullptr;
    QCPGraph* m_frontLine = nullptr;
    QCPGraph* m_best = nullptr;
    std::shared_ptr<Frame> m_frame; // what is drawn (the graphs share its containers)
    QPoint m_pressPos;
};

} // namespace sparsemap::ui
