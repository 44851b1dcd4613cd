// exportSparseloopCase: the problem, the mapping and the sparse optimizations (the inverse of the
// readers), and the files. The architecture tree and the ERT are in sparseloop_export_arch.cpp.
#include "io/sparseloop/sparseloop_export.hpp"

#include "util/file_io.hpp"
#include "io/sparseloop/sparseloop_writers.hpp"
#include "io/units.hpp"
#include "mapping/spatial_split.hpp"
#include "mapping/tile_shape.hpp"
#include "model/density/density_model.hpp"
#include "sparse/sparseloop_formats.hpp"
#include "workload/workload_factory.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

namespace sparsemap {

namespace {

using detail::sparseloopExportError;

void emitNames(YAML::Emitter& out, const Workload& w, const std::vector<int>& tensors)
{
    out << YAML::Flow << YAML::BeginSeq;
    for (int t : tensors)
        out << w.tensors[t].name;
    out << YAML::EndSeq;
}

void emitDensity(YAML::Emitter& out, const Workload& w, int tensor)
{
    const Tensor& t = w.tensors[static_cast<std::size_t>(tensor)];
    DensitySpec d = t.density;
    if (t.isOutput && !t.densityDeclared) { // Sparseloop takes an unstated output as dense
        d.model = DensityModelKind::Uniform;
        d.density = derivedOutputDensity(w);
    }
    if (d.model == DensityModelKind::Banded || d.model == DensityModelKind::Actual)
        sparseloopExportError("tensor " + t.name + " has a " + std::string(densityModelName(d.model)) +
                              " density, which Sparseloop's v0.3 problem cannot state");
    // An n:m structure becomes its density: Sparseloop's fixed-structured model is shape-only. A
    // uniform tensor whose nonzeros fill it (the model rounds them up) is dense, which Sparseloop's
    // hypergeometric model would not make it: it is stated fixed-structured.
    const auto volume = static_cast<std::int64_t>(tensorVolume(w, tensor));
    const bool dense = model::ceilNonzeros(d.density, volume) >= volume;
    out << YAML::Key << t.name << YAML::Value << YAML::BeginMap << YAML::Key << "distribution" << YAML::Value
        << (d.model == DensityModelKind::Uniform && !dense ? "hypergeometric" : "fixed-structured")
        << YAML::Key << "density" << YAML::Value << detail::formatNumber(dense ? 1.0 : d.density)
        << YAML::EndMap;
}

void emitProblem(YAML::Emitter& out, const Workload& w)
{
    out << YAML::BeginMap << YAML::Key << "shape" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << w.name;
    out << YAML::Key << "dimensions" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto& d : w.dims)
        out << d.name;
    out << YAML::EndSeq;
    // Timeloop names every coefficient other than 1; one name per term keeps them independent.
    std::vector<std::pair<std::string, std::int64_t>> coefficients;
    out << YAML::Key << "data-spaces" << YAML::Value << YAML::BeginSeq;
    for (const auto& t : w.tensors) {
        out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << t.name;
        out << YAML::Key << "projection" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (std::size_t r = 0; r < t.ranks.size(); ++r) {
            out << YAML::BeginSeq;
            for (std::size_t i = 0; i < t.ranks[r].size(); ++i) {
                const auto& term = t.ranks[r][i];
                out << YAML::BeginSeq << w.dims[term.dim].name;
                if (term.coefficient != 1) {
                    coefficients.emplace_back("coef_" + t.name + "_" + std::to_string(r) + "_" +
                                                  std::to_string(i),
                                              term.coefficient);
                    out << coefficients.back().first;
                }
                out << YAML::EndSeq;
            }
            out << YAML::EndSeq;
        }
        out << YAML::EndSeq;
        if (t.isOutput)
            out << YAML::Key << "read-write" << YAML::Value << true;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    if (!coefficients.empty()) {
        out << YAML::Key << "coefficients" << YAML::Value << YAML::BeginSeq;
        for (const auto& [name, value] : coefficients)
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << name << YAML::Key
                << "default" << YAML::Value << value << YAML::EndMap;
        out << YAML::EndSeq;
    }
    out << YAML::EndMap << YAML::Key << "instance" << YAML::Value << YAML::BeginMap;
    for (const auto& d : w.dims)
        out << YAML::Key << d.name << YAML::Value << d.size;
    out << YAML::Key << "densities" << YAML::Value << YAML::BeginMap;
    for (std::size_t t = 0; t < w.tensors.size(); ++t)
        emitDensity(out, w, static_cast<int>(t));
    out << YAML::EndMap << YAML::EndMap << YAML::EndMap;
}

// Dim names packed ("NMK") when all are one character, else separated by spaces.
std::string permutationText(const Workload& w, const std::vector<int>& order)
{
    const bool packed =
        std::all_of(w.dims.begin(), w.dims.end(), [](const auto& d) { return d.name.size() == 1; });
    std::string text;
    for (auto it = order.rbegin(); it != order.rend(); ++it) // Timeloop lists the innermost first
        text += (packed || text.empty() ? "" : " ") + w.dims[*it].name;
    return text;
}

void checkMapping(const SparseloopCase& c)
{
    const auto templateLevels = mappingTemplate(c.architecture);
    const auto& m = c.mapping;
    const std::size_t dims = c.workload.dims.size(), levels = c.architecture.levels.size();
    bool ok = m.levels.size() == templateLevels.size();
    for (std::size_t i = 0; ok && i < templateLevels.size(); ++i) {
        const auto& l = m.levels[i];
        std::vector<int> sorted = l.order;
        std::sort(sorted.begin(), sorted.end());
        ok = l.name == templateLevels[i].name && l.kind == templateLevels[i].kind &&
             l.storageLevel == templateLevels[i].storageLevel && l.bounds.size() == dims &&
             sorted.size() == dims &&
             (dims == 0 || (sorted.front() == 0 && sorted.back() == static_cast<int>(dims) - 1 &&
                            std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()));
    }
    const auto sized = [&](const std::vector<std::vector<bool>>& v) {
        return v.empty() || (v.size() == levels && std::all_of(v.begin(), v.end(), [&](const auto& row) {
                                 return row.size() == c.workload.tensors.size();
                             }));
    };
    if (!ok || !sized(m.keep) || !sized(m.stream))
        sparseloopExportError("the mapping does not follow the architecture's mapping template (levels " +
                              std::to_string(templateLevels.size()) + ", keep/stream per level and tensor)");
    for (std::size_t d = 0; d < dims; ++d)
        if (const auto p = m.product(static_cast<int>(d)); p != c.workload.dims[d].size)
            sparseloopExportError("the factors of `" + c.workload.dims[d].name + "` multiply to " +
                                  std::to_string(p) + ", not its size " +
                                  std::to_string(c.workload.dims[d].size) +
                                  " (a padded design needs the padded sizes in its workload)");
}

void emitMapping(YAML::Emitter& out, const SparseloopCase& c)
{
    checkMapping(c);
    const Workload& w = c.workload;
    const Mapping& m = c.mapping;
    out << YAML::BeginSeq;
    if (!m.keep.empty() || !m.stream.empty())
        for (int s = 0; s < c.architecture.levelCount(); ++s) {
            std::vector<int> keep, bypass, stream;
            for (int t = 0; t < static_cast<int>(w.tensors.size()); ++t) {
                (m.keeps(s, t) ? keep : bypass).push_back(t);
                if (m.streams(s, t))
                    stream.push_back(t);
            }
            out << YAML::BeginMap << YAML::Key << "target" << YAML::Value << c.architecture.levels[s].name;
            out << YAML::Key << "type" << YAML::Value << "datatype" << YAML::Key << "keep" << YAML::Value;
            emitNames(out, w, keep);
            out << YAML::Key << "bypass" << YAML::Value;
            emitNames(out, w, bypass);
            if (!m.stream.empty()) {
                out << YAML::Key << "stream" << YAML::Value;
                emitNames(out, w, stream);
            }
            out << YAML::EndMap;
        }
    for (const auto& l : m.levels) {
        // Timeloop has no spatial level where the instance count does not grow (all factors are 1 there).
        if (l.kind == LoopKind::Spatial && c.architecture.fanout(l.storageLevel) == 1)
            continue;
        std::string factors;
        for (std::size_t d = 0; d < w.dims.size(); ++d) {
            const std::string& name = w.dims[d].name;
            const bool digitEnd = !name.empty() && std::isdigit(static_cast<unsigned char>(name.back()));
            factors += (d ? " " : "") + name + (digitEnd ? "=" : "") + std::to_string(l.bounds[d]);
        }
        out << YAML::BeginMap << YAML::Key << "target" << YAML::Value
            << c.architecture.levels[l.storageLevel].name;
        out << YAML::Key << "type" << YAML::Value << (l.kind == LoopKind::Spatial ? "spatial" : "temporal");
        out << YAML::Key << "factors" << YAML::Value << factors;
        out << YAML::Key << "permutation" << YAML::Value << permutationText(w, l.order);
        if (l.kind == LoopKind::Spatial && l.spatialXLoops >= 0)
            out << YAML::Key << "split" << YAML::Value << l.spatialXLoops;
        if (l.kind == LoopKind::Spatial) {
            // The model has no link transfers between instances (a neighbour forwarding what it held
            // the step before); Timeloop models them unless told not to.
            std::vector<int> all(w.tensors.size());
            for (std::size_t t = 0; t < all.size(); ++t)
                all[t] = static_cast<int>(t);
            out << YAML::Key << "no_link_transfer" << YAML::Value;
            emitNames(out, w, all);
        }
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
}

} // namespace

std::string sparseloopInputYaml(const SparseloopCase& c)
{
    std::vector<std::string> problems = workloadProblems(c.workload);
    for (const auto& p : architectureProblems(c.architecture))
        problems.push_back(p);
    if (!problems.empty())
        sparseloopExportError(problems.front());
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "architecture" << YAML::Value;
    detail::emitSparseloopArchitecture(out, c);
    out << YAML::Key << "problem" << YAML::Value;
    emitProblem(out, c.workload);
    out << YAML::Key << "mapping" << YAML::Value;
    emitMapping(out, c);
    detail::emitSparseloopSparse(out, c);
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

void exportSparseloopCase(const SparseloopCase& c, const std::string& dir)
{
    namespace fs = std::filesystem;
    const std::string input = sparseloopInputYaml(c), ert = sparseloopErtYaml(c); // all checks first
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        throw InputError("cannot create " + dir + ": " + ec.message());
    if (fs::exists(fs::path(dir) / "map.yaml", ec))
        sparseloopExportError(dir + " has a map.yaml, which would be read instead of the mapping written in "
                                    "aggregated_input.yaml; choose an empty folder");
    writeTextFileAtomically((fs::path(dir) / "aggregated_input.yaml").string(), input);
    writeTextFileAtomically((fs::path(dir) / "ERT.yaml").string(), ert);
}

std::vector<std::vector<TensorFormat>> sparseloopFormatsOf(const Workload& workload, const Architecture& arch,
                                                           const Design& design)
{
    const int dims = static_cast<int>(workload.dims.size());
    for (std::size_t s = 0; s < design.sparse.formats.size(); ++s)
        for (std::size_t t = 0; t < design.sparse.formats[s].size(); ++t) {
            const auto& format = design.sparse.formats[s][t];
            if (format.compressed() && !representableInSparseloop(format)) {
                std::vector<std::string> rankNames;
                for (const auto& r : format.ranks)
                    rankNames.push_back(r.dim >= 0 && r.dim < dims ? workload.dims[r.dim].name
                                                                   : std::string());
                sparseloopExportError("the format of " + workload.tensors.at(t).name + " at " +
                                      arch.levels.at(s).name +
                                      " (ranks outer to inner: " + formatRanksText(format, rankNames) +
                                      ") has a compressed rank above an uncompressed one, which Sparseloop "
                                      "cannot represent");
            }
        }
    std::vector<std::vector<TensorFormat>> formats;
    sparseloopFormatsInto(workload, arch, design, formats);
    return formats;
}

void exportSparseloopCase(const Workload& workload, const Architecture& arch, const Design& design,
                          const std::string& dir)
{
    SparseloopCase c;
    c.workload = workload;
    c.architecture = arch;
    c.mapping = design.mapping;
    c.sparse = design.sparse;
    c.sparse.formats = sparseloopFormatsOf(workload, arch, design);
    // Timeloop needs the X/Y split the model found possible.
    const auto split = withSpatialSplits(arch, c.mapping);
    if (!split)
        sparseloopExportError("the spatial loops split into no X x Y that fits Timeloop's meshes");
    c.mapping = *split;
    c.levels.resize(arch.levels.size());
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        c.levels[i].metadataStorageWidthBits = arch.levels[i].metadataWordBits; // Sparseloop charges by it
        // Our levels move data between formats (compressed above, uncompressed below) as the model
        // charges them; Sparseloop wants the level to say so.
        c.levels[i].compressionSupported = i > 0;
        // Metadata sharing the data capacity (our template) has no Sparseloop form: Sparseloop keeps
        // metadata in a store of its own and, without one, refuses any metadata. Give it a store as large
        // as the data's: every design our model accepts (data + metadata within the capacity) fits.
        auto& level = c.architecture.levels[i];
        if (level.metadataCapacityBits == 0 && level.capacityBits > 0)
            level.metadataCapacityBits = level.capacityBits / level.metadataWordBits * level.metadataWordBits;
    }
    exportSparseloopCase(c, dir);
}

} // namespace sparsemap
