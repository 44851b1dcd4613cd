// libFuzzer target: the design YAML reader against the toy SpMM on the toy architecture, then the
// model on an accepted design; and the reader of a design's embedded inputs.
#include "fuzz_support.hpp"
#include "io/design_io.hpp"
#include "model/evaluator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace sparsemap;
    static const Workload workload = fuzz::toyWorkload();
    static const Architecture arch = fuzz::toyArchitecture();
    static model::Evaluator evaluator(workload, arch);
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const auto document = parseDesignYaml(text, workload, arch, "fuzz.yaml");
        fuzz::checkResult(evaluator.evaluate(document.design));
    } catch (const InputError&) {
    }
    try { // the embedded workload and architecture (`inputs`) of a self-contained design file
        (void)parseDesignInputs(text, "fuzz.yaml");
    } catch (const InputError&) {
    }
    return 0;
}
