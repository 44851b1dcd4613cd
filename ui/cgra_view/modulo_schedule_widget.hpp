#pragma once
// The modulo schedule as a grid: one row per modulo slot (0 .. II-1), one column per input bus, per PE
// (row, column) and per output bus, as bound by the binder. A cell shows the node it holds and its
// scheduling time t; colours tell readings, multicast copies, multiplications, additions, COPs and
// writings apart. MCIDs are drawn as red arrows from producer to consumer, labelled with their
// distance; a cell whose node is not bound (failed binding) is drawn dashed in the first free cell.
#include "cgra/binder.hpp"
#include "cgra/schedule.hpp"

#include <QWidget>

namespace sparsemap::ui {

class ModuloScheduleWidget : public QWidget {
    Q_OBJECT
public:
    explicit ModuloScheduleWidget(QWidget* parent = nullptr);

    void setMapping(const cgra::Schedule& schedule, const cgra::BindingResult& binding,
                    const cgra::CgraSpec& cgra);
    void clear();
    bool hasSchedule() const { return m_has; }

    // Where a node is drawn: the grid column and the modulo slot (row); (-1, -1) if not drawn.
    QPoint cellOf(int node) const;
    QRect cellRect(int column, int slot) const;
    int columnCount() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void layoutCells();

    bool m_has = false;
    cgra::Schedule m_schedule;
    cgra::BindingResult m_binding;
    cgra::CgraSpec m_cgra;
    std::vector<QPoint> m_cell;  // per node
    std::vector<bool> m_unbound; // per node: placed in a free cell for display only
};

} // namespace sparsemap::ui
