#pragma once
// A tensor-algebra problem: named dimensions (the loops), tensors with affine projections from the
// dimensions onto their ranks, which tensors are inputs and which is the output, and input densities.
// SpMM, SpConv and batched SpMM are built by the factories in workload_factory.hpp; a general
// workload is any such description (an Einsum with affine indices).
#include "workload/density.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sparsemap {

struct Dimension {
    std::string name;
    std::int64_t size = 1;
    bool operator==(const Dimension&) const = default;
};

// One term of an affine index expression: coefficient * dim.
struct ProjectionTerm {
    int dim = 0;
    std::int64_t coefficient = 1;
    bool operator==(const ProjectionTerm&) const = default;
};

// The index of one tensor rank: sum of terms (e.g. H = 2*P + R).
using RankProjection = std::vector<ProjectionTerm>;

struct Tensor {
    std::string name;
    std::vector<RankProjection> ranks; // outer to inner
    bool isOutput = false;
    DensitySpec density; // meaningful for inputs; the output density is derived by the model...
    // ...unless declared: Sparseloop's files give an output's density (or leave it dense, their
    // default), and a design read from them is scored with that density.
    bool densityDeclared = false;

    bool operator==(const Tensor&) const = default;
};

enum class WorkloadKind { SpMM, SpConv, BatchedSpMM, General };

// The user-facing parameters of a convolution, kept so that a SpConv workload is saved in the same
// short form it was written in.
struct ConvShape {
    std::int64_t n = 1, c = 1, h = 1, w = 1, k = 1, r = 1, s = 1;
    std::int64_t strideH = 1, strideW = 1;
    bool samePadding = true;         // output P = ceil(H / stride), Q = ceil(W / stride)
    std::int64_t padH = 0, padW = 0; // explicit zero padding when !samePadding
    bool operator==(const ConvShape&) const = default;
};

struct Workload {
    std::string name;
    WorkloadKind kind = WorkloadKind::General;
    std::vector<Dimension> dims;
    std::vector<Tensor> tensors;
    std::optional<ConvShape> conv; // SpConv only

    int dimIndex(const std::string& name) const;    // -1 if absent
    std::vector<std::string> dimNames() const;      // in order
    int tensorIndex(const std::string& name) const; // -1 if absent
    std::vector<int> inputTensors() const;          // in declaration order
    int outputTensor() const;                       // -1 if none
    // True when some rank of `tensor` is indexed by `dim`.
    bool indexes(int tensor, int dim) const;
    // The dims indexing `tensor` as a bit mask (bit d = dim d); needs at most 32 dims (kMaxDims, which
    // workloadProblems enforces), otherwise throws std::logic_error.
    std::uint32_t dimMask(int tensor) const;
    // Number of multiply-accumulates of the dense problem (product of dim sizes).
    double denseMacs() const;

    bool operator==(const Workload&) const = default;
};

// The extent of every rank of `tensor` (outer to inner; an affine rank spans sum c * (size - 1) + 1)
// and their product.
std::vector<std::int64_t> tensorExtents(const Workload& w, int tensor);
double tensorVolume(const Workload& w, int tensor);

// The density the model derives for the output: an output element is nonzero when any of its
// reduction terms is, each nonzero with the product of the input densities (uniform inputs).
double derivedOutputDensity(const Workload& w);

std::string_view workloadKindName(WorkloadKind kind);
std::optional<WorkloadKind> parseWorkloadKind(std::string_view name);

} // namespace sparsemap
