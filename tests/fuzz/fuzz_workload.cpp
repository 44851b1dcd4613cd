// libFuzzer target: the workload YAML reader, then a few designs of an accepted workload on the toy
// architecture.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace sparsemap;
    static const Architecture arch = fuzz::toyArchitecture();
    try {
        const Workload w = parseWorkloadYaml(std::string(reinterpret_cast<const char*>(data), size),
                                             "fuzz.yaml", fuzz::sourcePath("tests/data/actual"));
        const GenomeLayout layout(w, arch);
        fuzz::evaluateSome(layout, data, size);
    } catch (const InputError&) {
    }
    return 0;
}
