#pragma once
// The design view's colours: one per genome segment (the strip) and one per tensor (the breakdown
// chart), so that the P format genes and P's bars share a hue. Soft fills, so that dark text on them
// stays readable. Both follow the workbench's shared segment colours (common/segment_colors.hpp).
#include "genome/genome_layout.hpp"

#include <QColor>
#include <QString>

namespace sparsemap::ui::design {

QColor segmentColor(GeneSegment segment);
// The caption over a segment of the strip: "Perm", "Tiling", "<tensor> fmt" x3 (I/W/O for SpConv), "S/G".
QString segmentCaption(const GenomeLayout& layout, GeneSegment segment);
// Colour of the genome tensor P (0), Q (1), Z (2); further tensors get further hues.
QColor tensorColor(int which);
QColor computeColor();

} // namespace sparsemap::ui::design
