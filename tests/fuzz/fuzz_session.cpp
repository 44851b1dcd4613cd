// libFuzzer target: the session YAML reader (a session embeds workloads, architectures, runs, pins).
#include "fuzz_support.hpp"
#include "io/session_io.hpp"

#include <cmath>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace sparsemap;
    try {
        const Session session = parseSessionYaml(std::string(reinterpret_cast<const char*>(data), size),
                                                 "fuzz.session.yaml", fuzz::sourcePath("tests/data/actual"));
        // What a session that loads holds: every point's metrics a design's (never NaN or negative; a
        // valid design's finite), as the plots and the Compare table assume.
        for (const auto& run : session.runs)
            for (const auto& p : run.result.points)
                for (const double x : {p.objective, p.cycles, p.energyPj, p.edp})
                    if (std::isnan(x) || x < 0 || (p.valid && !std::isfinite(x)))
                        std::abort();
    } catch (const InputError&) {
    }
    return 0;
}
