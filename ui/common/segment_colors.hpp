#pragma once
// One colour per genome segment, shared by every view that draws genes (the workload editor's gene
// table, the design view's gene strip) so that a segment looks the same everywhere. Format segments,
// one per tensor, each take their tensor's colour: the inputs in workload order green, orange, then
// further hues, the output cyan (P, Q, Z for two inputs).
#include "genome/genome_layout.hpp"

#include <QColor>

#include <iterator>

namespace sparsemap::ui {

// The colour of format slot `slot` of `slotCount` (GenomeLayout::formatTensor: the inputs, then the
// output).
inline QColor formatSlotColor(int slot, int slotCount)
{
    if (slot == slotCount - 1)
        return QColor(23, 190, 207); // cyan: the output
    static const QColor inputs[] = {
        QColor(44, 160, 44),   // green
        QColor(255, 127, 14),  // orange
        QColor(227, 119, 194), // pink
        QColor(188, 189, 34),  // olive
        QColor(140, 86, 75),   // brown
    };
    const int n = int(std::size(inputs));
    return inputs[((slot % n) + n) % n];
}

// Saturated enough for a strip or a legend chip; use geneSegmentTint for a row background. A format
// segment needs its slot (GeneInfo::formatSlot, SegmentPart::formatSlot).
inline QColor geneSegmentColor(const GenomeLayout& layout, GeneSegment segment, int formatSlot = -1)
{
    switch (segment) {
    case GeneSegment::Permutation:
        return QColor(148, 103, 189); // purple
    case GeneSegment::Tiling:
        return QColor(31, 119, 180); // blue
    case GeneSegment::Format:
        return formatSlotColor(formatSlot < 0 ? 0 : formatSlot, layout.formatSegmentCount());
    case GeneSegment::SkipGate:
        return QColor(214, 39, 40); // red
    }
    return QColor(127, 127, 127);
}

// The segment colour washed out towards white, light enough for black text on top of it.
inline QColor geneSegmentTint(const GenomeLayout& layout, GeneSegment segment, int formatSlot = -1)
{
    const QColor c = geneSegmentColor(layout, segment, formatSlot);
    constexpr double keep = 0.22; // share of the saturated colour
    const auto mix = [](int channel) { return static_cast<int>(255 - keep * (255 - channel)); };
    return QColor(mix(c.red()), mix(c.green()), mix(c.blue()));
}

} // namespace sparsemap::ui
