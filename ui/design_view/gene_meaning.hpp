#pragma once
// What one gene's value means for the design, in words for the strip's tooltips and the selected-gene
// line: the loop order a permutation code stands for, the mapping level a prime factor goes to, the
// format a format gene names, the skipping/gating a S/G gene chooses.
#include "genome/genome_layout.hpp"

#include <QString>
#include <QStringList>

namespace sparsemap::ui::design {

// E.g. "order outer to inner: K, M, N", "factor 2 of K tiles level 3, L2_S (GLB, spatial)",
// "B (bitmask)", "Skip Q <- P". A value out of the gene's range says so.
QString geneValueMeaning(const GenomeLayout& layout, int gene, int value);
// Rich text for a tooltip: name, position and segment, the description, the value and its meaning.
QString geneToolTip(const GenomeLayout& layout, int gene, int value);

} // namespace sparsemap::ui::design
