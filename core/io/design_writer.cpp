// designToYaml (declared in design_io.hpp): the genome, and for the reader the mapping, formats and
// S/G it decodes to. Loading checks that they agree, so the writer refuses a design that is not its
// genome's rather than write a file that cannot be read back.
#include "design/loop_nest_text.hpp"
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/design_io.hpp"
#include "io/model_options_yaml.hpp"
#include "io/workload_io.hpp"
#include "util/error.hpp"

#include <yaml-cpp/yaml.h>

namespace sparsemap {

namespace {

void emitMapping(YAML::Emitter& out, const Workload& w, const Mapping& mapping)
{
    out << YAML::Key << "mapping" << YAML::Value << YAML::BeginSeq;
    for (const auto& level : mapping.levels) {
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "level" << YAML::Value << level.name;
        out << YAML::Key << "order" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (int d : level.order)
            out << w.dims.at(d).name;
        out << YAML::EndSeq << YAML::Key << "bounds" << YAML::Value << YAML::Flow << YAML::BeginMap;
        for (std::size_t d = 0; d < w.dims.size(); ++d)
            out << YAML::Key << w.dims[d].name << YAML::Value << level.bounds.at(d);
        out << YAML::EndMap << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

void emitFormats(YAML::Emitter& out, const Workload& w, const Architecture& arch,
                 const SparseStrategy& sparse)
{
    out << YAML::Key << "formats" << YAML::Value << YAML::BeginMap;
    for (std::size_t s = 0; s < sparse.formats.size(); ++s) {
        out << YAML::Key << arch.levels.at(s).name << YAML::Value << YAML::Flow << YAML::BeginMap;
        for (std::size_t t = 0; t < sparse.formats[s].size(); ++t) {
            out << YAML::Key << w.tensors.at(t).name << YAML::Value << YAML::Flow << YAML::BeginSeq;
            for (const auto& rank : sparse.formats[s][t].ranks)
                out << std::string(rankFormatName(rank.format));
            out << YAML::EndSeq;
        }
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
}

} // namespace

std::string designToYaml(const GenomeLayout& layout, const Genome& genome, const Design& design,
                         const DesignMetrics* metrics, const model::ModelOptions* modelOptions)
{
    if (decodeGenome(layout, genome) != design)
        throw InputError("cannot save the design: it is not the design its genome decodes to");
    const Workload& w = layout.workload();
    const Architecture& arch = layout.architecture();
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "version" << YAML::Value << 1;
    out << YAML::Key << "design" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "workload" << YAML::Value << w.name;
    out << YAML::Key << "architecture" << YAML::Value << arch.name;
    out << YAML::Key << "padding" << YAML::Value << std::string(paddingModeName(layout.options().padding));
    if (modelOptions)
        detail::emitModelOptions(out, *modelOptions);
    out << YAML::Key << "genome" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (int gene : genome)
        out << gene;
    out << YAML::EndSeq;
    emitMapping(out, w, design.mapping);
    emitFormats(out, w, arch, design.sparse);
    out << YAML::Key << "skipping_gating" << YAML::Value << YAML::BeginMap;
    for (const auto& site : design.sparse.sites)
        out << YAML::Key << sgSiteName(arch, site) << YAML::Value << sgText(w, site);
    out << YAML::EndMap;
    if (metrics) {
        out << YAML::Key << "metrics" << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "valid" << YAML::Value << metrics->valid;
        if (metrics->valid) {
            out << YAML::Key << "cycles" << YAML::Value << metrics->cycles;
            out << YAML::Key << "energy_pj" << YAML::Value << metrics->energyPj;
            out << YAML::Key << "edp" << YAML::Value << metrics->edp;
        } else {
            out << YAML::Key << "reason" << YAML::Value << metrics->reason;
        }
        out << YAML::EndMap;
    }
    // The workload and architecture themselves, so that the file alone can be evaluated again
    // (`sparsemap evaluate DESIGN.yaml`); last, so that the sections above keep their lines.
    out << YAML::Key << "inputs" << YAML::Value << YAML::BeginMap;
    Workload workload = w;
    for (auto& tensor : workload.tensors) // a density file by the path it was read from
        if (tensor.density.model == DensityModelKind::Actual && !tensor.density.resolvedFile.empty())
            tensor.density.file = tensor.density.resolvedFile;
    out << YAML::Key << "workload" << YAML::Value << YAML::Load(workloadToYaml(workload))["workload"];
    out << YAML::Key << "architecture" << YAML::Value << YAML::Load(architectureToYaml(arch))["architecture"];
    out << YAML::EndMap;
    out << YAML::EndMap << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace sparsemap
