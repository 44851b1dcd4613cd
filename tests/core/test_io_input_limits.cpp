// Inputs whose bytes are within the file cap but whose work is not: each is refused with a message
// before its memory is spent. The memory checks run the read in a child process whose address space is
// capped a little above what the parent already maps, so a reader that builds the whole input (tens of
// GB for a flow list, a whole 200 MB line) fails there with bad_alloc instead of passing.
#include "io/nonzero_pattern_io.hpp"
#include "io/workload_io.hpp"
#include "io/yaml_reader.hpp"
#include "search/search_context.hpp"
#include "util/error.hpp"
#include "util/file_io.hpp"
#include "util/limits.hpp"
#include "workload/workload_factory.hpp"
#include "sample_inputs.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <functional>
#include <new>
#include <string>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace sparsemap;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// The process's mapped bytes now (/proc/self/statm, first field, in pages).
std::size_t mappedBytes()
{
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0;
    statm >> pages;
    return pages * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

enum ChildOutcome { kRefused = 0, kOutOfMemory = 3, kAccepted = 4, kOther = 5 };

// Runs `read` in a child whose address space may grow by `headroom` bytes; returns how it ended.
int readWithCappedMemory(const std::function<void()>& read, std::size_t headroom)
{
    const std::size_t cap = mappedBytes() + headroom;
    const pid_t pid = ::fork();
    if (pid == 0) {
        const rlimit limit{cap, cap};
        ::setrlimit(RLIMIT_AS, &limit);
        int code = kAccepted;
        try {
            read();
        } catch (const InputError&) {
            code = kRefused;
        } catch (const std::bad_alloc&) {
            code = kOutOfMemory;
        } catch (...) {
            code = kOther;
        }
        ::_exit(code);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : kOther;
}

std::string messageOf(const std::function<void()>& read)
{
    try {
        read();
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

// A workload file whose `dims` is a flow list of `count` numbers (not a valid workload either way: the
// point is which error comes first, and at what cost).
std::string flowListWorkload(std::size_t count)
{
    std::string text = "version: 1\nworkload:\n  name: big\n  type: general\n  dims: [";
    text.reserve(text.size() + 2 * count + 4);
    for (std::size_t i = 0; i < count; ++i)
        text += i ? ",1" : "1";
    text += "]\n";
    return text;
}

} // namespace

class TestIoInputLimits : public QObject {
    Q_OBJECT

private slots:
    // kMaxYamlNodes + a few nodes: refused with the limit named, at the line of the node past it.
    void yamlWithTooManyNodesIsRefused()
    {
        const std::string text = flowListWorkload(detail::kMaxYamlNodes + 10);
        const std::string message = messageOf([&] { parseWorkloadYaml(text, "big.yaml"); });
        QVERIFY2(message.find("big.yaml:5:") != std::string::npos, message.c_str());
        QVERIFY2(message.find("more than 1000000 YAML values") != std::string::npos, message.c_str());
        // Just under the limit the file is read (and then refused for what it says, not its size).
        const std::string small = flowListWorkload(detail::kMaxYamlNodes - 20);
        const std::string other = messageOf([&] { parseWorkloadYaml(small, "small.yaml"); });
        QVERIFY2(!other.empty() && other.find("YAML values") == std::string::npos, other.c_str());
    }

    // 5 million nodes (10 MB of text) would take ~2.4 GB as yaml-cpp nodes; the count stops at the
    // limit with the memory of the text and the parser only.
    void yamlNodeLimitBoundsMemory()
    {
        if (kSanitized)
            QSKIP("address-space caps do not apply under AddressSanitizer");
        const std::string text = flowListWorkload(5'000'000);
        QCOMPARE(readWithCappedMemory([&] { parseWorkloadYaml(text, "big.yaml"); }, std::size_t{400} << 20),
                 int(kRefused));
    }

    // A density file of one 200 MB line (NUL bytes): refused at 16 MiB of it, not after reading it all.
    void densityLineIsRefusedBeforeItIsRead()
    {
        if (kSanitized)
            QSKIP("address-space caps do not apply under AddressSanitizer");
        QTemporaryDir dir;
        const std::string path = dir.filePath("nul.txt").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            const std::string block(std::size_t{1} << 20, '\0');
            for (int i = 0; i < 200; ++i)
                out.write(block.data(), static_cast<std::streamsize>(block.size()));
        }
        const std::string message = messageOf([&] { readNonzeroPattern(path); });
        QVERIFY2(message.find(":1:") != std::string::npos &&
                     message.find("line longer than 16 MiB") != std::string::npos,
                 message.c_str());
        QCOMPARE(readWithCappedMemory([&] { readNonzeroPattern(path); }, std::size_t{96} << 20),
                 int(kRefused));
    }

    // The 256 MiB cap of every input applies to density files too (a sparse file: no disk used).
    void densityFileLargerThanTheInputCapIsRefused()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("huge.mtx").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out << "%%MatrixMarket matrix coordinate pattern general\n";
        }
        std::filesystem::resize_file(path, kMaxTextFileBytes + 1);
        const std::string message = messageOf([&] { readNonzeroPattern(path); });
        QVERIFY2(message.find("the density file is 256 MiB; at most 256 MiB are read") != std::string::npos,
                 message.c_str());
    }

    // An Einsum of k inputs: the compute analysis weighs 3^k operand-state mixes per design, so at
    // most kMaxInputs = 8 inputs are read; 9, 20 and 50 are refused at read time with the count.
    void einsumInputsAreBoundedAtReadTime()
    {
        const auto einsum = [](int inputs) {
            std::string text = "version: 1\nworkload:\n  name: many\n  type: general\n  dims: {I: 4, J: 4}\n"
                               "  tensors:\n";
            for (int i = 0; i < inputs; ++i)
                text += "    - {name: A" + std::to_string(i) + ", ranks: [I, J], density: 0.5}\n";
            text += "    - {name: Z, ranks: [I], output: true}\n";
            return text;
        };
        const Workload eight = parseWorkloadYaml(einsum(8), "eight.yaml");
        QCOMPARE(int(eight.inputTensors().size()), 8);
        for (const int inputs : {9, 20, 50}) {
            const std::string message = messageOf([&] { parseWorkloadYaml(einsum(inputs), "many.yaml"); });
            const std::string expected =
                "a workload has " + std::to_string(inputs) + " input tensors; at most 8 are supported";
            QVERIFY2(message.find("many.yaml") != std::string::npos &&
                         message.find(expected) != std::string::npos,
                     message.c_str());
        }
    }

    // A run's budget: at most kMaxBudget evaluations (10 million, ~4 GB of points); the context refuses
    // more before it reserves anything.
    void budgetIsBounded()
    {
        QCOMPARE(kMaxBudget, std::int64_t{10'000'000});
        const auto layout = test::sampleLayout("mm3", "edge");
        search::SearchSettings settings;
        settings.budget = 100'000'000;
        const std::string message = messageOf([&] { search::SearchContext context(layout, settings); });
        QVERIFY2(message.find("budget must be 0..10000000") != std::string::npos, message.c_str());
        settings.budget = 1000;
        search::SearchContext accepted(layout, settings);
        QCOMPARE(accepted.settings().budget, std::int64_t{1000});
    }
};

QTEST_APPLESS_MAIN(TestIoInputLimits)
#include "test_io_input_limits.moc"
