#include "genome/cantor.hpp"

#include "util/error.hpp"

namespace sparsemap {

std::int64_t factorial(int n)
{
    std::int64_t f = 1;
    for (int i = 2; i <= n; ++i)
        f *= i;
    return f;
}

std::int64_t cantorEncode(std::span<const int> order)
{
    const int d = static_cast<int>(order.size());
    if (d > kMaxCantorDims)
        throw InputError("loop orders of more than " + std::to_string(kMaxCantorDims) +
                         " dimensions cannot be Cantor-encoded");
    std::vector<bool> used(d, false);
    std::int64_t code = 1;
    for (int i = 0; i < d; ++i) {
        const int dim = order[i];
        if (dim < 0 || dim >= d || used[dim])
            throw InputError("loop order is not a permutation of the workload's dimensions");
        int rank = 0; // 0-based rank among the unused dims
        for (int j = 0; j < dim; ++j)
            if (!used[j])
                ++rank;
        used[dim] = true;
        code += rank * factorial(d - 1 - i);
    }
    return code;
}

void cantorDecodeInto(std::int64_t code, int dimCount, std::vector<int>& order)
{
    if (dimCount < 0 || dimCount > kMaxCantorDims)
        throw GenomeError("loop orders need between 0 and " + std::to_string(kMaxCantorDims) + " dimensions");
    const std::int64_t count = factorial(dimCount);
    if (code < 1 || code > count)
        throw GenomeError("permutation code " + std::to_string(code) + " is outside [1, " +
                          std::to_string(count) + "]");
    // Lehmer digits select among the unused dims, kept in a small array.
    int unused[kMaxCantorDims];
    for (int i = 0; i < dimCount; ++i)
        unused[i] = i;
    order.resize(static_cast<std::size_t>(dimCount));
    std::int64_t rest = code - 1;
    int left = dimCount;
    for (int i = 0; i < dimCount; ++i) {
        const std::int64_t weight = factorial(dimCount - 1 - i);
        const int rank = static_cast<int>(rest / weight);
        rest %= weight;
        order[i] = unused[rank];
        for (int j = rank; j + 1 < left; ++j)
            unused[j] = unused[j + 1];
        --left;
    }
}

std::vector<int> cantorDecode(std::int64_t code, int dimCount)
{
    std::vector<int> order;
    cantorDecodeInto(code, dimCount, order);
    return order;
}

} // namespace sparsemap
