#pragma once
// Builders for the workload families of the SparseMap paper. Each returns a fully described
// general Workload (dims, tensors with projections, densities) tagged with its kind.
#include "workload/workload.hpp"

#include <optional>

namespace sparsemap {

// Z[m,n] += P[m,k] * Q[k,n]; dims M, K, N in that order.
Workload makeSpmm(std::string name, std::int64_t m, std::int64_t k, std::int64_t n, DensitySpec p,
                  DensitySpec q);

// Z[b,m,n] += P[b,m,k] * Q[b,k,n]; dims B, M, K, N (paper Fig. 15).
Workload makeBatchedSpmm(std::string name, std::int64_t b, std::int64_t m, std::int64_t k, std::int64_t n,
                         DensitySpec p, DensitySpec q);

// O[n,k,p,q] += I[n,c,p*sh+r,q*sw+s] * W[k,c,r,s]; dims (N when > 1), K, C, P, Q, R, S.
// I is operand 1 (the paper's P), W operand 2 (Q), O the output (Z). Throws InputError when the
// shape gives no output (e.g. a filter larger than the padded input).
Workload makeSpconv(std::string name, const ConvShape& shape, DensitySpec input, DensitySpec weights);

// Output extent of a convolution along one axis.
std::int64_t convOutputSize(std::int64_t in, std::int64_t filter, std::int64_t stride, bool same,
                            std::int64_t pad);

// Semantic checks every workload must pass, whatever its source. Returns one message per problem
// (empty when valid): positive sizes, exactly one output, projections onto existing dims, input
// densities in (0, 1], model parameters consistent, and the limits of util/limits.hpp (dimension
// count and sizes, coefficients, problem and tensor volumes, band widths).
std::vector<std::string> workloadProblems(const Workload& workload);

// The number of points of `tensor` (the product of its ranks' extents), or nullopt when that overflows
// an int64.
std::optional<std::int64_t> tensorPoints(const Workload& workload, const Tensor& tensor);

DensitySpec uniformDensity(double density);

} // namespace sparsemap
