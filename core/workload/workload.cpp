#include "workload/workload.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sparsemap {

int Workload::dimIndex(const std::string& dimName) const
{
    for (std::size_t i = 0; i < dims.size(); ++i)
        if (dims[i].name == dimName)
            return static_cast<int>(i);
    return -1;
}

std::vector<std::string> Workload::dimNames() const
{
    std::vector<std::string> out;
    for (const auto& d : dims)
        out.push_back(d.name);
    return out;
}

int Workload::tensorIndex(const std::string& tensorName) const
{
    for (std::size_t i = 0; i < tensors.size(); ++i)
        if (tensors[i].name == tensorName)
            return static_cast<int>(i);
    return -1;
}

std::vector<int> Workload::inputTensors() const
{
    std::vector<int> out;
    for (std::size_t i = 0; i < tensors.size(); ++i)
        if (!tensors[i].isOutput)
            out.push_back(static_cast<int>(i));
    return out;
}

int Workload::outputTensor() const
{
    for (std::size_t i = 0; i < tensors.size(); ++i)
        if (tensors[i].isOutput)
            return static_cast<int>(i);
    return -1;
}

bool Workload::indexes(int tensor, int dim) const
{
    for (const auto& rank : tensors.at(tensor).ranks)
        for (const auto& term : rank)
            if (term.dim == dim && term.coefficient != 0)
                return true;
    return false;
}

std::uint32_t Workload::dimMask(int tensor) const
{
    std::uint32_t mask = 0;
    for (const auto& rank : tensors.at(tensor).ranks)
        for (const auto& term : rank)
            if (term.coefficient != 0) {
                if (term.dim < 0 || term.dim >= 32)
                    throw std::logic_error("Workload::dimMask: dimension index outside 0..31");
                mask |= std::uint32_t{1} << term.dim;
            }
    return mask;
}

double Workload::denseMacs() const
{
    double macs = 1.0;
    for (const auto& d : dims)
        macs *= static_cast<double>(d.size);
    return macs;
}

std::string_view workloadKindName(WorkloadKind kind)
{
    switch (kind) {
    case WorkloadKind::SpMM:
        return "spmm";
    case WorkloadKind::SpConv:
        return "spconv";
    case WorkloadKind::BatchedSpMM:
        return "batched-spmm";
    case WorkloadKind::General:
        return "general";
    }
    return "general";
}

std::optional<WorkloadKind> parseWorkloadKind(std::string_view name)
{
    if (name == "spmm")
        return WorkloadKind::SpMM;
    if (name == "spconv")
        return WorkloadKind::SpConv;
    if (name == "batched-spmm")
        return WorkloadKind::BatchedSpMM;
    if (name == "general")
        return WorkloadKind::General;
    return std::nullopt;
}

std::vector<std::int64_t> tensorExtents(const Workload& w, int tensor)
{
    std::vector<std::int64_t> extents;
    for (const auto& rank : w.tensors[static_cast<std::size_t>(tensor)].ranks) {
        std::int64_t extent = 1;
        for (const auto& term : rank)
            extent += term.coefficient * (w.dims[static_cast<std::size_t>(term.dim)].size - 1);
        extents.push_back(extent);
    }
    return extents;
}

double tensorVolume(const Workload& w, int tensor)
{
    double volume = 1;
    for (const auto e : tensorExtents(w, tensor))
        volume *= static_cast<double>(e);
    return volume;
}

double derivedOutputDensity(const Workload& w)
{
    double product = 1, reduction = 1;
    for (const int t : w.inputTensors())
        product *= w.tensors[t].density.density;
    const int out = w.outputTensor();
    for (std::size_t d = 0; d < w.dims.size(); ++d)
        if (out < 0 || !w.indexes(out, static_cast<int>(d)))
            reduction *= static_cast<double>(w.dims[d].size);
    return std::clamp(1 - std::pow(1 - product, reduction), 1e-12, 1.0);
}

} // namespace sparsemap
