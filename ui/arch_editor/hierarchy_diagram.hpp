#pragma once
// A small drawing of the hierarchy, outermost on the left: one box per storage level with its
// fan-out, capacity (and separate metadata capacity) and instance grid, then the MACs. Repaints whenever the
// document changes.
#include "architecture_document.hpp"

#include <QWidget>

namespace sparsemap::ui {

class HierarchyDiagram : public QWidget {
    Q_OBJECT
public:
    explicit HierarchyDiagram(ArchitectureDocument* doc, QWidget* parent = nullptr);

    QSize sizeHint() const override { return {640, 3 * fontMetrics().lineSpacing() + 24}; }
    QSize minimumSizeHint() const override { return {320, 3 * fontMetrics().lineSpacing() + 20}; }
    // The text of each box, left to right (also what the tests check).
    QStringList boxLabels() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    ArchitectureDocument* m_doc;
};

} // namespace sparsemap::ui
