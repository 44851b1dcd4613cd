#include "design_view/design_palette.hpp"

#include "common/segment_colors.hpp"

#include <algorithm>

namespace sparsemap::ui::design {

QColor segmentColor(const GenomeLayout& layout, GeneSegment segment, int formatSlot)
{
    // The workbench's shared segment hue (ui/common/segment_colors.hpp), softened so that the gene
    // values drawn on the cells stay readable.
    const QColor c = geneSegmentColor(layout, segment, formatSlot);
    constexpr double keep = 0.45;
    const auto mix = [](int channel) { return static_cast<int>(255 - keep * (255 - channel)); };
    return QColor(mix(c.red()), mix(c.green()), mix(c.blue()));
}

QString segmentCaption(const GenomeLayout& layout, GeneSegment segment, int formatSlot)
{
    switch (segment) {
    case GeneSegment::Permutation:
        return "Perm";
    case GeneSegment::Tiling:
        return "Tiling";
    case GeneSegment::Format:
        return QString::fromStdString(layout.segmentName(segment, formatSlot)) + " fmt";
    case GeneSegment::SkipGate:
        return "S/G";
    }
    return "?";
}

QColor tensorColor(const Workload& workload, int tensor)
{
    // The tensor's format slot: the inputs in workload order, then the output.
    const auto inputs = workload.inputTensors();
    const int slotCount = int(inputs.size()) + 1;
    const auto it = std::find(inputs.begin(), inputs.end(), tensor);
    const int slot = it != inputs.end() ? int(it - inputs.begin()) : slotCount - 1;
    return formatSlotColor(slot, slotCount);
}

QColor computeColor()
{
    return QColor(0x8c, 0x9c, 0xac);
}

} // namespace sparsemap::ui::design
