// Every malformed file in tests/data/bad/ is rejected with an InputError that points at the right line
// and says what is wrong. Each file states its expectation in its first line (tests/data/bad/README.md):
//   # expect: line 7: density must be in (0, 1]
#include "io/architecture_io.hpp"
#include "io/design_io.hpp"
#include "io/session_io.hpp"
#include "io/workload_io.hpp"
#include "util/error.hpp"
#include "workload/workload_factory.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include <sys/stat.h>

using namespace sparsemap;
namespace fs = std::filesystem;

namespace {

const fs::path kBadDir = fs::path(SPARSEMAP_SOURCE_DIR) / "tests" / "data" / "bad";

struct Expectation {
    int line = -1;
    std::string fragment;
};

// Parses `# expect: line N: fragment` from the first line of the file; line -1 when absent.
Expectation readExpectation(const fs::path& file)
{
    std::ifstream in(file);
    std::string first;
    std::getline(in, first);
    static const std::regex kPattern(R"(^# expect: line (\d+): (.+)$)");
    std::smatch match;
    if (!std::regex_match(first, match, kPattern))
        return {};
    return {std::stoi(match[1].str()), match[2].str()};
}

// The workload and architecture every bad design file is read against (see the README).
Workload designWorkload()
{
    return makeSpmm("spmm", 32, 64, 48, uniformDensity(0.5), uniformDensity(0.3));
}

Architecture designArchitecture()
{
    Architecture a;
    a.name = "test";
    StorageLevel dram;
    dram.name = "DRAM";
    dram.technology = "DRAM";
    dram.energy.set("read", 32);
    StorageLevel glb;
    glb.name = "GLB";
    glb.capacityBits = 128 * 1024 * 8;
    glb.energy.set("read", 0.7);
    StorageLevel pe;
    pe.name = "PE buffer";
    pe.instances = 16;
    pe.capacityBits = 1024 * 8;
    pe.energy.set("read", 0.15);
    a.levels = {dram, glb, pe};
    a.compute.instances = 64;
    a.compute.energy.set("mac_random", 0.06);
    return a;
}

// Loads `file` with the loader its folder calls for; returns normally only if loading succeeded.
void load(const fs::path& file)
{
    const std::string path = file.string();
    const std::string folder = file.parent_path().filename().string();
    if (folder == "design")
        loadDesignFile(path, designWorkload(), designArchitecture());
    else if (folder == "arch")
        loadArchitectureFile(path);
    else if (folder == "workload")
        loadWorkloadFile(path);
    else if (folder == "session")
        loadSessionFile(path);
    else
        throw std::logic_error("no loader for folder " + folder +
                               " (use workload/, arch/, design/ or session/)");
}

// The InputError `f` throws (a default one when it throws none: the caller's checks then fail).
template <typename F> InputError errorOf(F&& f)
{
    try {
        f();
    } catch (const InputError& e) {
        return e;
    }
    return InputError("(no error was thrown)");
}

} // namespace

class TestIoBadInputs : public QObject {
    Q_OBJECT
private slots:
    void folderHasEnoughCases()
    {
        int workloads = 0, arches = 0, designs = 0;
        for (const auto& entry : fs::recursive_directory_iterator(kBadDir)) {
            const std::string folder = entry.path().parent_path().filename().string();
            if (entry.path().extension() != ".yaml")
                continue;
            workloads += folder == "workload";
            arches += folder == "arch";
            designs += folder == "design";
        }
        QVERIFY2(workloads >= 20, qPrintable(QString::number(workloads)));
        QVERIFY2(arches >= 15, qPrintable(QString::number(arches)));
        QVERIFY2(designs >= 15, qPrintable(QString::number(designs)));
    }

    void designFixturesAreValid()
    {
        // The bad design files are only meaningful if the in-code workload and architecture are fine.
        QVERIFY(workloadProblems(designWorkload()).empty());
        QVERIFY(architectureProblems(designArchitecture()).empty());
        const GenomeLayout layout(designWorkload(), designArchitecture());
        QCOMPARE(layout.size(), 39);
    }

    void badFileIsRejected_data()
    {
        QTest::addColumn<QString>("file");
        std::vector<fs::path> files;
        for (const auto& entry : fs::recursive_directory_iterator(kBadDir))
            if (entry.is_regular_file() && entry.path().extension() == ".yaml")
                files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            const std::string name = fs::relative(f, kBadDir).string();
            QTest::newRow(name.c_str()) << QString::fromStdString(f.string());
        }
    }
    void badFileIsRejected()
    {
        QFETCH(QString, file);
        const fs::path path = file.toStdString();
        const Expectation expected = readExpectation(path);
        QVERIFY2(expected.line >= 0, "first line must be `# expect: line N: fragment`");
        if (path.parent_path().filename() == "design")
            QVERIFY2(path.filename().string().ends_with(".design.yaml"),
                     "design files are named *.design.yaml");
        try {
            load(path);
        } catch (const InputError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find(expected.fragment) != std::string::npos, e.what());
            bool found = false;
            for (const auto& d : e.diagnostics()) {
                QCOMPARE(d.file, path.string()); // every diagnostic names the file
                found = found ||
                        (d.line == expected.line && d.message.find(expected.fragment) != std::string::npos);
            }
            const std::string message = "no diagnostic at line " + std::to_string(expected.line) + " with `" +
                                        expected.fragment + "`; got:\n" + what;
            QVERIFY2(found, message.c_str());
            return;
        } catch (const std::exception& e) {
            QFAIL((std::string("threw something other than InputError: ") + e.what()).c_str());
        }
        QFAIL("the file was accepted");
    }

    // Issue 69 item 22: a density file that is a pipe (made here: git keeps no pipes; the folder and
    // /dev/zero cases are files above) is named as what it is, not as missing.
    void densityFileThatIsAPipe()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("matrix.mtx").toStdString();
        QVERIFY(::mkfifo(fifo.c_str(), 0666) == 0);
        const std::string workload = dir.filePath("w.yaml").toStdString();
        std::ofstream(workload) << "version: 1\nworkload:\n  name: w\n  type: spmm\n  M: 4\n  K: 4\n  N: 4\n"
                                   "  density:\n    P: 0.5\n    Q: {model: actual, file: matrix.mtx}\n";
        const InputError e = errorOf([&] { loadWorkloadFile(workload); });
        QCOMPARE(e.diagnostics().size(), std::size_t(1));
        QCOMPARE(e.diagnostics()[0].line, 10);
        QVERIFY2(std::string(e.what()).find("density file `" + fifo +
                                            "` is not a regular file (a device, pipe or socket)") !=
                     std::string::npos,
                 e.what());
    }

    // Issue 69 item 22: a raw NUL byte is named as such, where it is (line 3, column 10).
    void rawNulIsNamed()
    {
        const std::string text = std::string("version: 1\nworkload:\n  name: ab") + '\0' +
                                 "c\n  type: spmm\n  M: 4\n  K: 4\n  N: 4\n";
        const InputError e = errorOf([&] { parseWorkloadYaml(text, "nul.yaml"); });
        QCOMPARE(e.diagnostics().size(), std::size_t(1));
        QCOMPARE(e.diagnostics()[0].line, 3);
        QCOMPARE(e.diagnostics()[0].column, 11);
        QVERIFY2(e.diagnostics()[0].message.starts_with("a raw NUL character (byte 0) is not allowed"),
                 e.what());
    }

    // Issue 69 item 22: lists nested 1000 deep are refused as nested too deeply, not "bad file".
    void deepNestingIsNamed()
    {
        const std::string text =
            "version: 1\nworkload:\n  name: " + std::string(1000, '[') + std::string(1000, ']') + "\n";
        const InputError e = errorOf([&] { parseWorkloadYaml(text, "deep.yaml"); });
        QCOMPARE(e.diagnostics().size(), std::size_t(1));
        QCOMPARE(e.diagnostics()[0].line, 3);
        QVERIFY2(e.diagnostics()[0].message.starts_with(
                     "maps and lists are nested too deeply here: the YAML reader reads at most "),
                 e.what());
        QVERIFY(std::string(e.what()).find("bad file") == std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestIoBadInputs)
#include "test_io_bad_inputs.moc"
