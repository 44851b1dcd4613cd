// Save -> load round trips of workloads, architectures and designs (docs/file-formats.md), the units
// of architecture files, the presets, and crash-safe saving.
#include "genome/genome_codec.hpp"
#include "genome/sg_gene.hpp"
#include "io/architecture_io.hpp"
#include "io/design_io.hpp"
#include "io/nonzero_pattern_io.hpp"
#include "model/density/density_model_factory.hpp"
#include "model/evaluator.hpp"
#include "util/file_io.hpp"
#include "io/workload_io.hpp"
#include "util/error.hpp"
#include "workload/workload_factory.hpp"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <random>

#include <sys/stat.h>
#include <unistd.h>

using namespace sparsemap;
namespace fs = std::filesystem;

Q_DECLARE_METATYPE(sparsemap::Workload)

namespace {

Architecture testArchitecture()
{
    Architecture a;
    a.name = "test-arch";
    a.clockGHz = 0.8;
    StorageLevel dram;
    dram.name = "DRAM";
    dram.technology = "DRAM";
    dram.readBandwidth = 17.179869184;
    dram.writeBandwidth = 8.5;
    dram.energy.set("read", 32);
    dram.energy.set("metadata_read", 32.5);
    StorageLevel glb;
    glb.name = "GLB";
    glb.capacityBits = 128 * 1024 * 8;
    glb.metadataCapacityBits = 3 * 1024 * 8;
    glb.wordBits = 16;
    glb.metadataWordBits = 4;
    glb.blockSize = 4;
    glb.readBandwidth = 32;
    glb.writeBandwidth = 0.1;
    glb.energy.set("write", 0.77);
    glb.energy.set("read", 0.7);
    glb.energy.set("gated_read", 0.007);
    StorageLevel pe;
    pe.name = "PE buffer";
    pe.technology = "regfile";
    pe.instances = 16;
    pe.meshX = 4;
    pe.capacityBits = 1000; // not a whole number of bytes: saved in bits
    pe.readBandwidth = 2;
    pe.writeBandwidth = 1;
    pe.energy.set("read", 0.15);
    a.levels = {dram, glb, pe};
    a.compute.name = "MAC8";
    a.compute.instances = 64;
    a.compute.meshX = 8;
    a.compute.energy.set("mac_random", 0.06);
    a.compute.energy.set("mac_gated", 0.002);
    return a;
}

DensitySpec structured(int n, int m)
{
    DensitySpec d;
    d.model = DensityModelKind::FixedStructured;
    d.structuredN = n;
    d.structuredM = m;
    d.density = static_cast<double>(n) / m; // what the loader derives
    return d;
}

DensitySpec banded(std::int64_t width, double inside)
{
    DensitySpec d;
    d.model = DensityModelKind::Banded;
    d.bandwidth = width;
    d.density = inside;
    return d;
}

// O[k,p,q] += I[c, 2*p + r, 2*q + s] * W[k,c,r,s] as a general workload.
Workload generalConv()
{
    Workload w;
    w.name = "general-conv";
    w.dims = {{"K", 16}, {"C", 8}, {"P", 7}, {"Q", 7}, {"R", 3}, {"S", 3}};
    w.tensors = {
        Tensor{"I", {{{1, 1}}, {{2, 2}, {4, 1}}, {{3, 2}, {5, 1}}}, false, banded(2, 0.25)},
        Tensor{"W", {{{0, 1}}, {{1, 1}}, {{4, 1}}, {{5, 1}}}, false, structured(2, 4)},
        Tensor{"O", {{{0, 1}}, {{2, 1}}, {{3, 1}}}, true, DensitySpec{}},
    };
    return w;
}

void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
}

std::string fileText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::size_t filesIn(const std::string& dir)
{
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
        ++n;
    return n;
}

// Removes the line starting with `prefix` (after indentation) from a YAML text.
std::string withoutLine(const std::string& text, const std::string& prefix)
{
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line))
        if (line.find_first_not_of(' ') == std::string::npos ||
            line.compare(line.find_first_not_of(' '), prefix.size(), prefix) != 0)
            out += line + "\n";
    return out;
}

// A random design of a 32x64x48 SpMM on testArchitecture(), drawn with `seed`: what the design-file
// round trips write and read back.
struct RandomSpmmDesign {
    explicit RandomSpmmDesign(std::uint64_t seed)
        : workload(makeSpmm("mm", 32, 64, 48, uniformDensity(0.3), uniformDensity(0.6))),
          layout(workload, testArchitecture())
    {
        std::mt19937_64 rng(seed);
        genome = randomGenome(layout, rng);
        design = decodeGenome(layout, genome);
    }
    Workload workload;
    GenomeLayout layout;
    Genome genome;
    Design design;
};

} // namespace

class TestIoRoundTrip : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string dir() const { return m_dir.path().toStdString(); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        writeFile(dir() + "/mask.mtx", "%%MatrixMarket matrix coordinate pattern general\n4 4 2\n1 1\n3 2\n");
    }

    void workloadRoundTrips_data()
    {
        QTest::addColumn<Workload>("workload");
        QTest::addColumn<QString>("type");
        ConvShape strided;
        strided.c = 16, strided.h = 15, strided.w = 15, strided.k = 32, strided.r = 3, strided.s = 3;
        strided.strideH = strided.strideW = 2;
        strided.samePadding = false;
        strided.padH = 1, strided.padW = 0;
        ConvShape batched = strided;
        batched.n = 4, batched.strideW = 1, batched.padW = 2;
        ConvShape same;
        same.c = 8, same.h = 16, same.w = 16, same.k = 8, same.r = 3, same.s = 3;
        DensitySpec actual;
        actual.model = DensityModelKind::Actual;
        actual.file = "mask.mtx";
        actual.resolvedFile = (fs::path(dir()) / "mask.mtx").lexically_normal().string();
        loadActualData(actual); // as reading the file does

        QTest::newRow("spmm uniform")
            << makeSpmm("mm3", 730, 730, 730, uniformDensity(0.118), uniformDensity(0.2)) << "spmm";
        QTest::newRow("spmm fixed-structured + banded")
            << makeSpmm("mm-structured", 64, 64, 32, structured(2, 4), banded(3, 0.7)) << "spmm";
        QTest::newRow("spmm banded full band + actual")
            << makeSpmm("mm-actual", 4, 4, 4, banded(0, 1.0), actual) << "spmm";
        QTest::newRow("spconv stride 2, explicit padding")
            << makeSpconv("conv-s2", strided, uniformDensity(0.477), uniformDensity(0.647)) << "spconv";
        QTest::newRow("spconv batch, stride [2, 1], padding [1, 2]")
            << makeSpconv("conv-b", batched, structured(1, 8), uniformDensity(1.0)) << "spconv";
        QTest::newRow("spconv same") << makeSpconv("conv4", same, uniformDensity(1e-5), uniformDensity(0.5))
                                     << "spconv";
        QTest::newRow("batched-spmm")
            << makeBatchedSpmm("bmm", 8, 128, 64, 128, uniformDensity(0.25), uniformDensity(0.4))
            << "batched-spmm";
        QTest::newRow("general affine") << generalConv() << "general";
    }
    void workloadRoundTrips()
    {
        QFETCH(Workload, workload);
        QFETCH(QString, type);
        const std::string text = workloadToYaml(workload);
        QVERIFY2(text.rfind("version: 1\n", 0) == 0, text.c_str());
        QVERIFY2(text.find("type: " + type.toStdString() + "\n") != std::string::npos, text.c_str());
        const Workload back = parseWorkloadYaml(text, "roundtrip.yaml", dir());
        QVERIFY2(back == workload, text.c_str());

        const std::string path = dir() + "/" + workload.name + ".yaml";
        saveWorkloadFile(workload, path);
        QVERIFY(loadWorkloadFile(path) == workload);
    }

    void generalFormWritesAffineRanks()
    {
        const std::string text = workloadToYaml(generalConv());
        QVERIFY2(text.find("2*P + R") != std::string::npos, text.c_str());
        QVERIFY2(text.find("output: true") != std::string::npos, text.c_str());
    }

    // A factory workload edited afterwards no longer fits its short form: saved as general, same content.
    void editedFactoryWorkloadIsSavedInGeneralForm()
    {
        Workload w = makeSpmm("mm", 8, 8, 8, uniformDensity(0.5), uniformDensity(0.5));
        w.dims[1].name = "J";
        const std::string text = workloadToYaml(w);
        QVERIFY2(text.find("type: general") != std::string::npos, text.c_str());
        Workload back = parseWorkloadYaml(text);
        QCOMPARE(back.kind, WorkloadKind::General);
        back.kind = WorkloadKind::SpMM;
        QVERIFY(back == w);
    }

    // Issue 15: io reads an `actual` file once, with the workload; the model takes the pattern from the
    // spec (a later change of the file is not seen) and reports a bad file, with file:line, only when
    // it needs the pattern, as when it read the file itself.
    void actualDataIsReadOnceWithTheWorkload()
    {
        const std::string file = dir() + "/once.mtx";
        writeFile(file, "%%MatrixMarket matrix coordinate pattern general\n4 4 2\n1 1\n3 2\n");
        const std::string yaml = "version: 1\nworkload:\n  name: once\n  type: spmm\n  M: 4\n  K: 4\n"
                                 "  N: 4\n  density: {P: {model: actual, file: once.mtx}, Q: 0.5}\n";
        const Workload w = parseWorkloadYaml(yaml, "once.yaml", dir());
        writeFile(file, "%%MatrixMarket matrix coordinate pattern general\n4 4 1\n1 1\n");
        QCOMPARE(model::makeDensityModel(w.tensors[0].density, {4, 4})->nnz(), std::int64_t{2});
        const Workload copy = w; // copies share the pattern
        QCOMPARE(copy.tensors[0].density.data, w.tensors[0].density.data);
        QVERIFY(copy == w);
        QVERIFY(parseWorkloadYaml(yaml, "once.yaml", dir()) != w); // the file changed: another pattern

        writeFile(file, "%%MatrixMarket matrix coordinate pattern general\n4 4 2\n1 1\n9 9\n");
        const Workload bad = parseWorkloadYaml(yaml, "once.yaml", dir()); // loads; the error is kept
        try {
            model::makeDensityModel(bad.tensors[0].density, {4, 4});
            QFAIL("a malformed file was accepted");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     QString::fromStdString(file + ":4:1: entry (9, 9) is outside the 4 x 4 matrix"));
        }
    }

    // A workload saved into another folder still finds its `actual` density file.
    void actualDensityPathFollowsTheSavedFile()
    {
        DensitySpec actual;
        actual.model = DensityModelKind::Actual;
        actual.file = "mask.mtx";
        actual.resolvedFile = (fs::path(dir()) / "mask.mtx").lexically_normal().string();
        const Workload w = makeSpmm("moved", 4, 4, 4, actual, uniformDensity(0.5));
        fs::create_directories(dir() + "/elsewhere/deeper");
        const std::string path = dir() + "/elsewhere/deeper/moved.yaml";
        saveWorkloadFile(w, path);
        const Workload back = loadWorkloadFile(path);
        QCOMPARE(back.tensors[0].density.file, std::string("../../mask.mtx"));
        QCOMPARE(back.tensors[0].density.resolvedFile, actual.resolvedFile);
    }

    void hypergeometricIsUniform()
    {
        const Workload w =
            parseWorkloadYaml("version: 1\nworkload: {name: a, type: spmm, M: 2, K: 2, N: 2,\n"
                              "  density: {P: {model: hypergeometric, density: 0.5}, Q: 1}}\n");
        QVERIFY(w == makeSpmm("a", 2, 2, 2, uniformDensity(0.5), uniformDensity(1.0)));
    }

    // An architecture built in code (e.g. by the GUI's editor) is held to the loader's grid rule too.
    void architectureGridWidthMustDivideInstances()
    {
        Architecture arch = loadPreset("edge"); // PE buffer: 256 instances, MACs 256
        QVERIFY(architectureProblems(arch).empty());
        arch.levels[2].meshX = 16; // 16 x 16
        QVERIFY(architectureProblems(arch).empty());
        arch.levels[2].meshX = 24; // 256 / 24 is not whole
        auto problems = architectureProblems(arch);
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(problems[0], std::string("level PE buffer: mesh_x (24) must divide instances (256)"));
        arch.levels[2].meshX = 0;
        arch.compute.meshX = 3;
        problems = architectureProblems(arch);
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(problems[0], std::string("compute: mesh_x (3) must divide instances (256)"));
    }

    void architectureRoundTrips()
    {
        const Architecture arch = testArchitecture();
        QVERIFY(architectureProblems(arch).empty());
        const std::string text = architectureToYaml(arch);
        QVERIFY2(text.rfind("version: 1\n", 0) == 0, text.c_str());
        QVERIFY2(parseArchitectureYaml(text, "arch.yaml") == arch, text.c_str());
        const std::string path = dir() + "/arch.yaml";
        saveArchitectureFile(arch, path);
        QVERIFY(loadArchitectureFile(path) == arch);
    }

    void presetsRoundTrip()
    {
        const auto names = presetNames();
        if (names.empty())
            QSKIP("no presets in resources/presets yet");
        for (const auto& name : names) {
            const Architecture arch = loadPreset(name);
            QVERIFY(parseArchitectureYaml(architectureToYaml(arch)) == arch);
            QVERIFY(parseArchitectureYaml(presetYaml(name)) == arch);
            QVERIFY(loadArchitectureArgument(name) == arch);
        }
        // Sorted by MAC count: the paper's edge < mobile < cloud.
        std::vector<std::string> paper;
        for (const auto& name : names)
            if (name == "edge" || name == "mobile" || name == "cloud")
                paper.push_back(name);
        if (paper.size() == 3)
            QCOMPARE(paper, (std::vector<std::string>{"edge", "mobile", "cloud"}));
    }

    void unknownPresetOrFileIsAnError()
    {
        try {
            loadArchitectureArgument("no-such-preset");
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("neither an architecture preset") != std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, loadPreset("no-such-preset"));
        const std::string path = dir() + "/argument.yaml";
        saveArchitectureFile(testArchitecture(), path);
        QVERIFY(loadArchitectureArgument(path) == testArchitecture());
    }

    void architectureUnitsAndDefaults()
    {
        const Architecture a = parseArchitectureYaml(R"(version: 1
architecture:
  name: units
  clock_ghz: 2
  levels:
    - {name: DRAM, technology: DRAM, instances: 1, capacity: unbounded, word_bits: 8, read_bandwidth: 16 GB/s,
       energy: {read: 1}}
    - {name: L2, instances: 1, capacity: 64 MB, word_bits: 16, read_bandwidth: 500 MB/s, write_bandwidth: 0,
       metadata_capacity: 1 GiB, energy: {}}
    - {name: L1, instances: 2, capacity: 4096 words, word_bits: 16, metadata_word_bits: 4,
       read_bandwidth: 3.5, energy: {}}
    - {name: L0, instances: 4, capacity: 8192 bits, word_bits: 8, read_bandwidth: 2 words/cycle, energy: {}}
    - {name: R, instances: 4, capacity: 128 KB, word_bits: 8, read_bandwidth: 1, energy: {}}
  compute: {instances: 8, word_bits: 8, energy: {mac_random: 0.5}}
)");
        QCOMPARE(a.levels[0].capacityBits, std::int64_t(0));
        QCOMPARE(a.levels[1].capacityBits, std::int64_t(64) * 1024 * 1024 * 8);
        QCOMPARE(a.levels[1].metadataCapacityBits, std::int64_t(1) << 33);
        QCOMPARE(a.levels[2].capacityBits, std::int64_t(4096 * 16));
        QCOMPARE(a.levels[3].capacityBits, std::int64_t(8192));
        QCOMPARE(a.levels[4].capacityBits, std::int64_t(128 * 1024 * 8));
        // Rates are decimal: 16 GB/s = 16e9 bytes/s; 8-bit words at 2 GHz = 8 words/cycle.
        QCOMPARE(a.levels[0].readBandwidth, 8.0);
        QCOMPARE(a.levels[0].writeBandwidth, a.levels[0].readBandwidth); // defaults to read_bandwidth
        QCOMPARE(a.levels[1].readBandwidth, 500e6 * 8 / 16 / 2e9);       // 500 MB/s of 16-bit words at 2 GHz
        QCOMPARE(a.levels[1].writeBandwidth, 0.0);
        QCOMPARE(a.levels[2].readBandwidth, 3.5);
        QCOMPARE(a.levels[3].readBandwidth, 2.0);
        QCOMPARE(a.levels[1].metadataWordBits, 16); // defaults to word_bits
        QCOMPARE(a.levels[2].metadataWordBits, 4);
        QCOMPARE(a.levels[1].technology, std::string("SRAM"));
        QCOMPARE(a.compute.name, std::string("MAC"));
        QVERIFY(parseArchitectureYaml(architectureToYaml(a)) == a);
    }

    void designRoundTrips_data()
    {
        QTest::addColumn<int>("padding");
        QTest::addColumn<bool>("conv");
        QTest::newRow("spmm, large-prime") << int(PaddingMode::LargePrime) << false;
        QTest::newRow("spmm, smooth") << int(PaddingMode::Smooth) << false;
        QTest::newRow("spmm, none") << int(PaddingMode::None) << false;
        QTest::newRow("spconv, large-prime") << int(PaddingMode::LargePrime) << true;
    }
    void designRoundTrips()
    {
        QFETCH(int, padding);
        QFETCH(bool, conv);
        ConvShape shape;
        shape.c = 6, shape.h = 14, shape.w = 14, shape.k = 22, shape.r = 3, shape.s = 3, shape.strideH = 2;
        const Workload w = conv ? makeSpconv("conv", shape, uniformDensity(0.4), uniformDensity(0.6))
                                : makeSpmm("mm", 31, 64, 48, uniformDensity(0.3), uniformDensity(0.6));
        const GenomeLayout layout(w, testArchitecture(), GenomeOptions{static_cast<PaddingMode>(padding)});
        std::mt19937_64 rng(1234);
        for (int i = 0; i < 40; ++i) {
            const Genome genome = randomGenome(layout, rng);
            const Design design = decodeGenome(layout, genome);
            const std::string text = designToYaml(layout, genome, design);
            const DesignDocument doc = parseDesignYaml(text, w, testArchitecture(), "design.yaml");
            QCOMPARE(doc.genome, genome);
            QVERIFY2(doc.design == design, text.c_str());
            QCOMPARE(doc.options, layout.options());
            QCOMPARE(doc.workloadName, w.name);
            QCOMPARE(doc.architectureName, testArchitecture().name);

            // Without the genome, the mapping, formats and S/G give the canonical genome of the design.
            const DesignDocument noGenome =
                parseDesignYaml(withoutLine(text, "genome:"), w, testArchitecture());
            QCOMPARE(noGenome.genome, encodeDesign(layout, design));
            QVERIFY(noGenome.design == design);
        }
        const Genome genome = randomGenome(layout, rng);
        const std::string path = dir() + "/saved.design.yaml";
        saveDesignFile(layout, genome, decodeGenome(layout, genome), path);
        QCOMPARE(loadDesignFile(path, w, testArchitecture()).genome, genome);
    }

    void handWrittenDesignWithoutGenome()
    {
        const Workload w = makeSpmm("mm", 32, 64, 48, uniformDensity(0.3), uniformDensity(0.6));
        const DesignDocument doc = parseDesignYaml(R"(version: 1
design:
  mapping:
    - {level: L1_T, order: [M, K, N], bounds: {M: 2, K: 4, N: 3}}
    - {level: L2_T, bounds: {M: 2, K: 2, N: 2}}
    - {level: L2_S, order: [N, M, K], bounds: {N: 4}}
    - {level: L3_T, order: [K, M, N], bounds: {M: 8, K: 8, N: 2}}
    - {level: L3_S}
  formats:
    PE buffer: {P: [B, CP], Q: [RLE, cp], Z: [U, bitmask]}
  skipping_gating:
    GLB: Skip Q <- P
    compute: Gate Q <-> P
)",
                                                   w, testArchitecture());
        const GenomeLayout layout(w, testArchitecture());
        QVERIFY(decodeGenome(layout, doc.genome) == doc.design);
        QCOMPARE(doc.design.mapping.levels[2].bounds, (std::vector<std::int64_t>{1, 1, 4}));
        QCOMPARE(doc.design.mapping.levels[2].order, (std::vector<int>{2, 0, 1}));
        QCOMPARE(doc.design.mapping.levels[1].order, (std::vector<int>{0, 1, 2})); // default: workload order
        // P at PE buffer has ranks K4, M4; at GLB M2, K2, K4, M4 shares the innermost two genes.
        const auto& pGlb = doc.design.sparse.formats[1][0].ranks;
        QCOMPARE(pGlb.size(), std::size_t(4));
        QCOMPARE(pGlb[2].format, RankFormat::B);
        QCOMPARE(pGlb[3].format, RankFormat::CP);
        QCOMPARE(pGlb[0].format, RankFormat::U);
        QCOMPARE(doc.design.sparse.formats[2][1].ranks[0].format, RankFormat::RLE);
        QCOMPARE(doc.design.sparse.formats[2][2].ranks[1].format, RankFormat::B);
        QCOMPARE(doc.genome[layout.segment(GeneSegment::SkipGate).begin], 5);     // Skip Q <- P
        QCOMPARE(doc.genome[layout.segment(GeneSegment::SkipGate).begin + 1], 0); // PE buffer: none
        QCOMPARE(doc.genome[layout.segment(GeneSegment::SkipGate).begin + 2], 3); // Gate P <-> Q
    }

    void mappingDisagreeingWithGenomeIsAnError()
    {
        const Workload w = makeSpmm("mm", 32, 64, 48, uniformDensity(0.3), uniformDensity(0.6));
        const GenomeLayout layout(w, testArchitecture());
        std::mt19937_64 rng(7);
        Genome a = randomGenome(layout, rng);
        const int gene = layout.segment(GeneSegment::Tiling).begin; // a factor of M
        Genome b = a;
        b[gene] = a[gene] == 1 ? 2 : 1;
        std::string text = designToYaml(layout, a, decodeGenome(layout, a));
        std::string genomeText, bText;
        for (int g : a)
            genomeText += (genomeText.empty() ? "" : ", ") + std::to_string(g);
        for (int g : b)
            bText += (bText.empty() ? "" : ", ") + std::to_string(g);
        text.replace(text.find(genomeText), genomeText.size(), bText);
        try {
            parseDesignYaml(text, w, testArchitecture(), "bad.design.yaml");
            QFAIL("a mapping that disagrees with the genome was accepted");
        } catch (const InputError& e) {
            const std::string what = e.what();
            const std::string level = layout.mappingLevels()[a[gene] - 1].name;
            QVERIFY2(what.find("mapping level " + level + ": bound of M") != std::string::npos, e.what());
            QVERIFY2(what.find("bad.design.yaml:") != std::string::npos, e.what());
        }
    }

    void designToYamlRefusesADesignThatIsNotItsGenomes()
    {
        RandomSpmmDesign drawn(3);
        const GenomeLayout& layout = drawn.layout;
        const Genome& genome = drawn.genome;
        Design& design = drawn.design;
        const int sg = genome[layout.segment(GeneSegment::SkipGate).begin];
        design.sparse.sites[0].actions =
            sgActionsFromGene((sg + 1) % layout.sgGeneCount(), layout.inputTensors());
        QVERIFY_THROWS_EXCEPTION(InputError, designToYaml(layout, genome, design));
    }

    void designMetricsRoundTrip()
    {
        RandomSpmmDesign drawn(5);
        const Workload& w = drawn.workload;
        const GenomeLayout& layout = drawn.layout;
        const Genome& genome = drawn.genome;
        const Design& design = drawn.design;
        const DesignMetrics valid{true, "", 1234, 5.5e6, 1234 * 5.5e6};
        const auto a = parseDesignYaml(designToYaml(layout, genome, design, &valid), w, testArchitecture());
        QVERIFY(a.metrics.has_value());
        QCOMPARE(*a.metrics, valid);
        const DesignMetrics invalid{false, "capacity exceeded at GLB", 0, 0, 0};
        const auto b = parseDesignYaml(designToYaml(layout, genome, design, &invalid), w, testArchitecture());
        QCOMPARE(*b.metrics, invalid);
        QVERIFY(!parseDesignYaml(designToYaml(layout, genome, design), w, testArchitecture()).metrics);
    }

    void designModelOptionsRoundTrip()
    {
        // The `model` entry: written only beyond Sparseloop's rules (so default files are as before), read
        // back as written; a bad value is an error at its line and column.
        RandomSpmmDesign drawn(5);
        const Workload& w = drawn.workload;
        const GenomeLayout& layout = drawn.layout;
        const Genome& genome = drawn.genome;
        const Design& design = drawn.design;
        const DesignMetrics metrics{true, "", 1234, 5.5e6, 1234 * 5.5e6};
        const model::ModelOptions defaults;
        const std::string plain = designToYaml(layout, genome, design, &metrics, &defaults);
        QCOMPARE(plain, designToYaml(layout, genome, design, &metrics));
        QVERIFY2(plain.find("model:") == std::string::npos, plain.c_str());
        const auto fromPlain = parseDesignYaml(plain, w, testArchitecture());
        QCOMPARE(fromPlain.modelOptions.occupancyConfidence, 1.0);
        QVERIFY(fromPlain.modelOptions.formatSpace == model::FormatSpace::SparseloopDead);

        model::ModelOptions beyond;
        beyond.occupancyConfidence = 0.9;
        beyond.formatSpace = model::FormatSpace::SparseloopNearest;
        const std::string text = designToYaml(layout, genome, design, &metrics, &beyond);
        const std::string entry = "  model: {occupancy_confidence: 0.9, format_space: nearest}\n";
        QVERIFY2(text.find("  padding: large-prime\n" + entry) != std::string::npos, text.c_str());
        const auto doc = parseDesignYaml(text, w, testArchitecture(), "d.design.yaml");
        QCOMPARE(doc.modelOptions.occupancyConfidence, 0.9);
        QVERIFY(doc.modelOptions.formatSpace == model::FormatSpace::SparseloopNearest);
        QCOMPARE(*doc.metrics, metrics);

        // version, design, workload, architecture, padding: the entry is line 6.
        const std::vector<std::pair<std::string, std::string>> bad{
            {"0.9", "1.5"}, {"nearest", "nearer"}, {"format_space", "format_spaces"}};
        for (const auto& [good, wrong] : bad) {
            std::string badText = text;
            const auto lineStart = badText.find(entry);
            const auto at = badText.find(good, lineStart);
            badText.replace(at, good.size(), wrong);
            const int column = static_cast<int>(at - lineStart) + 1;
            try {
                parseDesignYaml(badText, w, testArchitecture(), "d.design.yaml");
                QFAIL(("accepted a design file with " + wrong).c_str());
            } catch (const InputError& e) {
                const std::string where = "d.design.yaml:6:" + std::to_string(column) + ": ";
                QVERIFY2(std::string(e.what()).find(where) != std::string::npos, e.what());
            }
        }
    }

    void atomicWriteReplacesAndLeavesNoTemporaryFiles()
    {
        const std::string sub = dir() + "/atomic";
        fs::create_directories(sub);
        const std::string path = sub + "/file.yaml";
        writeTextFileAtomically(path, "first\n");
        writeTextFileAtomically(path, "second\n");
        QCOMPARE(readTextFile(path), std::string("second\n"));
        QCOMPARE(filesIn(sub), std::size_t(1));
    }

    void atomicWriteIntoMissingFolderThrows()
    {
        QVERIFY_THROWS_EXCEPTION(InputError, writeTextFileAtomically(dir() + "/missing/folder/x.yaml", "x"));
        QVERIFY_THROWS_EXCEPTION(InputError, readTextFile(dir() + "/missing/x.yaml"));
    }

    // rename() cannot replace a folder with a file: the save fails late, after the temporary file
    // was written, which must then be removed.
    void atomicWriteOverAFolderThrowsAndCleansUp()
    {
        const std::string sub = dir() + "/over-folder";
        fs::create_directories(sub + "/target/inside");
        QVERIFY_THROWS_EXCEPTION(InputError, writeTextFileAtomically(sub + "/target", "x"));
        QVERIFY(fs::is_directory(sub + "/target/inside"));
        QCOMPARE(filesIn(sub), std::size_t(1));
    }

    void atomicWriteIntoUnwritableFolderLeavesTheFile()
    {
        const std::string sub = dir() + "/read-only";
        fs::create_directories(sub);
        const std::string path = sub + "/file.yaml";
        writeTextFileAtomically(path, "precious\n");
        ::chmod(sub.c_str(), 0555);
        const bool rootBypassesPermissions = ::access(sub.c_str(), W_OK) == 0;
        if (!rootBypassesPermissions)
            QVERIFY_THROWS_EXCEPTION(InputError, writeTextFileAtomically(path, "clobbered\n"));
        ::chmod(sub.c_str(), 0755);
        if (rootBypassesPermissions)
            QSKIP("running with permission to write anywhere (root): cannot make a folder unwritable");
        QCOMPARE(fileText(path), std::string("precious\n"));
        QCOMPARE(filesIn(sub), std::size_t(1));
    }
};

QTEST_APPLESS_MAIN(TestIoRoundTrip)
#include "test_io_roundtrip.moc"
