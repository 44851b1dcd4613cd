#pragma once
// The genome as a strip of cells, one per gene, coloured by segment (perm, tiling, P/Q/Z formats,
// S/G) with the segment captions above and each gene's value inside when it fits. Hovering a cell
// shows what the gene is and what its value means; clicking selects it. Cells shrink down to a
// minimum width (about 80 genes fit a 1600-pixel window); below that the strip asks for more width,
// so that a scroll area around it scrolls.
#include "genome/genome_layout.hpp"

#include <QWidget>
#include <memory>

namespace sparsemap::ui::design {

class GenomeStrip : public QWidget {
    Q_OBJECT
public:
    explicit GenomeStrip(QWidget* parent = nullptr);

    // `genome` must fit `layout` (the design view validates it first).
    void setGenome(std::shared_ptr<const GenomeLayout> layout, Genome genome);
    void clear();

    int cellCount() const { return int(m_genome.size()); }
    const GenomeLayout* layout() const { return m_layout.get(); }
    const Genome& genome() const { return m_genome; }
    QRect cellRect(int gene) const;
    int geneAt(const QPoint& pos) const; // -1 outside every cell
    QString toolTipFor(int gene) const;  // rich text; empty for no gene
    int selectedGene() const { return m_selected; }
    void setSelectedGene(int gene);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void geneSelected(int gene);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    int captionHeight() const;
    int cellHeight() const;
    double cellWidth() const;
    int segmentOf(int gene) const; // GenomeLayout::partOf
    int gapCount() const;

    std::shared_ptr<const GenomeLayout> m_layout;
    Genome m_genome;
    int m_selected = -1;
};

} // namespace sparsemap::ui::design
