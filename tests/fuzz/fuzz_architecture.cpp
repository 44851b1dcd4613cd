// libFuzzer target: the architecture YAML reader, then a few designs of the toy SpMM on an accepted
// architecture.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace sparsemap;
    static const Workload workload = fuzz::toyWorkload();
    try {
        const Architecture arch =
            parseArchitectureYaml(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
        const GenomeLayout layout(workload, arch);
        fuzz::evaluateSome(layout, data, size);
    } catch (const InputError&) {
    }
    return 0;
}
