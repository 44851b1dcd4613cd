#include "workload/workload_factory.hpp"

#include "util/error.hpp"
#include "util/limits.hpp"

#include <cmath>

namespace sparsemap {

DensitySpec uniformDensity(double density)
{
    DensitySpec spec;
    spec.model = DensityModelKind::Uniform;
    spec.density = density;
    return spec;
}

namespace {
RankProjection single(int dim)
{
    return {ProjectionTerm{dim, 1}};
}
} // namespace

Workload makeSpmm(std::string name, std::int64_t m, std::int64_t k, std::int64_t n, DensitySpec p,
                  DensitySpec q)
{
    Workload w;
    w.name = std::move(name);
    w.kind = WorkloadKind::SpMM;
    w.dims = {{"M", m}, {"K", k}, {"N", n}};
    w.tensors = {
        Tensor{"P", {single(0), single(1)}, false, std::move(p)},
        Tensor{"Q", {single(1), single(2)}, false, std::move(q)},
        Tensor{"Z", {single(0), single(2)}, true, DensitySpec{}},
    };
    return w;
}

Workload makeBatchedSpmm(std::string name, std::int64_t b, std::int64_t m, std::int64_t k, std::int64_t n,
                         DensitySpec p, DensitySpec q)
{
    Workload w;
    w.name = std::move(name);
    w.kind = WorkloadKind::BatchedSpMM;
    w.dims = {{"B", b}, {"M", m}, {"K", k}, {"N", n}};
    w.tensors = {
        Tensor{"P", {single(0), single(1), single(2)}, false, std::move(p)},
        Tensor{"Q", {single(0), single(2), single(3)}, false, std::move(q)},
        Tensor{"Z", {single(0), single(1), single(3)}, true, DensitySpec{}},
    };
    return w;
}

std::int64_t convOutputSize(std::int64_t in, std::int64_t filter, std::int64_t stride, bool same,
                            std::int64_t pad)
{
    if (stride <= 0)
        return 0;
    if (same)
        return (in + stride - 1) / stride;
    const std::int64_t span = in + 2 * pad - filter;
    return span < 0 ? 0 : span / stride + 1;
}

Workload makeSpconv(std::string name, const ConvShape& s, DensitySpec input, DensitySpec weights)
{
    const std::int64_t p = convOutputSize(s.h, s.r, s.strideH, s.samePadding, s.padH);
    const std::int64_t q = convOutputSize(s.w, s.s, s.strideW, s.samePadding, s.padW);
    if (p <= 0 || q <= 0)
        throw InputError("convolution " + name + " has no output: filter " + std::to_string(s.r) + "x" +
                         std::to_string(s.s) + " does not fit input " + std::to_string(s.h) + "x" +
                         std::to_string(s.w) + " with the given padding and stride");
    Workload w;
    w.name = std::move(name);
    w.kind = WorkloadKind::SpConv;
    w.conv = s;
    const bool batched = s.n > 1;
    if (batched)
        w.dims.push_back({"N", s.n});
    const int base = batched ? 1 : 0;
    w.dims.push_back({"K", s.k});
    w.dims.push_back({"C", s.c});
    w.dims.push_back({"P", p});
    w.dims.push_back({"Q", q});
    w.dims.push_back({"R", s.r});
    w.dims.push_back({"S", s.s});
    const int K = base, C = base + 1, P = base + 2, Q = base + 3, R = base + 4, S = base + 5;

    Tensor in{"I", {}, false, std::move(input)};
    Tensor wt{"W", {single(K), single(C), single(R), single(S)}, false, std::move(weights)};
    Tensor out{"O", {}, true, DensitySpec{}};
    if (batched) {
        in.ranks.push_back(single(0));
        out.ranks.push_back(single(0));
    }
    in.ranks.push_back(single(C));
    in.ranks.push_back({ProjectionTerm{P, s.strideH}, ProjectionTerm{R, 1}});
    in.ranks.push_back({ProjectionTerm{Q, s.strideW}, ProjectionTerm{S, 1}});
    out.ranks.push_back(single(K));
    out.ranks.push_back(single(P));
    out.ranks.push_back(single(Q));
    w.tensors = {std::move(in), std::move(wt), std::move(out)};
    return w;
}

std::optional<std::int64_t> tensorPoints(const Workload& w, const Tensor& tensor)
{
    std::optional<std::int64_t> points = 1;
    for (const auto& rank : tensor.ranks) {
        // extent = 1 + sum of coefficient x (size - 1)
        std::optional<std::int64_t> extent = 1;
        for (const auto& term : rank) {
            if (term.dim < 0 || term.dim >= static_cast<int>(w.dims.size()))
                continue;
            const auto span = checkedMul(term.coefficient, w.dims[term.dim].size - 1);
            extent = extent && span ? checkedAdd(*extent, *span) : std::nullopt;
        }
        points = points && extent ? checkedMul(*points, *extent) : std::nullopt;
    }
    return points;
}

std::vector<std::string> workloadProblems(const Workload& w)
{
    std::vector<std::string> problems;
    if (w.dims.empty())
        problems.push_back("a workload needs at least one dimension");
    if (w.dims.size() > static_cast<std::size_t>(kMaxDims))
        problems.push_back("a workload has " + std::to_string(w.dims.size()) + " dimensions; at most " +
                           std::to_string(kMaxDims) + " are supported");
    std::optional<std::int64_t> macs = 1;
    for (std::size_t i = 0; i < w.dims.size(); ++i) {
        const auto& d = w.dims[i];
        if (d.name.empty())
            problems.push_back("dimension " + std::to_string(i) + " has no name");
        if (d.size <= 0 || d.size > kMaxDimSize)
            problems.push_back("dimension " + d.name + " has size " + std::to_string(d.size) +
                               "; sizes must be integers from 1 to 2^40 = " + std::to_string(kMaxDimSize));
        else if (macs)
            macs = checkedMul(*macs, d.size);
        for (std::size_t j = 0; j < i; ++j)
            if (w.dims[j].name == d.name)
                problems.push_back("dimension name " + d.name + " is used twice");
    }
    if (!macs || *macs > kMaxVolume)
        problems.push_back("the product of the dimension sizes (the dense MACs) exceeds 2^53 = " +
                           std::to_string(kMaxVolume) + ", the largest problem the model represents exactly");
    int outputs = 0;
    std::string outputNames;
    for (std::size_t t = 0; t < w.tensors.size(); ++t) {
        const auto& tensor = w.tensors[t];
        for (std::size_t u = 0; u < t; ++u)
            if (w.tensors[u].name == tensor.name)
                problems.push_back(
                    w.tensors[u].isOutput != tensor.isOutput
                        ? "tensor " + tensor.name +
                              " is both the output and an input; an output is written only (name the read "
                              "operand apart, e.g. " +
                              tensor.name + "_in)"
                        : "tensor name " + tensor.name + " is used twice");
        if (tensor.isOutput) {
            outputNames += (outputs == 0 ? "" : ", ") + tensor.name;
            ++outputs;
        }
        if (tensor.ranks.empty())
            problems.push_back("tensor " + tensor.name + " has no ranks");
        for (const auto& rank : tensor.ranks) {
            if (rank.empty())
                problems.push_back("tensor " + tensor.name + " has a rank with no index");
            for (const auto& term : rank) {
                if (term.dim < 0 || term.dim >= static_cast<int>(w.dims.size()))
                    problems.push_back("tensor " + tensor.name + " is indexed by an unknown dimension");
                if (term.coefficient <= 0 || term.coefficient > kMaxCoefficient)
                    problems.push_back("tensor " + tensor.name + " has index coefficient " +
                                       std::to_string(term.coefficient) +
                                       "; coefficients must be integers from 1 to 2^20 = " +
                                       std::to_string(kMaxCoefficient));
            }
        }
        if (const auto volume = tensorPoints(w, tensor); !volume || *volume > kMaxVolume)
            problems.push_back("tensor " + tensor.name +
                               " has more than 2^53 = " + std::to_string(kMaxVolume) +
                               " points (the product of its ranks' extents); the model cannot represent it");
        if (tensor.isOutput)
            continue;
        const auto& dens = tensor.density;
        if (!(dens.density > 0.0 && dens.density <= 1.0) || !std::isfinite(dens.density))
            problems.push_back("tensor " + tensor.name + " has density " + std::to_string(dens.density) +
                               "; densities must be in (0, 1]");
        if (dens.model == DensityModelKind::FixedStructured && dens.structuredM != 0 &&
            (dens.structuredN <= 0 || dens.structuredM < 0 || dens.structuredN > dens.structuredM))
            problems.push_back("tensor " + tensor.name +
                               " fixed-structured density needs 0 < n <= m (n nonzeros in every m)");
        if (dens.model == DensityModelKind::Banded && (dens.bandwidth < 0 || dens.bandwidth > kMaxDimSize))
            problems.push_back(
                "tensor " + tensor.name +
                " banded density needs a bandwidth from 0 to 2^40 = " + std::to_string(kMaxDimSize));
        if (dens.model == DensityModelKind::Actual && dens.file.empty())
            problems.push_back("tensor " + tensor.name + " actual density needs a file");
    }
    if (outputs > 1)
        problems.push_back("a workload needs exactly one output tensor (found " + std::to_string(outputs) +
                           ": " + outputNames + "); mark only the written tensor output: true");
    else if (outputs == 0)
        problems.push_back("a workload needs exactly one output tensor (found 0); mark the written tensor "
                           "output: true");
    if (const int inputs = static_cast<int>(w.tensors.size()) - outputs; inputs > kMaxInputs)
        problems.push_back("a workload has " + std::to_string(inputs) + " input tensors; at most " +
                           std::to_string(kMaxInputs) +
                           " are supported (the model weighs every mix of the inputs' states, 3^inputs "
                           "of them, for each design)");
    if (!w.tensors.empty() && static_cast<int>(w.tensors.size()) == outputs)
        problems.push_back("a workload needs at least one input tensor (" + outputNames +
                           " is only written); add a tensor with a density");
    for (std::size_t d = 0; d < w.dims.size(); ++d) {
        bool used = false;
        for (std::size_t t = 0; t < w.tensors.size() && !used; ++t)
            used = w.indexes(static_cast<int>(t), static_cast<int>(d));
        if (!used && !w.tensors.empty())
            problems.push_back("dimension " + w.dims[d].name + " indexes no tensor");
    }
    return problems;
}

} // namespace sparsemap
