// libFuzzer target: the design YAML reader against the toy SpMM on the toy architecture, then the
// model on an accepted design.
#include "fuzz_support.hpp"
#include "io/design_io.hpp"
#include "model/evaluator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace sparsemap;
    static const Workload workload = fuzz::toyWorkload();
    static const Architecture arch = fuzz::toyArchitecture();
    static model::Evaluator evaluator(workload, arch);
    try {
        const auto document = parseDesignYaml(std::string(reinterpret_cast<const char*>(data), size),
                                              workload, arch, "fuzz.yaml");
        fuzz::checkResult(evaluator.evaluate(document.design));
    } catch (const InputError&) {
    }
    return 0;
}
