#pragma once
// The design-space map (paper Fig. 7): one dot per evaluated design at its PCA coordinates
// (x = mapping axis, y = sparse axis), valid dots coloured by log10 of the objective, invalid dots
// grey, the best design ringed. QCustomPlot has no per-point colour, so valid dots are binned into
// one graph per colour step; hovering shows the nearest dot's metrics, clicking it emits pointClicked.
#include "search/search_types.hpp"

#include <qcustomplot.h>
#include <memory>
#include <vector>

namespace sparsemap::ui {

class DesignSpacePlotView : public QCustomPlot {
    Q_OBJECT
public:
    explicit DesignSpacePlotView(QWidget* parent = nullptr);

    // What setPoints draws, made from the points without the view: the dots binned by colour, their
    // tips. prepare() touches no widget, so a worker thread can make it for millions of points and
    // the GUI thread only hands the containers to the graphs (apply()). With the plot's size in
    // `pixels`, a run of many points draws one dot per 4-pixel cell (dot_thinning.hpp); without, all.
    struct Frame;
    static std::shared_ptr<Frame> prepare(const search::PointLog& points, std::vector<double> x,
                                          std::vector<double> y, std::int64_t bestIndex, QSize pixels = {});
    // The plot's size for prepare().
    QSize drawingSize() const // (the widget's size until the axes are first laid out)
    {
        return axisRect()->width() > 10 && axisRect()->height() > 10 ? axisRect()->size() : size();
    }
    void apply(std::shared_ptr<Frame> frame);
    // `points` and the coordinates are parallel; the view keeps no reference to `points`.
    void setPoints(const search::PointLog& points, const std::vector<double>& x, const std::vector<double>& y,
                   std::int64_t bestIndex)
    {
        apply(prepare(points, x, y, bestIndex));
    }
    void clearPoints();
    int pointCount() const { return static_cast<int>(m_frame->x.size()); }
    std::size_t drawnCount() const { return m_frame->drawnCount; } // dots drawn (at most pointCount())
    // The index of the dot nearest to `pixel` within a few pixels, or -1.
    int pointAt(const QPointF& pixel) const;
    QPointF pixelOf(int index) const; // where dot `index` is drawn, in widget pixels
    // Rings dot `index` (the design shown below the plots); -1 removes the ring.
    void setSelectedIndex(int index);
    int selectedIndex() const { return m_selectedIndex; }
    // Whether the colour scale is drawn (only when there is a valid design to colour).
    bool colorScaleShown() const { return m_colorScale->visible(); }

signals:
    void pointClicked(int index);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    static constexpr int kColorSteps = 32;
    struct DotTip {
        int generation = 0;
        bool valid = false;
        std::uint32_t reason = 0; // into m_reasons, for an invalid dot
        double objective = 0, cycles = 0, energyPj = 0, edp = 0;
    };

public:
    struct Frame {
        std::vector<double> x, y;
        std::vector<DotTip> tips;                                // per dot
        std::vector<QString> reasons;                            // each distinct reason once
        std::vector<QSharedPointer<QCPGraphDataContainer>> bins; // kColorSteps, sorted by x
        QSharedPointer<QCPGraphDataContainer> invalid;
        double low = 0, span = 1e-9; // of log10 objective
        bool anyValid = false;
        std::int64_t bestIndex = -1;
        std::size_t drawnCount = 0;
    };

private:
    std::vector<QCPGraph*> m_bins; // valid dots by colour step
    QCPGraph* m_invalid = nullptr;
    QCPGraph* m_best = nullptr;
    QCPGraph* m_selected = nullptr;
    int m_selectedIndex = -1;
    QCPColorScale* m_colorScale = nullptr;
    QString tipText(int index) const; // the hover text of dot `index`
    QPoint m_pressPos;
    std::shared_ptr<Frame> m_frame; // what is drawn (kept: the graphs share its containers)
    bool m_userZoomed = false;      // keep the user's view instead of rescaling on every refresh
};

} // namespace sparsemap::ui
