#pragma once
// One colour per genome segment, shared by every view that draws genes (the workload editor's gene
// table, the design view's gene strip) so that a segment looks the same everywhere.
#include "genome/genome_layout.hpp"

#include <QColor>

namespace sparsemap::ui {

// Saturated enough for a strip or a legend chip; use geneSegmentTint for a row background.
inline QColor geneSegmentColor(GeneSegment segment)
{
    switch (segment) {
    case GeneSegment::Permutation:
        return QColor(148, 103, 189); // purple
    case GeneSegment::Tiling:
        return QColor(31, 119, 180); // blue
    case GeneSegment::FormatP:
        return QColor(44, 160, 44); // green
    case GeneSegment::FormatQ:
        return QColor(255, 127, 14); // orange
    case GeneSegment::FormatZ:
        return QColor(23, 190, 207); // cyan
    case GeneSegment::SkipGate:
        return QColor(214, 39, 40); // red
    }
    return QColor(127, 127, 127);
}

// The segment colour washed out towards white, light enough for black text on top of it.
inline QColor geneSegmentTint(GeneSegment segment)
{
    const QColor c = geneSegmentColor(segment);
    constexpr double keep = 0.22; // share of the saturated colour
    const auto mix = [](int channel) { return static_cast<int>(255 - keep * (255 - channel)); };
    return QColor(mix(c.red()), mix(c.green()), mix(c.blue()));
}

} // namespace sparsemap::ui
