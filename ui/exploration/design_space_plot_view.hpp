#pragma once
// The design-space map (paper Fig. 7): one dot per evaluated design at its PCA coordinates
// (x = mapping axis, y = sparse axis), valid dots coloured by log10 of the objective, invalid dots
// grey, the best design ringed. QCustomPlot has no per-point colour, so valid dots are binned into
// one graph per colour step; hovering shows the nearest dot's metrics, clicking it emits pointClicked.
#include "search/search_types.hpp"

#include <qcustomplot.h>
#include <vector>

namespace sparsemap::ui {

class DesignSpacePlotView : public QCustomPlot {
    Q_OBJECT
public:
    explicit DesignSpacePlotView(QWidget* parent = nullptr);

    // `points` and the coordinates are parallel; the view keeps no reference to `points`.
    void setPoints(const search::PointLog& points, const std::vector<double>& x, const std::vector<double>& y,
                   std::int64_t bestIndex);
    void clearPoints();
    int pointCount() const { return static_cast<int>(m_x.size()); }
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

    std::vector<QCPGraph*> m_bins; // valid dots by colour step
    QCPGraph* m_invalid = nullptr;
    QCPGraph* m_best = nullptr;
    QCPGraph* m_selected = nullptr;
    int m_selectedIndex = -1;
    QCPColorScale* m_colorScale = nullptr;
    std::vector<double> m_x, m_y;
    struct DotTip {
        int generation = 0;
        bool valid = false;
        std::uint32_t reason = 0; // into m_reasons, for an invalid dot
        double objective = 0, cycles = 0, energyPj = 0, edp = 0;
    };
    QString tipText(int index) const; // the hover text of dot `index`
    std::vector<DotTip> m_tips;       // per dot
    std::vector<QString> m_reasons;   // each distinct reason once
    QPoint m_pressPos;
    bool m_userZoomed = false; // keep the user's view instead of rescaling on every refresh
};

} // namespace sparsemap::ui
