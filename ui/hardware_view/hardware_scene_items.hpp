#pragma once
// Graphics items of the hardware-behaviour view. One PeItem draws a whole PE (outline, buffer strip
// with its tiles, and its MAC cells) from state shared with the view, so a time step repaints ~one item
// per PE instead of rebuilding tens of thousands of MAC rectangles. When a MAC is smaller than two
// screen pixels the PE paints an aggregated bar (share of active / gated / skipped / empty MACs).
#include "analysis/hardware_trace.hpp"

#include <QColor>
#include <QGraphicsItem>
#include <QGraphicsView>
#include <QStringList>

#include <vector>

namespace sparsemap::ui {

QColor macStateColor(analysis::MacState state);
QString macStateName(analysis::MacState state);

// What every PeItem reads when it paints: the MAC states of the current step and the PE tile labels.
struct PeArrayState {
    std::vector<analysis::MacState> macs; // by global MAC index
    std::vector<QStringList> tileLabels;  // by global PE index (empty for unused PEs)
};

class PeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 41 };
    // `macs` = the global MAC indices of this PE, in its MAC grid order (row by row, `macColumns` wide).
    PeItem(const PeArrayState* state, std::int64_t pe, bool used, std::vector<std::int64_t> macs,
           int macColumns, QSizeF size, double macSize, double bufferHeight, bool showLabels);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    std::int64_t pe() const { return m_pe; }
    bool used() const { return m_used; }
    // Scene rectangle of one of this PE's MAC cells (by position in the PE's MAC list).
    QRectF macRect(int localIndex) const;

private:
    const PeArrayState* m_state;
    std::int64_t m_pe;
    bool m_used;
    std::vector<std::int64_t> m_macs;
    int m_macColumns;
    QSizeF m_size;
    double m_macSize;
    double m_bufferHeight;
    bool m_showLabels;
};

// A QGraphicsView that zooms with the mouse wheel (around the cursor) and pans by dragging. Until the
// user zooms it keeps the whole scene in view when resized.
class ZoomableGraphicsView : public QGraphicsView {
    Q_OBJECT
public:
    explicit ZoomableGraphicsView(QWidget* parent = nullptr);
    // Shows the whole scene, and keeps fitting it on resize, but never below the minimum fit zoom:
    // when the whole does not fit legibly, the top-left part is shown at that zoom and the scroll bars
    // (or dragging) reach the rest.
    void fitAll();
    void setMinimumFitZoom(double zoom) { m_minimumFitZoom = zoom; }
    double minimumFitZoom() const { return m_minimumFitZoom; }

protected:
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitScene();
    bool m_autoFit = true;
    double m_minimumFitZoom = 0;
};

} // namespace sparsemap::ui
