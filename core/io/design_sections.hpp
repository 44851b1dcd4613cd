#pragma once
// The `mapping`, `formats` and `skipping_gating` sections of a design file, read against a genome
// layout. Each keeps the YAML position of every entry, so that a disagreement with the genome (found
// later) can be reported at the line that states it.
#include "genome/genome_layout.hpp"
#include "io/yaml_reader.hpp"
#include "sparse/sparse_strategy.hpp"

#include <optional>
#include <vector>

namespace sparsemap::detail {

struct MappingSection {
    Mapping mapping;                                // on the template of the layout's architecture
    std::vector<std::optional<YamlReader>> entries; // per mapping level, its `{level: ...}` entry
};

struct FormatEntry {
    std::vector<RankFormat> formats; // outer to inner, as listed
    YamlReader node;
};

struct FormatsSection {
    std::vector<std::vector<std::optional<FormatEntry>>>
        entries; // [storage level][tensor]; nullopt: not given
};

struct SgEntry {
    int gene = 0; // the S/G gene value the text stands for
    YamlReader node;
};

struct SgSection {
    std::vector<std::optional<SgEntry>> entries; // per S/G site of the layout; nullopt: not given
};

// Each returns nullopt after reporting when the section cannot be used.
std::optional<MappingSection> readMappingSection(const YamlReader& reader, const GenomeLayout& layout);
std::optional<FormatsSection> readFormatsSection(const YamlReader& reader, const GenomeLayout& layout);
std::optional<SgSection> readSgSection(const YamlReader& reader, const GenomeLayout& layout);

// "[B, B, CP]" for messages.
std::string formatListText(const std::vector<RankFormat>& formats);

} // namespace sparsemap::detail
