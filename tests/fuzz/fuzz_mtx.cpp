// libFuzzer target: the nonzero-pattern reader of the `actual` density model (Matrix Market .mtx and
// 0/1 masks).
#include "fuzz_support.hpp"
#include "io/nonzero_pattern_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace sparsemap;
    const std::string path = fuzz::writeScratch(data, size, ".mtx");
    try {
        const auto pattern = readNonzeroPattern(path);
        fuzz::check(pattern.rows >= 1 && pattern.columns >= 1, "a pattern has a shape");
        for (const auto nz : pattern.nonzeros)
            fuzz::check(nz >= 0 && nz / pattern.columns < pattern.rows, "nonzeros inside the matrix");
    } catch (const InputError&) {
    }
    return 0;
}
