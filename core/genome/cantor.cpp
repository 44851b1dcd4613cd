#include "genome/cantor.hpp"

#include "util/error.hpp"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace sparsemap {

namespace {

// 0! .. 20! (20! is the largest that fits an int64_t); the decoder asks for them per loop.
constexpr auto kFactorials = [] {
    std::array<std::int64_t, kMaxCantorDims + 1> f{};
    f[0] = 1;
    for (int i = 1; i <= kMaxCantorDims; ++i)
        f[static_cast<std::size_t>(i)] = f[static_cast<std::size_t>(i - 1)] * i;
    return f;
}();

} // namespace

std::int64_t factorial(int n)
{
    if (n < 0 || n > kMaxCantorDims)
        throw std::out_of_range("factorial(" + std::to_string(n) + "): an int64 holds 0! .. " +
                                std::to_string(kMaxCantorDims) + "! only");
    return kFactorials[static_cast<std::size_t>(n)];
}

std::int64_t cantorEncode(std::span<const int> order)
{
    const int d = static_cast<int>(order.size());
    if (d > kMaxCantorDims)
        throw InputError("loop orders of more than " + std::to_string(kMaxCantorDims) +
                         " dimensions cannot be Cantor-encoded");
    std::uint32_t used = 0; // a bit per dim placed (d <= kMaxCantorDims < 32)
    std::int64_t code = 1;
    for (int i = 0; i < d; ++i) {
        const int dim = order[i];
        if (dim < 0 || dim >= d || ((used >> dim) & 1u))
            throw InputError("loop order is not a permutation of the workload's dimensions");
        int rank = 0; // 0-based rank among the unused dims
        for (int j = 0; j < dim; ++j)
            if (!((used >> j) & 1u))
                ++rank;
        used |= std::uint32_t{1} << dim;
        code += rank * kFactorials[static_cast<std::size_t>(d - 1 - i)];
    }
    return code;
}

void cantorDecodeInto(std::int64_t code, int dimCount, std::vector<int>& order)
{
    if (dimCount < 0 || dimCount > kMaxCantorDims)
        throw GenomeError("loop orders need between 0 and " + std::to_string(kMaxCantorDims) + " dimensions");
    order.resize(static_cast<std::size_t>(dimCount));
    cantorDecodeInto(code, dimCount, std::span<int>(order));
}

void cantorDecodeInto(std::int64_t code, int dimCount, std::span<int> order)
{
    if (dimCount < 0 || dimCount > kMaxCantorDims || order.size() != static_cast<std::size_t>(dimCount))
        throw GenomeError("loop orders need between 0 and " + std::to_string(kMaxCantorDims) +
                          " dimensions, decoded into as many places");
    const std::int64_t count = kFactorials[static_cast<std::size_t>(dimCount)];
    if (code < 1 || code > count)
        throw GenomeError("permutation code " + std::to_string(code) + " is outside [1, " +
                          std::to_string(count) + "]");
    // Lehmer digits select among the unused dims, kept in a small array.
    int unused[kMaxCantorDims];
    for (int i = 0; i < dimCount; ++i)
        unused[i] = i;
    std::int64_t rest = code - 1;
    int left = dimCount;
    for (int i = 0; i < dimCount; ++i) {
        const std::int64_t weight = kFactorials[static_cast<std::size_t>(dimCount - 1 - i)];
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
