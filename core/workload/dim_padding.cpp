#include "workload/dim_padding.hpp"

namespace sparsemap {

bool isPrime(std::int64_t n)
{
    if (n < 2)
        return false;
    for (std::int64_t d = 2; d * d <= n; ++d)
        if (n % d == 0)
            return false;
    return true;
}

std::vector<std::int64_t> primeFactors(std::int64_t n)
{
    std::vector<std::int64_t> factors;
    for (std::int64_t d = 2; d * d <= n; ++d)
        while (n % d == 0) {
            factors.push_back(d);
            n /= d;
        }
    if (n > 1)
        factors.push_back(n);
    return factors;
}

namespace {
bool isSmooth(std::int64_t n)
{
    for (std::int64_t p : {2, 3, 5, 7})
        while (n % p == 0)
            n /= p;
    return n == 1;
}
} // namespace

std::int64_t paddedSize(std::int64_t size, PaddingMode mode)
{
    if (size <= 1)
        return size;
    switch (mode) {
    case PaddingMode::None:
        return size;
    case PaddingMode::LargePrime: {
        if (size <= kLargePrimeThreshold || !isPrime(size))
            return size;
        std::int64_t n = size + 1;
        while (isPrime(n))
            ++n;
        return n;
    }
    case PaddingMode::Smooth: {
        std::int64_t n = size;
        while (!isSmooth(n))
            ++n;
        return n;
    }
    }
    return size;
}

std::string_view paddingModeName(PaddingMode mode)
{
    switch (mode) {
    case PaddingMode::None:
        return "none";
    case PaddingMode::LargePrime:
        return "large-prime";
    case PaddingMode::Smooth:
        return "smooth";
    }
    return "large-prime";
}

std::optional<PaddingMode> parsePaddingMode(std::string_view name)
{
    if (name == "none")
        return PaddingMode::None;
    if (name == "large-prime")
        return PaddingMode::LargePrime;
    if (name == "smooth")
        return PaddingMode::Smooth;
    return std::nullopt;
}

} // namespace sparsemap
