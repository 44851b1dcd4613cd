#include "io/design_io.hpp"

#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"

#include "design/loop_nest_text.hpp"
#include "genome/genome_codec.hpp"
#include "genome/sg_gene.hpp"
#include "io/design_sections.hpp"
#include "io/model_options_yaml.hpp"
#include "util/file_io.hpp"
#include "sparse/tensor_ranks.hpp"

#include <filesystem>

namespace sparsemap {

namespace {

using detail::YamlReader;

const std::vector<std::string> kPaddings{"none", "large-prime", "smooth"};

std::string orderText(const Workload& w, const std::vector<int>& order)
{
    std::string out;
    for (int d : order)
        out += (out.empty() ? "" : ", ") + w.dims.at(d).name;
    return "[" + out + "]";
}

std::string ranksText(const Workload& w, const std::vector<FormatRank>& ranks)
{
    std::string out;
    for (const auto& r : ranks)
        out += (out.empty() ? "" : ", ") + rankName(w, r);
    return out.empty() ? std::string("none") : out;
}

// Genes are checked here, one by one, so that a bad gene is reported at its own position with what
// it means; the codec's GenomeError remains the safety net.
std::optional<Genome> readGenome(const YamlReader& node, const GenomeLayout& layout)
{
    if (!node.expectSequence("a list of integers, e.g. [1, 3, 2, ...]"))
        return std::nullopt;
    const auto items = node.items();
    if (static_cast<int>(items.size()) != layout.size()) {
        node.error("the genome has " + std::to_string(items.size()) +
                   " genes; this workload and architecture need " + std::to_string(layout.size()));
        return std::nullopt;
    }
    Genome genome;
    bool ok = true;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const GeneInfo& g = layout.gene(static_cast<int>(i));
        const auto value = items[i].integer();
        if (value && (*value < g.lower || *value > g.upper)) {
            items[i].error("gene " + std::to_string(i + 1) + " (" + g.name + ") is " +
                           std::to_string(*value) + "; allowed " + std::to_string(g.lower) + ".." +
                           std::to_string(g.upper) + ": " + g.description);
            ok = false;
        }
        ok = ok && value;
        genome.push_back(static_cast<int>(value.value_or(0)));
    }
    return ok ? std::optional<Genome>(genome) : std::nullopt;
}

// The mapping section against the decoded mapping: says which level and which dim differ.
void compareMapping(const detail::MappingSection& section, const Mapping& decoded, const Workload& w)
{
    for (std::size_t l = 0; l < decoded.levels.size(); ++l) {
        const auto& given = section.mapping.levels[l];
        const auto& genome = decoded.levels[l];
        const YamlReader& entry = *section.entries[l];
        if (given.order != genome.order)
            entry.error("mapping level " + genome.name + ": order is " + orderText(w, given.order) +
                        " here but the genome gives " + orderText(w, genome.order) +
                        "; the mapping must agree with the genome");
        for (std::size_t d = 0; d < w.dims.size(); ++d)
            if (given.bounds[d] != genome.bounds[d])
                entry.error("mapping level " + genome.name + ": bound of " + w.dims[d].name + " is " +
                            std::to_string(given.bounds[d]) + " here but the genome gives " +
                            std::to_string(genome.bounds[d]) + "; the mapping must agree with the genome");
    }
}

void compareFormats(const detail::FormatsSection& section, const Design& design, const GenomeLayout& layout)
{
    const Workload& w = layout.workload();
    for (std::size_t s = 0; s < section.entries.size(); ++s)
        for (std::size_t t = 0; t < section.entries[s].size(); ++t) {
            const auto& entry = section.entries[s][t];
            if (!entry)
                continue;
            std::vector<RankFormat> decoded;
            for (const auto& r : design.sparse.formats[s][t].ranks)
                decoded.push_back(r.format);
            if (entry->formats != decoded)
                entry->node.error(w.tensors[t].name + " at " + layout.architecture().levels[s].name + " is " +
                                  detail::formatListText(entry->formats) + " here but the genome gives " +
                                  detail::formatListText(decoded) + " (ranks " +
                                  ranksText(w, design.sparse.formats[s][t].ranks) +
                                  "); the formats must agree with the genome");
        }
}

void compareSg(const detail::SgSection& section, const Design& design, const GenomeLayout& layout)
{
    for (std::size_t i = 0; i < section.entries.size(); ++i) {
        const auto& entry = section.entries[i];
        if (!entry)
            continue;
        const auto& site = design.sparse.sites[i];
        if (sgGeneFromActions(site.actions, layout.inputTensors()) != entry->gene)
            entry->node.error(
                "S/G is `" +
                sgText(layout.workload(),
                       SgSite{site.storageLevel, sgActionsFromGene(entry->gene, layout.inputTensors())}) +
                "` here but the genome gives `" + sgText(layout.workload(), site) + "`; they must agree");
    }
}

// Without a genome: the genome the sections state. The mapping and S/G genes come from encoding the
// design with uncompressed formats; the format genes from the formats listed, each rank at its gene
// (right-aligned, one gene per position shared by every level), so that a tensor's formats may be
// given at one level only. Positions nobody lists stay U.
std::optional<Genome> encodeSections(const YamlReader& d, const detail::MappingSection& mapping,
                                     const std::optional<detail::FormatsSection>& formats,
                                     const std::optional<detail::SgSection>& sg, const GenomeLayout& layout)
{
    const Workload& w = layout.workload();
    const Architecture& arch = layout.architecture();
    for (std::size_t dim = 0; dim < w.dims.size(); ++dim) {
        // Every bound is at most the padded size (readMappingSection checks), but their product may not be.
        std::int64_t product = 1;
        bool overflow = false;
        for (const auto& level : mapping.mapping.levels)
            overflow = overflow || __builtin_mul_overflow(product, level.bounds[dim], &product);
        if (overflow || product != layout.paddedSize(static_cast<int>(dim)))
            d.get("mapping")->error("the bounds of " + w.dims[dim].name + " multiply to " +
                                    (overflow ? std::string("more than 2^63") : std::to_string(product)) +
                                    "; they must multiply to its padded size " +
                                    std::to_string(layout.paddedSize(static_cast<int>(dim))) + " (padding: " +
                                    std::string(paddingModeName(layout.options().padding)) + ")");
    }
    if (!d.sink().empty())
        return std::nullopt;

    Design skeleton;
    skeleton.mapping = mapping.mapping;
    skeleton.sparse.formats.assign(arch.levels.size(), std::vector<TensorFormat>(w.tensors.size()));
    for (int s = 0; s < arch.levelCount(); ++s)
        for (int t = 0; t < static_cast<int>(w.tensors.size()); ++t) {
            auto ranks = tensorRanks(w, skeleton.mapping, t, s);
            for (std::size_t r = 0; r < ranks.size(); ++r) // ranks beyond the format genes are UOP
                ranks[r].format = ranks.size() - r > kFormatGenesPerTensor ? RankFormat::UOP : RankFormat::U;
            skeleton.sparse.formats[s][t].ranks = std::move(ranks);
        }
    for (std::size_t i = 0; i < layout.sgSites().size(); ++i) {
        const int gene = sg && sg->entries[i] ? sg->entries[i]->gene : 0;
        skeleton.sparse.sites.push_back(
            SgSite{layout.sgSites()[i], sgActionsFromGene(gene, layout.inputTensors())});
    }
    Genome genome;
    try {
        genome = encodeDesign(layout, skeleton);
    } catch (const InputError& e) {
        d.error(e.what());
        return std::nullopt;
    }
    if (!formats)
        return genome;

    std::vector<std::string> setBy(genome.size()); // "P at DRAM, rank K1": who set a format gene
    for (int slot = 0; slot < layout.formatSegmentCount(); ++slot) {
        const int t = layout.formatTensor(slot);
        const int base = layout.formatSegment(slot).begin;
        for (int s = 0; s < arch.levelCount(); ++s) {
            const auto& entry = formats->entries[s][t];
            if (!entry)
                continue;
            const std::string where = w.tensors[t].name + " at " + arch.levels[s].name;
            const auto ranks = tensorRanks(w, skeleton.mapping, t, s);
            const int n = static_cast<int>(ranks.size());
            if (static_cast<int>(entry->formats.size()) != n) {
                entry->node.error(where + " has " + std::to_string(n) + " ranks under this mapping (" +
                                  ranksText(w, ranks) + "); give one format per rank, outer to inner");
                continue;
            }
            for (int i = 0; i < n; ++i) {
                const int fromInner = n - 1 - i;
                const RankFormat f = entry->formats[i];
                const std::string rank = rankName(w, ranks[i]);
                if (fromInner >= kFormatGenesPerTensor) {
                    if (f != RankFormat::UOP)
                        entry->node.error(where + ": rank " + rank + " is outside the innermost " +
                                          std::to_string(kFormatGenesPerTensor) + " and must be UOP");
                    continue;
                }
                const int gene = base + kFormatGenesPerTensor - 1 - fromInner;
                if (!setBy[gene].empty() && genome[gene] != static_cast<int>(f))
                    entry->node.error(where + ": rank " + rank + " is " + std::string(rankFormatName(f)) +
                                      " but the same position (counted from the innermost) is " +
                                      std::string(rankFormatName(static_cast<RankFormat>(genome[gene]))) +
                                      " for " + setBy[gene] +
                                      "; the genome has one format per position, shared by every level");
                genome[gene] = static_cast<int>(f);
                setBy[gene] = where + ", rank " + rank;
            }
        }
    }
    if (!d.sink().empty())
        return std::nullopt;
    return genome;
}

std::optional<DesignDocument> readDesign(const YamlReader& d, const Workload& workload,
                                         const Architecture& arch)
{
    d.checkKeys({"workload", "architecture", "padding", "model", "genome", "mapping", "formats",
                 "skipping_gating", "metrics", "inputs"});
    DesignDocument doc;
    doc.workloadName = workload.name;
    doc.architectureName = arch.name;
    if (const auto name = d.get("workload"))
        doc.workloadName = name->text().value_or(doc.workloadName);
    if (const auto name = d.get("architecture"))
        doc.architectureName = name->text().value_or(doc.architectureName);
    if (const auto padding = d.get("padding"))
        if (const auto mode = padding->choice("padding", kPaddings))
            doc.options.padding = *parsePaddingMode(*mode);
    detail::readModelOptions(d, doc.modelOptions);

    std::optional<GenomeLayout> layout;
    try {
        layout.emplace(workload, arch, doc.options);
    } catch (const InputError& e) {
        for (const auto& diagnostic : e.diagnostics())
            d.error("the workload and architecture give no genome layout: " + diagnostic.toString());
        return std::nullopt;
    }
    if (const auto metricsNode = d.get("metrics")) {
        metricsNode->checkKeys({"valid", "reason", "cycles", "energy_pj", "edp"});
        DesignMetrics m;
        if (const auto valid = metricsNode->get("valid"))
            m.valid = valid->boolean().value_or(false);
        if (const auto reason = metricsNode->get("reason"))
            m.reason = reason->text().value_or("");
        if (const auto cycles = metricsNode->get("cycles"))
            m.cycles = cycles->number().value_or(0);
        if (const auto energy = metricsNode->get("energy_pj"))
            m.energyPj = energy->number().value_or(0);
        if (const auto edp = metricsNode->get("edp"))
            m.edp = edp->number().value_or(0);
        doc.metrics = m;
    }
    const auto genomeNode = d.get("genome");
    const auto mappingNode = d.get("mapping");
    if (!genomeNode && !mappingNode) {
        d.error("a design needs a `genome`, or a `mapping` with optional `formats` and `skipping_gating`");
        return std::nullopt;
    }
    const auto mapping = mappingNode ? detail::readMappingSection(*mappingNode, *layout) : std::nullopt;
    const auto formatsNode = d.get("formats");
    const auto formats = formatsNode ? detail::readFormatsSection(*formatsNode, *layout) : std::nullopt;
    const auto sgNode = d.get("skipping_gating");
    const auto sg = sgNode ? detail::readSgSection(*sgNode, *layout) : std::nullopt;
    if (!d.sink().empty())
        return std::nullopt;

    if (genomeNode) {
        const auto genome = readGenome(*genomeNode, *layout);
        if (!genome)
            return std::nullopt;
        try {
            doc.design = decodeGenome(*layout, *genome);
        } catch (const InputError& e) { // GenomeError, or a codec limit
            genomeNode->error(e.what());
            return std::nullopt;
        }
        doc.genome = *genome;
        if (mapping)
            compareMapping(*mapping, doc.design.mapping, workload);
        if (formats)
            compareFormats(*formats, doc.design, *layout);
        if (sg)
            compareSg(*sg, doc.design, *layout);
        return doc;
    }

    if (!mapping)
        return std::nullopt; // reported by readMappingSection
    const auto genome = encodeSections(d, *mapping, formats, sg, *layout);
    if (!genome)
        return std::nullopt;
    doc.genome = *genome;
    try {
        doc.design = decodeGenome(*layout, doc.genome);
    } catch (const InputError& e) { // cannot happen for a genome encodeDesign validated; a safety net
        d.error(e.what());
        return std::nullopt;
    }
    return doc;
}

} // namespace

DesignDocument parseDesignYaml(const std::string& text, const Workload& workload, const Architecture& arch,
                               const std::string& fileName)
{
    detail::DiagnosticSink sink(fileName);
    std::optional<DesignDocument> doc;
    if (const auto root = detail::loadYaml(text, sink))
        if (const auto d = detail::readDocument(*root, "design", "a map with a genome or a mapping", sink))
            doc = readDesign(*d, workload, arch);
    sink.throwIfAny();
    if (!doc) // every path that gives no design reports why; this is a safety net
        throw InputError(fileName + ": no design could be read");
    return *doc;
}

namespace {

// `inputs: {workload, architecture}`, each read by its own file's parser from a file of its own; the
// problems are reported at the entry.
std::optional<DesignInputs> readInputs(const YamlReader& inputs, const std::string& baseDir)
{
    if (!inputs.expectMap("a map {workload, architecture}, each as under that key in its own file"))
        return std::nullopt;
    inputs.checkKeys({"workload", "architecture"});
    const auto workloadNode =
        inputs.require("workload", "the workload, as under `workload:` in a workload file");
    const auto archNode =
        inputs.require("architecture", "the architecture, as under `architecture:` in an architecture file");
    if (!workloadNode || !archNode)
        return std::nullopt;
    const auto read = [](const YamlReader& node, const char* key, auto parse) {
        using T = decltype(parse(std::string()));
        YAML::Emitter out;
        out << YAML::BeginMap << YAML::Key << "version" << YAML::Value << 1 << YAML::Key << key << YAML::Value
            << node.node() << YAML::EndMap;
        try {
            return std::optional<T>(parse(std::string(out.c_str())));
        } catch (const InputError& e) {
            for (const auto& diagnostic : e.diagnostics())
                node.error((diagnostic.path.empty() ? std::string() : diagnostic.path + ": ") +
                           diagnostic.message);
        }
        return std::optional<T>();
    };
    const auto workload = read(*workloadNode, "workload",
                               [&](const std::string& t) { return parseWorkloadYaml(t, {}, baseDir); });
    const auto arch =
        read(*archNode, "architecture", [](const std::string& t) { return parseArchitectureYaml(t); });
    if (!workload || !arch)
        return std::nullopt;
    return DesignInputs{*workload, *arch};
}

} // namespace

std::optional<DesignInputs> parseDesignInputs(const std::string& text, const std::string& fileName,
                                              const std::string& baseDir)
{
    detail::DiagnosticSink sink(fileName);
    bool present = false;
    std::optional<DesignInputs> result;
    if (const auto root = detail::loadYaml(text, sink))
        if (const auto d = detail::readDocument(*root, "design", "a map with a genome or a mapping", sink))
            if (const auto inputs = d->get("inputs")) {
                present = true;
                result = readInputs(*inputs, baseDir);
            }
    sink.throwIfAny();
    if (present && !result) // every path that gives none reports why; this is a safety net
        throw InputError(fileName + ": the design's inputs could not be read");
    return result;
}

std::optional<DesignInputs> loadDesignInputs(const std::string& path)
{
    return parseDesignInputs(readTextFile(path), path, std::filesystem::path(path).parent_path().string());
}

DesignDocument loadDesignFile(const std::string& path, const Workload& workload, const Architecture& arch)
{
    return parseDesignYaml(readTextFile(path), workload, arch, path);
}

void saveDesignFile(const GenomeLayout& layout, const Genome& genome, const Design& design,
                    const std::string& path, const DesignMetrics* metrics,
                    const model::ModelOptions* modelOptions)
{
    writeTextFileAtomically(path, designToYaml(layout, genome, design, metrics, modelOptions));
}

} // namespace sparsemap
