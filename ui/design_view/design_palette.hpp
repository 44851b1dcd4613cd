#pragma once
// The design view's colours: one per genome segment (the strip) and one per tensor (the breakdown
// chart), so that a tensor's format genes and its bars share a hue. Soft fills, so that dark text on
// them stays readable. Both follow the workbench's shared segment colours (common/segment_colors.hpp).
#include "genome/genome_layout.hpp"

#include <QColor>
#include <QString>

namespace sparsemap::ui::design {

// A format segment needs its slot (GeneInfo::formatSlot, SegmentPart::formatSlot).
QColor segmentColor(const GenomeLayout& layout, GeneSegment segment, int formatSlot = -1);
// The caption over a segment of the strip: "Perm", "Tiling", "<tensor> fmt" per format slot (P, Q, Z;
// I/W/O for SpConv; A, B, C, O for MTTKRP), "S/G".
QString segmentCaption(const GenomeLayout& layout, GeneSegment segment, int formatSlot = -1);
// Colour of a tensor of the workload: its format segment's hue (inputs in order, then the output).
QColor tensorColor(const Workload& workload, int tensor);
QColor computeColor();

} // namespace sparsemap::ui::design
