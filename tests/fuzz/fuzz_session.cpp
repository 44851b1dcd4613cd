// libFuzzer target: the session YAML reader (a session embeds workloads, architectures, runs, pins).
#include "fuzz_support.hpp"
#include "io/session_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace sparsemap;
    try {
        parseSessionYaml(std::string(reinterpret_cast<const char*>(data), size), "fuzz.session.yaml",
                         fuzz::sourcePath("tests/data/actual"));
    } catch (const InputError&) {
    }
    return 0;
}
