// workloadToYaml (declared in workload_io.hpp): the short form for the paper's families when the
// workload is exactly what the factory builds from those parameters, the general form otherwise.
#include "io/density_yaml.hpp"
#include "io/index_expression.hpp"
#include "io/workload_io.hpp"
#include "util/error.hpp"
#include "workload/workload_factory.hpp"

namespace sparsemap {

namespace {

// True when the short form reproduces `w` exactly; a workload edited after the factory built it (a
// renamed dim, an extra tensor) must be saved in the general form or it would load differently.
bool shortFormFits(const Workload& w)
{
    if (w.tensors.size() != 3 || w.tensors[0].isOutput || w.tensors[1].isOutput)
        return false;
    const DensitySpec& a = w.tensors[0].density;
    const DensitySpec& b = w.tensors[1].density;
    try {
        switch (w.kind) {
        case WorkloadKind::SpMM:
            return w.dims.size() == 3 &&
                   makeSpmm(w.name, w.dims[0].size, w.dims[1].size, w.dims[2].size, a, b) == w;
        case WorkloadKind::BatchedSpMM:
            return w.dims.size() == 4 && makeBatchedSpmm(w.name, w.dims[0].size, w.dims[1].size,
                                                         w.dims[2].size, w.dims[3].size, a, b) == w;
        case WorkloadKind::SpConv:
            return w.conv && makeSpconv(w.name, *w.conv, a, b) == w;
        case WorkloadKind::General:
            return false;
        }
    } catch (const InputError&) {
    }
    return false;
}

void emitDensities(YAML::Emitter& out, const Workload& w)
{
    out << YAML::Key << "density" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (int t : w.inputTensors()) {
        out << YAML::Key << w.tensors[t].name << YAML::Value;
        detail::emitDensity(out, w.tensors[t].density);
    }
    out << YAML::EndMap;
}

void emitPair(YAML::Emitter& out, const char* key, std::int64_t h, std::int64_t w)
{
    out << YAML::Key << key << YAML::Value;
    if (h == w)
        out << h;
    else
        out << YAML::Flow << YAML::BeginSeq << h << w << YAML::EndSeq;
}

void emitShortForm(YAML::Emitter& out, const Workload& w)
{
    if (w.kind == WorkloadKind::SpConv) {
        const ConvShape& s = *w.conv;
        if (s.n != 1)
            out << YAML::Key << "N" << YAML::Value << s.n;
        for (auto [key, value] : {std::pair{"C", s.c}, std::pair{"H", s.h}, std::pair{"W", s.w},
                                  std::pair{"K", s.k}, std::pair{"R", s.r}, std::pair{"S", s.s}})
            out << YAML::Key << key << YAML::Value << value;
        emitPair(out, "stride", s.strideH, s.strideW);
        if (s.samePadding)
            out << YAML::Key << "padding" << YAML::Value << "same";
        else
            emitPair(out, "padding", s.padH, s.padW);
    } else {
        for (const auto& d : w.dims)
            out << YAML::Key << d.name << YAML::Value << d.size;
    }
    emitDensities(out, w);
}

void emitGeneralForm(YAML::Emitter& out, const Workload& w)
{
    out << YAML::Key << "dims" << YAML::Value << YAML::Flow << YAML::BeginMap;
    for (const auto& d : w.dims)
        out << YAML::Key << d.name << YAML::Value << d.size;
    out << YAML::EndMap;
    out << YAML::Key << "tensors" << YAML::Value << YAML::BeginSeq;
    for (const auto& t : w.tensors) {
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << t.name;
        out << YAML::Key << "ranks" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const auto& rank : t.ranks)
            out << detail::indexExpressionText(rank, w.dims);
        out << YAML::EndSeq;
        if (t.isOutput) {
            out << YAML::Key << "output" << YAML::Value << true;
        } else {
            out << YAML::Key << "density" << YAML::Value;
            detail::emitDensity(out, t.density);
        }
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

} // namespace

std::string workloadToYaml(const Workload& workload)
{
    const bool shortForm = shortFormFits(workload);
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "version" << YAML::Value << 1;
    out << YAML::Key << "workload" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << workload.name;
    out << YAML::Key << "type" << YAML::Value
        << std::string(workloadKindName(shortForm ? workload.kind : WorkloadKind::General));
    if (shortForm)
        emitShortForm(out, workload);
    else
        emitGeneralForm(out, workload);
    out << YAML::EndMap << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

} // namespace sparsemap
