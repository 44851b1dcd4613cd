// libFuzzer target: a sweep folder's cell files (core/sweep/cell_store), the one file of the folder
// that is parsed (its sweep.txt is compared as a whole). The expected identity is the seed corpus's:
// the toy workload on the edge preset, `random`, seed 1, budget 50 (tests/data/fuzz/sweep_cell/).
#include "fuzz_support.hpp"
#include "sweep/cell_store.hpp"

#include <cmath>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace sparsemap;
    static const sweep::CellIdentity expected = [] {
        sweep::CellIdentity id;
        id.workload = "toy";
        id.workloadHash = "fnv1a64:3e0662f9daa7b33a";
        id.architecture = "edge";
        id.architectureHash = "fnv1a64:baa60e699bd4c0bd";
        id.method = "random";
        id.seed = 1;
        id.budget = 50;
        id.objective = "edp";
        id.padding = "large-prime";
        id.occupancyConfidence = 1;
        id.formatSpace = "dead";
        return id;
    }();
    try {
        const sweep::CellResult cell =
            sweep::parseCell(std::string(reinterpret_cast<const char*>(data), size), "fuzz.cell", expected);
        // What the reader accepts is what the summaries may rely on.
        const bool sane = !std::isnan(cell.best) && cell.validShare >= 0 && cell.validShare <= 1 &&
                          cell.evaluations >= 0 && cell.evaluations <= expected.budget;
        if (!sane)
            std::abort();
        for (std::size_t i = 1; i < cell.curve.size(); ++i)
            if (!(cell.curve[i] <= cell.curve[i - 1]))
                std::abort();
    } catch (const InputError&) {
    }
    return 0;
}
