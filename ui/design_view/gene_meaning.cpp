#include "design_view/gene_meaning.hpp"

#include "design/loop_nest_text.hpp"
#include "genome/cantor.hpp"
#include "genome/sg_gene.hpp"
#include "sparse/rank_format.hpp"

namespace sparsemap::ui::design {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString formatLongName(RankFormat format)
{
    switch (format) {
    case RankFormat::U:
        return "uncompressed";
    case RankFormat::B:
        return "bitmask";
    case RankFormat::RLE:
        return "run-length encoding";
    case RankFormat::CP:
        return "coordinate payload";
    case RankFormat::UOP:
        return "uncompressed offset pairs";
    }
    return {};
}

} // namespace

QString geneValueMeaning(const GenomeLayout& layout, int gene, int value)
{
    const GeneInfo& info = layout.gene(gene);
    if (value < info.lower || value > info.upper)
        return QString("out of range (allowed %1..%2)").arg(info.lower).arg(info.upper);
    const Workload& w = layout.workload();
    switch (info.segment) {
    case GeneSegment::Permutation: {
        const auto order = cantorDecode(value, int(w.dims.size()));
        QStringList names;
        for (int d : order)
            names << qs(w.dims[std::size_t(d)].name);
        return "order outer to inner: " + names.join(", ");
    }
    case GeneSegment::Tiling: {
        const auto& slot = layout.mappingLevels().at(std::size_t(value - 1));
        return QString("factor %1 of %2 tiles level %3, %4 (%5, %6)")
            .arg(info.factor)
            .arg(qs(w.dims[std::size_t(info.dim)].name))
            .arg(value)
            .arg(qs(slot.name), qs(layout.architecture().levels[std::size_t(slot.storageLevel)].name),
                 slot.kind == LoopKind::Spatial ? "spatial" : "temporal");
    }
    case GeneSegment::Format: {
        const auto format = RankFormat(value);
        return qs(std::string(rankFormatName(format))) + " (" + formatLongName(format) + ")";
    }
    case GeneSegment::SkipGate: {
        const SgSite site{info.site, sgActionsFromGene(value, layout.inputTensors())};
        return qs(sgText(w, site));
    }
    }
    return {};
}

QString geneToolTip(const GenomeLayout& layout, int gene, int value)
{
    const GeneInfo& info = layout.gene(gene);
    return QString("<b>%1</b> &nbsp;(gene %2 of %3, %4)<br>%5<br><b>%6</b>: %7")
        .arg(qs(info.name).toHtmlEscaped())
        .arg(gene + 1)
        .arg(layout.size())
        .arg(qs(layout.segmentName(info.segment, info.formatSlot)).toHtmlEscaped())
        .arg(qs(info.description).toHtmlEscaped())
        .arg(value)
        .arg(geneValueMeaning(layout, gene, value).toHtmlEscaped());
}

} // namespace sparsemap::ui::design
