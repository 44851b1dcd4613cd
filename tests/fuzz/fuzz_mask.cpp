// libFuzzer target: the CGRA block reader (.mask: a C x K 0/1 weight mask).
#include "cgra/block_file.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace sparsemap;
    try {
        const auto block =
            cgra::parseBlockText(std::string(reinterpret_cast<const char*>(data), size), "fuzz.mask");
        fuzz::check(block.channels >= 1 && block.channels <= cgra::kMaxBlockSide, "channels in range");
        fuzz::check(block.kernels >= 1 && block.kernels <= cgra::kMaxBlockSide, "kernels in range");
    } catch (const InputError&) {
    }
    return 0;
}
