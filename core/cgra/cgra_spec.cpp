#include "cgra/cgra_spec.hpp"

#include "util/error.hpp"

#include <vector>

namespace sparsemap::cgra {

CgraSpec paperCgra()
{
    return CgraSpec{};
}

void validateCgra(const CgraSpec& cgra)
{
    std::vector<Diagnostic> problems;
    const auto require = [&](bool ok, const char* field, const std::string& allowed, int value) {
        if (!ok)
            problems.push_back({{},
                                0,
                                0,
                                std::string("cgra.") + field,
                                "is " + std::to_string(value) + "; must be " + allowed});
    };
    const std::string side = "an integer in 1.." + std::to_string(kMaxCgraSide);
    require(cgra.rows >= 1 && cgra.rows <= kMaxCgraSide, "rows", side, cgra.rows);
    require(cgra.cols >= 1 && cgra.cols <= kMaxCgraSide, "cols", side, cgra.cols);
    require(cgra.lrfCapacity >= 1 && cgra.lrfCapacity <= 1024, "lrf",
            "an integer in 1..1024 (weights live there)", cgra.lrfCapacity);
    require(cgra.grfCapacity >= 0 && cgra.grfCapacity <= 1024, "grf", "an integer in 0..1024",
            cgra.grfCapacity);
    if (!problems.empty())
        throw InputError(problems);
}

} // namespace sparsemap::cgra
