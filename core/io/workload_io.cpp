#include "io/workload_io.hpp"

#include "io/density_yaml.hpp"
#include "util/file_io.hpp"
#include "io/index_expression.hpp"
#include "io/yaml_reader.hpp"
#include "util/limits.hpp"
#include "workload/workload_factory.hpp"

#include <filesystem>

namespace sparsemap {

namespace {

using detail::YamlReader;

const std::vector<std::string> kTypes{"spmm", "spconv", "batched-spmm", "general"};
constexpr std::string_view kSizeRule = "a positive integer (a dimension size)";

// Sizes are capped far above any real tensor so that products, padding and factorization stay in range.
constexpr std::int64_t kMaxSize = kMaxDimSize;

std::optional<std::int64_t> sizeValue(const YamlReader& node, std::int64_t minimum = 1,
                                      std::string_view rule = kSizeRule)
{
    const auto value = node.integerAtLeast(minimum, rule);
    if (value && *value > kMaxSize) {
        node.error("is " + std::to_string(*value) + "; sizes above 2^40 = " + std::to_string(kMaxSize) +
                   " are not supported");
        return std::nullopt;
    }
    return value;
}

std::optional<std::int64_t> readSize(const YamlReader& w, std::string_view key, std::string_view what)
{
    const auto node = w.require(key, std::string(what) + ", a positive integer");
    return node ? sizeValue(*node) : std::nullopt;
}

// The `density: {P: ..., Q: ...}` map of the short forms, keyed by the two input tensors' names.
bool readInputDensities(const YamlReader& w, const std::string& baseDir, const std::string& first,
                        const std::string& second, DensitySpec& a, DensitySpec& b)
{
    const auto density =
        w.require("density", "a map {" + first + ": ..., " + second + ": ...} of input densities");
    if (!density || !density->expectMap("a map {" + first + ": ..., " + second + ": ...} of input densities"))
        return false;
    density->checkKeys({first, second});
    bool ok = true;
    for (auto [name, spec] : {std::pair{first, &a}, std::pair{second, &b}}) {
        const auto node =
            density->require(name, "density of input " + name + ": a number in (0, 1] or {model: ...}");
        const auto read = node ? detail::readDensity(*node, baseDir) : std::nullopt;
        if (read)
            *spec = *read;
        ok = ok && read.has_value();
    }
    return ok;
}

std::optional<Workload> readSpmm(const YamlReader& w, const std::string& name, const std::string& baseDir,
                                 bool batched)
{
    if (batched)
        w.checkKeys({"name", "type", "B", "M", "K", "N", "density"});
    else
        w.checkKeys({"name", "type", "M", "K", "N", "density"});
    const auto b = batched ? readSize(w, "B", "batch size") : std::optional<std::int64_t>(1);
    const auto m = readSize(w, "M", "rows of P and Z");
    const auto k = readSize(w, "K", "the contracted dimension");
    const auto n = readSize(w, "N", "columns of Q and Z");
    DensitySpec p, q;
    const bool densities = readInputDensities(w, baseDir, "P", "Q", p, q);
    if (!b || !m || !k || !n || !densities)
        return std::nullopt;
    return batched ? makeBatchedSpmm(name, *b, *m, *k, *n, p, q) : makeSpmm(name, *m, *k, *n, p, q);
}

// `stride: 2` or `stride: [2, 1]`; `padding: 1` or `padding: [1, 0]` (values >= `minimum`).
bool readPair(const YamlReader& node, std::int64_t minimum, std::string_view rule, std::int64_t& first,
              std::int64_t& second)
{
    if (node.isSequence()) {
        const auto items = node.items();
        if (items.size() != 2) {
            node.error("must be one value or two, [height, width]; each " + std::string(rule));
            return false;
        }
        const auto a = sizeValue(items[0], minimum, rule), b = sizeValue(items[1], minimum, rule);
        if (a && b) {
            first = *a;
            second = *b;
        }
        return a && b;
    }
    const auto v = sizeValue(node, minimum, std::string(rule) + ", or [height, width]");
    if (v)
        first = second = *v;
    return v.has_value();
}

std::optional<Workload> readSpconv(const YamlReader& w, const std::string& name, const std::string& baseDir)
{
    w.checkKeys({"name", "type", "N", "C", "H", "W", "K", "R", "S", "stride", "padding", "density"});
    const std::size_t errorsBefore = w.sink().count();
    ConvShape s;
    if (const auto batch = w.get("N"))
        s.n = sizeValue(*batch).value_or(1);
    s.c = readSize(w, "C", "input channels").value_or(1);
    s.h = readSize(w, "H", "input height").value_or(1);
    s.w = readSize(w, "W", "input width").value_or(1);
    s.k = readSize(w, "K", "output channels").value_or(1);
    s.r = readSize(w, "R", "filter height").value_or(1);
    s.s = readSize(w, "S", "filter width").value_or(1);
    if (const auto stride = w.get("stride"))
        readPair(*stride, 1, "a positive integer", s.strideH, s.strideW);
    if (const auto padding = w.get("padding")) {
        s.samePadding = padding->isScalar() && padding->node().Scalar() == "same";
        if (!s.samePadding && readPair(*padding, 0, "`same` or an integer >= 0", s.padH, s.padW)) {
            // Each input side is at most 2^40 and so is each padding: no overflow here.
            const std::int64_t p = convOutputSize(s.h, s.r, s.strideH, false, s.padH);
            const std::int64_t q = convOutputSize(s.w, s.s, s.strideW, false, s.padW);
            if (p > kMaxSize || q > kMaxSize)
                padding->error("padding gives an output of " + std::to_string(p) + " x " + std::to_string(q) +
                               "; an output side must be at most 2^40 = " + std::to_string(kMaxSize));
        }
    }
    DensitySpec input, weights;
    readInputDensities(w, baseDir, "I", "W", input, weights);
    if (w.sink().count() != errorsBefore)
        return std::nullopt;
    try {
        return makeSpconv(name, s, input, weights);
    } catch (const InputError& e) {
        w.error(e.what());
    }
    return std::nullopt;
}

std::optional<Tensor> readTensor(const YamlReader& t, const std::vector<Dimension>& dims,
                                 const std::string& baseDir)
{
    if (!t.expectMap(
            "a tensor {name: P, ranks: [M, K], density: 0.5} or {name: Z, ranks: [M, N], output: true}"))
        return std::nullopt;
    t.checkKeys({"name", "ranks", "density", "output"});
    Tensor tensor;
    bool ok = true;
    const auto name = t.require("name", "the tensor's name");
    const auto text = name ? name->text() : std::nullopt;
    ok = ok && text;
    tensor.name = text.value_or("");
    if (const auto output = t.get("output")) {
        const auto flag = output->boolean();
        ok = ok && flag;
        tensor.isOutput = flag.value_or(false);
    }
    const auto ranks =
        t.require("ranks", "a list of index expressions, outer to inner, e.g. [M, K] or [C, 2*P + R]");
    if (ranks && ranks->expectSequence("a list of index expressions, outer to inner, e.g. [M, K]")) {
        for (const auto& r : ranks->items()) {
            const auto expression = r.text();
            const auto parsed = expression ? detail::parseIndexExpression(*expression, dims)
                                           : detail::Parsed<RankProjection>{};
            if (expression && !parsed.value)
                r.error(parsed.error);
            ok = ok && parsed.value;
            if (parsed.value)
                tensor.ranks.push_back(*parsed.value);
        }
    } else {
        ok = false;
    }
    if (tensor.isOutput) {
        if (const auto density = t.get("density")) {
            density->error(
                "an output tensor has no density (the model derives it); remove it or set output: false");
            ok = false;
        }
    } else {
        const auto density = t.require("density", "the input's density: a number in (0, 1] or {model: ...}");
        const auto spec = density ? detail::readDensity(*density, baseDir) : std::nullopt;
        ok = ok && spec;
        if (spec)
            tensor.density = *spec;
    }
    return ok ? std::optional<Tensor>(tensor) : std::nullopt;
}

std::optional<Workload> readGeneral(const YamlReader& w, const std::string& name, const std::string& baseDir)
{
    w.checkKeys({"name", "type", "dims", "tensors"});
    Workload out;
    out.name = name;
    out.kind = WorkloadKind::General;
    bool ok = true;
    const auto dims = w.require("dims", "a map {M: 32, K: 64, ...} of dimension sizes, in loop order");
    if (dims && dims->expectMap("a map {M: 32, K: 64, ...} of dimension sizes, in loop order")) {
        for (const auto& [dimName, size] : dims->entries()) {
            const auto value = sizeValue(size);
            ok = ok && value;
            out.dims.push_back(Dimension{dimName, value.value_or(1)});
        }
        if (out.dims.empty()) {
            dims->error("a workload needs at least one dimension, e.g. {M: 32, K: 64, N: 48}");
            ok = false;
        }
    } else {
        ok = false;
    }
    const auto tensors =
        w.require("tensors", "a list of {name, ranks, density} and one {name, ranks, output: true}");
    if (tensors && tensors->expectSequence("a list of tensors {name, ranks, density | output: true}")) {
        for (const auto& t : tensors->items()) {
            const auto tensor = readTensor(t, out.dims, baseDir);
            ok = ok && tensor;
            if (tensor)
                out.tensors.push_back(*tensor);
        }
    } else {
        ok = false;
    }
    return ok ? std::optional<Workload>(out) : std::nullopt;
}

std::optional<Workload> readWorkload(const YamlReader& w, const std::string& baseDir)
{
    const auto nameNode = w.require("name", "the workload's name");
    const std::string name = nameNode ? nameNode->text().value_or("") : std::string();
    const auto typeNode = w.require("type", "one of " + detail::joinNames(kTypes));
    const auto type = typeNode ? typeNode->choice("workload type", kTypes) : std::nullopt;
    if (!type)
        return std::nullopt;
    std::optional<Workload> out;
    switch (*parseWorkloadKind(*type)) {
    case WorkloadKind::SpMM:
        out = readSpmm(w, name, baseDir, false);
        break;
    case WorkloadKind::BatchedSpMM:
        out = readSpmm(w, name, baseDir, true);
        break;
    case WorkloadKind::SpConv:
        out = readSpconv(w, name, baseDir);
        break;
    case WorkloadKind::General:
        out = readGeneral(w, name, baseDir);
        break;
    }
    // The semantic checks shared with workloads built in code. They run only on a workload whose
    // fields all read well: after a field error they would mostly repeat it without its position.
    if (out && w.sink().empty())
        for (const auto& problem : workloadProblems(*out))
            w.error(problem);
    return out;
}

} // namespace

Workload parseWorkloadYaml(const std::string& text, const std::string& fileName, const std::string& baseDir)
{
    detail::DiagnosticSink sink(fileName);
    std::optional<Workload> workload;
    if (const auto root = detail::loadYaml(text, sink))
        if (const auto w = detail::readDocument(*root, "workload",
                                                "a map with the workload's name, type and sizes", sink))
            workload = readWorkload(*w, baseDir);
    sink.throwIfAny();
    if (!workload) // every path that gives no workload reports why; this is a safety net
        throw InputError(fileName + ": no workload could be read");
    return *workload;
}

Workload loadWorkloadFile(const std::string& path)
{
    return parseWorkloadYaml(readTextFile(path), path, std::filesystem::path(path).parent_path().string());
}

void saveWorkloadFile(const Workload& workload, const std::string& path)
{
    // `actual` density files are written relative to the workload file: saved into another folder,
    // the path must be rewritten so that it still finds the same file.
    Workload copy = workload;
    std::error_code ec;
    const auto folder = std::filesystem::absolute(std::filesystem::path(path), ec).parent_path();
    for (auto& tensor : copy.tensors) {
        auto& density = tensor.density;
        if (ec || density.model != DensityModelKind::Actual || density.resolvedFile.empty() ||
            std::filesystem::path(density.file).is_absolute())
            continue;
        std::error_code absoluteError;
        const auto target = std::filesystem::absolute(density.resolvedFile, absoluteError);
        const auto relative = target.lexically_normal().lexically_relative(folder.lexically_normal());
        if (!absoluteError && !relative.empty())
            density.file = relative.string();
    }
    writeTextFileAtomically(path, workloadToYaml(copy));
}

} // namespace sparsemap
