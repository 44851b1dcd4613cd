// A small mutation driver for the fuzz targets when the compiler has no libFuzzer (g++, the Debian
// toolchain CI builds with). It runs every seed of a corpus folder, then a bounded number of mutated
// inputs: byte flips, deletions, duplications, splices of two seeds, and "interesting" values (limits,
// nan, huge and negative numbers, control characters) written over a number or inserted. The mutations
// are drawn from a fixed seed, so a run is reproducible; before each execution the input is written to
// `<artifact-prefix>current`, so that a crash (or a sanitizer report) leaves its input behind.
//
// Usage: fuzz_<target> <corpus-dir> [-runs=N] [-seed=S] [-artifact_prefix=P] [-max_len=L]
// (the libFuzzer option spellings, so that tests/fuzz/run_fuzz_target.sh drives either kind).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

using Bytes = std::string;

const char* const kInteresting[] = {"0",
                                    "-1",
                                    "-5",
                                    "1e-300",
                                    "1e308",
                                    "nan",
                                    "inf",
                                    "-inf",
                                    "1e-20",
                                    "1e-7",
                                    "33",
                                    "64",
                                    "65",
                                    "4294967296",
                                    "9223372036854775807",
                                    "-9223372036854775808",
                                    "1099511627776",
                                    "1099511627777",
                                    "1000000",
                                    "4611686018427387904",
                                    "0.5",
                                    "1",
                                    "2",
                                    "\x1b[2J",
                                    "\x1b]0;t\x07",
                                    "\n",
                                    "\r",
                                    "\t",
                                    "",
                                    "\"",
                                    "'",
                                    "{",
                                    "}",
                                    "[",
                                    "]",
                                    ":",
                                    "- ",
                                    "#",
                                    "&a",
                                    "*a",
                                    "!!",
                                    "%"};

bool isNumberChar(char c)
{
    return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
}

Bytes mutate(const std::vector<Bytes>& seeds, std::mt19937_64& rng, std::size_t maxLen)
{
    auto pick = [&](std::size_t n) { return n == 0 ? std::size_t{0} : std::size_t(rng() % n); };
    Bytes s = seeds[pick(seeds.size())];
    const int steps = 1 + int(rng() % 4);
    for (int k = 0; k < steps; ++k) {
        switch (rng() % 7) {
        case 0: // flip a bit
            if (!s.empty())
                s[pick(s.size())] ^= char(1u << (rng() % 8));
            break;
        case 1: { // delete a range
            if (s.empty())
                break;
            const std::size_t at = pick(s.size());
            s.erase(at, 1 + pick(std::min<std::size_t>(16, s.size() - at)));
            break;
        }
        case 2: { // duplicate a range
            if (s.empty())
                break;
            const std::size_t at = pick(s.size());
            const Bytes piece = s.substr(at, 1 + pick(32));
            s.insert(pick(s.size() + 1), piece);
            break;
        }
        case 3: { // splice with another seed
            const Bytes& other = seeds[pick(seeds.size())];
            const std::size_t cut = pick(s.size() + 1), from = pick(other.size() + 1);
            s = s.substr(0, cut) + other.substr(from);
            break;
        }
        case 4:
        case 5: { // overwrite a number with an interesting value
            std::vector<std::size_t> starts;
            for (std::size_t i = 0; i < s.size(); ++i)
                if (isNumberChar(s[i]) && (i == 0 || !isNumberChar(s[i - 1])) && s[i] != 'e' && s[i] != 'E')
                    starts.push_back(i);
            if (starts.empty())
                break;
            const std::size_t at = starts[pick(starts.size())];
            std::size_t end = at;
            while (end < s.size() && isNumberChar(s[end]))
                ++end;
            s.replace(at, end - at, kInteresting[pick(std::size(kInteresting))]);
            break;
        }
        default: // insert an interesting value
            s.insert(pick(s.size() + 1), kInteresting[pick(std::size(kInteresting))]);
        }
    }
    if (s.size() > maxLen)
        s.resize(maxLen);
    return s;
}

void writeFile(const std::string& path, const Bytes& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

} // namespace

int main(int argc, char** argv)
{
    std::string corpus, prefix = "./";
    long long runs = 2000;
    unsigned long long seed = 1;
    std::size_t maxLen = 8192;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("-runs=", 0) == 0)
            runs = std::atoll(a.c_str() + 6);
        else if (a.rfind("-seed=", 0) == 0)
            seed = std::strtoull(a.c_str() + 6, nullptr, 10);
        else if (a.rfind("-artifact_prefix=", 0) == 0)
            prefix = a.substr(17);
        else if (a.rfind("-max_len=", 0) == 0)
            maxLen = std::size_t(std::atoll(a.c_str() + 9));
        else if (!a.empty() && a[0] == '-')
            continue; // other libFuzzer options mean nothing here
        else
            corpus = a;
    }
    if (corpus.empty()) {
        std::fprintf(stderr, "usage: %s <corpus-dir> [-runs=N] [-seed=S] [-artifact_prefix=P]\n", argv[0]);
        return 2;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(corpus))
        if (entry.is_regular_file())
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::vector<Bytes> seeds;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (seeds.empty())
        seeds.emplace_back();
    const std::string current = prefix + "current";
    const auto start = std::chrono::steady_clock::now();
    for (const auto& s : seeds) {
        writeFile(current, s);
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
    }
    std::mt19937_64 rng(seed);
    for (long long r = 0; r < runs; ++r) {
        const Bytes s = mutate(seeds, rng, maxLen);
        writeFile(current, s);
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
    }
    std::filesystem::remove(current);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("fuzz driver: %zu seeds and %lld mutated inputs in %.1f s, no finding\n", seeds.size(), runs,
                seconds);
    return 0;
}
