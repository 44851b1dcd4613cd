#include "design_view/design_palette.hpp"

namespace sparsemap::ui::design {

QColor segmentColor(GeneSegment segment)
{
    switch (segment) {
    case GeneSegment::Permutation:
        return QColor(0x9e, 0xc5, 0xe8); // blue: loop orders
    case GeneSegment::Tiling:
        return QColor(0xb5, 0xdd, 0xa4); // green: tile sizes
    case GeneSegment::FormatP:
        return tensorColor(0).lighter(135);
    case GeneSegment::FormatQ:
        return tensorColor(1).lighter(135);
    case GeneSegment::FormatZ:
        return tensorColor(2).lighter(135);
    case GeneSegment::SkipGate:
        return QColor(0xd9, 0xd0, 0xb8); // sand: skipping / gating
    }
    return Qt::lightGray;
}

QString segmentCaption(GeneSegment segment)
{
    switch (segment) {
    case GeneSegment::Permutation:
        return "Perm";
    case GeneSegment::Tiling:
        return "Tiling";
    case GeneSegment::FormatP:
        return "P fmt";
    case GeneSegment::FormatQ:
        return "Q fmt";
    case GeneSegment::FormatZ:
        return "Z fmt";
    case GeneSegment::SkipGate:
        return "S/G";
    }
    return "?";
}

QColor tensorColor(int which)
{
    static const QColor colors[] = {QColor(0xf0, 0xa0, 0x50), QColor(0xa8, 0x8c, 0xd8),
                                    QColor(0xe0, 0x78, 0x78), QColor(0x70, 0xb8, 0xb0),
                                    QColor(0xc8, 0xb0, 0x60)};
    const int n = int(std::size(colors));
    return colors[((which % n) + n) % n];
}

QColor computeColor()
{
    return QColor(0x8c, 0x9c, 0xac);
}

} // namespace sparsemap::ui::design
