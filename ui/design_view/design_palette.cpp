#include "design_view/design_palette.hpp"

#include "common/segment_colors.hpp"

#include <iterator>

namespace sparsemap::ui::design {

QColor segmentColor(GeneSegment segment)
{
    // The workbench's shared segment hue (ui/common/segment_colors.hpp), softened so that the gene
    // values drawn on the cells stay readable.
    const QColor c = geneSegmentColor(segment);
    constexpr double keep = 0.45;
    const auto mix = [](int channel) { return static_cast<int>(255 - keep * (255 - channel)); };
    return QColor(mix(c.red()), mix(c.green()), mix(c.blue()));
}

QString segmentCaption(const GenomeLayout& layout, GeneSegment segment)
{
    switch (segment) {
    case GeneSegment::Permutation:
        return "Perm";
    case GeneSegment::Tiling:
        return "Tiling";
    case GeneSegment::FormatP:
    case GeneSegment::FormatQ:
    case GeneSegment::FormatZ:
        return QString::fromStdString(layout.segmentName(segment)) + " fmt";
    case GeneSegment::SkipGate:
        return "S/G";
    }
    return "?";
}

QColor tensorColor(int which)
{
    // P, Q, Z take their format segments' hues, so a tensor's bars and its format genes match.
    static const QColor colors[] = {
        geneSegmentColor(GeneSegment::FormatP), geneSegmentColor(GeneSegment::FormatQ),
        geneSegmentColor(GeneSegment::FormatZ), QColor(0x70, 0xb8, 0xb0), QColor(0xc8, 0xb0, 0x60)};
    const int n = int(std::size(colors));
    return colors[((which % n) + n) % n];
}

QColor computeColor()
{
    return QColor(0x8c, 0x9c, 0xac);
}

} // namespace sparsemap::ui::design
