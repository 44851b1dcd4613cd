// libFuzzer target: the Sparseloop case importer (the aggregated input: architecture, problem, sparse
// optimizations; the mapping and ERT of tests/data/sparseloop/tiny), then the model on the case.
#include "fuzz_support.hpp"
#include "io/sparseloop/sparseloop_import.hpp"
#include "model/evaluator.hpp"
#include "io/sparseloop/sparseloop_options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace sparsemap;
    const std::string input = fuzz::writeScratch(data, size, "-aggregated_input.yaml");
    try {
        const auto c = importSparseloopCase(input, fuzz::sourcePath("tests/data/sparseloop/tiny/map.yaml"),
                                            fuzz::sourcePath("tests/data/sparseloop/tiny/ERT.yaml"));
        model::Evaluator evaluator(c.workload, c.architecture, model::sparseloopModelOptions(c));
        fuzz::checkResult(evaluator.evaluate(model::sparseloopDesign(c)));
    } catch (const InputError&) {
    }
    return 0;
}
