// `problem` -> Workload (model-notes-dataflow §1.3): dims in `shape.dimensions` order with sizes from
// `instance`, tensors from the data spaces (projection terms `[dim]` or `[dim, coefficient]`; the
// `read-write` one is the output), densities from `instance.densities`.
#include "io/sparseloop/sparseloop_readers.hpp"
#include "util/limits.hpp"

#include <algorithm>
#include <map>

namespace sparsemap::detail {

namespace {

const std::vector<std::string> kDistributions{"fixed-structured", "hypergeometric", "uniform"};

std::optional<YamlReader> getEither(const YamlReader& r, std::string_view a, std::string_view b)
{
    auto v = r.get(a);
    return v ? v : r.get(b);
}

// A projection coefficient: an integer from 1 to kMaxCoefficient (larger ones overflow the tensor
// extents the model computes).
std::optional<std::int64_t> coefficientValue(const YamlReader& node, std::string_view allowed)
{
    const auto v = node.integerAtLeast(1, allowed);
    if (v && *v > kMaxCoefficient) {
        node.error("coefficient " + std::to_string(*v) +
                   " is too large; at most 2^20 = " + std::to_string(kMaxCoefficient));
        return std::nullopt;
    }
    return v;
}

// Coefficient values: `shape.coefficients` defaults, overridden by `instance`.
std::map<std::string, std::int64_t> readCoefficients(const YamlReader& shape, const YamlReader& instance)
{
    std::map<std::string, std::int64_t> values;
    const auto list = shape.get("coefficients");
    if (!list || !list->expectSequence("the coefficients, a list of {name, default}"))
        return values;
    for (const auto& c : list->items()) {
        const auto name = c.require("name", "the coefficient's name");
        const auto text = name ? name->text() : std::nullopt;
        if (!text)
            continue;
        std::int64_t value = 1;
        if (const auto d = c.get("default"))
            value = coefficientValue(*d, "a positive integer").value_or(1);
        if (const auto given = instance.get(*text))
            value = coefficientValue(*given, "a positive integer").value_or(value);
        values[*text] = value;
    }
    return values;
}

std::optional<ProjectionTerm> readTerm(const YamlReader& term, const Workload& w,
                                       const std::map<std::string, std::int64_t>& coefficients)
{
    const auto items = term.isSequence() ? term.items() : std::vector<YamlReader>{term};
    if (items.empty() || items.size() > 2) {
        term.error("a projection term is [dim] or [dim, coefficient]");
        return std::nullopt;
    }
    const auto dimName = items[0].text();
    if (!dimName)
        return std::nullopt;
    ProjectionTerm out;
    out.dim = w.dimIndex(*dimName);
    if (out.dim < 0) {
        std::vector<std::string> dims;
        for (const auto& d : w.dims)
            dims.push_back(d.name);
        items[0].error("unknown dimension `" + *dimName + "`; dimensions: " + joinNames(dims));
        return std::nullopt;
    }
    if (items.size() == 2) {
        const auto coef = items[1].text();
        if (!coef)
            return std::nullopt;
        if (const auto it = coefficients.find(*coef); it != coefficients.end())
            out.coefficient = it->second;
        else if (const auto literal = coefficientValue(items[1], "a coefficient name or a positive integer"))
            out.coefficient = *literal;
        else
            return std::nullopt;
    }
    return out;
}

void readTensor(const YamlReader& space, const std::map<std::string, std::int64_t>& coefficients, Workload& w)
{
    if (!space.expectMap("a data space {name, projection, read-write}"))
        return;
    Tensor tensor;
    const auto name = space.require("name", "the tensor's name");
    const auto projection = space.require("projection", "the tensor's ranks, e.g. [[[M]], [[K]]]");
    if (!name || !name->text() || !projection || !projection->expectSequence("the tensor's ranks"))
        return;
    tensor.name = *name->text();
    if (w.tensorIndex(tensor.name) >= 0)
        name->error("tensor `" + tensor.name + "` is given twice");
    for (const auto& rank : projection->items()) {
        RankProjection terms;
        for (const auto& term : rank.isSequence() ? rank.items() : std::vector<YamlReader>{rank})
            if (const auto t = readTerm(term, w, coefficients))
                terms.push_back(*t);
        tensor.ranks.push_back(std::move(terms));
    }
    if (const auto rw = getEither(space, "read-write", "read_write"))
        tensor.isOutput = rw->boolean().value_or(false);
    w.tensors.push_back(std::move(tensor));
}

// One `densities` entry: {distribution, density} or a bare density (Sparseloop's default model,
// fixed-structured, applies to both a bare number and a map without `distribution`).
void readDensity(const YamlReader& entry, Tensor& tensor)
{
    DensitySpec spec;
    spec.model = DensityModelKind::FixedStructured;
    const auto value = entry.isMap() ? entry.require("density", "the fraction of nonzeros, in (0, 1]")
                                     : std::optional<YamlReader>(entry);
    if (entry.isMap()) {
        entry.checkKeys({"distribution", "density"});
        if (const auto dist = entry.get("distribution")) {
            const auto name = dist->choice("density distribution", kDistributions);
            if (!name)
                return;
            spec.model =
                *name == "fixed-structured" ? DensityModelKind::FixedStructured : DensityModelKind::Uniform;
        }
    }
    const auto d = value ? value->number() : std::nullopt;
    if (!d)
        return;
    if (!(*d > 0.0 && *d <= 1.0)) {
        value->error("density " + value->node().Scalar() + " is out of range; it must be in (0, 1]");
        return;
    }
    spec.density = *d;
    tensor.density = spec; // fixed-structured without n/m: every tile has exactly this density
}

} // namespace

void readSparseloopProblem(const YamlReader& problem, SparseloopCase& out)
{
    if (!problem.expectMap("the problem {shape, instance}"))
        return;
    const auto shape = problem.require("shape", "the problem shape {name, dimensions, data-spaces}");
    const auto instance = problem.require("instance", "the dimension sizes and densities");
    if (!shape || !instance || !shape->expectMap("the problem shape") || !instance->expectMap("the instance"))
        return;
    Workload& w = out.workload;
    w.kind = WorkloadKind::General;
    w.name = "sparseloop";
    if (const auto name = shape->get("name"); name && name->isScalar())
        w.name = name->node().Scalar();

    const auto dims = shape->require("dimensions", "the dimension names, a list");
    if (!dims || !dims->expectSequence("the dimension names"))
        return;
    for (const auto& d : dims->items()) {
        const auto name = d.text();
        if (!name)
            continue;
        if (w.dimIndex(*name) >= 0)
            d.error("dimension `" + *name + "` is given twice");
        const auto size = instance->get(*name);
        if (!size)
            instance->error("missing the size of dimension `" + *name + "`");
        w.dims.push_back(
            Dimension{*name, size ? size->integerAtLeast(1, "a positive integer").value_or(1) : 1});
    }
    const auto coefficients = readCoefficients(*shape, *instance);
    const auto spaces = getEither(*shape, "data-spaces", "data_spaces");
    if (!spaces)
        shape->error("missing required key `data-spaces` (the tensors, a list of {name, projection})");
    else if (spaces->expectSequence("the tensors"))
        for (const auto& space : spaces->items())
            readTensor(space, coefficients, w);

    for (const auto& [key, value] : instance->entries()) {
        if (key == "densities" || w.dimIndex(key) >= 0 || coefficients.count(key))
            continue;
        instance->keyNode(key)->error("`" + key + "` is not a dimension or coefficient of the problem");
    }
    for (auto& tensor : w.tensors) { // Sparseloop's default: fixed-structured, density 1
        tensor.density.model = DensityModelKind::FixedStructured;
        tensor.density.density = 1;
        tensor.densityDeclared = tensor.isOutput; // an output too: Sparseloop does not derive it
    }
    if (const auto densities = instance->get("densities"); densities && densities->expectMap("densities"))
        for (const auto& [name, entry] : densities->entries()) {
            const int t = w.tensorIndex(name);
            if (t < 0)
                densities->keyNode(name)->error("unknown tensor `" + name + "` in densities");
            else
                readDensity(entry, w.tensors[t]);
        }
}

} // namespace sparsemap::detail
