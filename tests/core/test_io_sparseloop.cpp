// Sparseloop cases: importing the 48 reference runs and a hand-made case, reading their stats files,
// exporting and importing again, and rejecting malformed inputs at the right line
// (tests/data/sparseloop/bad/*: first line `# expect: line N: fragment`, as in tests/data/bad).
#include "reference_corpus.hpp"
#include "io/sparseloop/sparseloop_export.hpp"
#include "io/sparseloop/sparseloop_import.hpp"
#include "io/sparseloop/sparseloop_stats.hpp"
#include "io/workload_io.hpp"
#include "sparse/tensor_ranks.hpp"
#include "test_support.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

using namespace sparsemap;
namespace fs = std::filesystem;

namespace {

const fs::path kReference = fs::path(SPARSEMAP_SOURCE_DIR) / ".." / "shared" / "reference" / "sparseloop";
const fs::path kData = fs::path(SPARSEMAP_SOURCE_DIR) / "tests" / "data" / "sparseloop";
const fs::path kStc = kReference / "stc/WD-0.5/M512-K1024-N256-IAD0.27-WD0.5/STC-RF2x-24-bandwidth";
const fs::path kDstc = kReference / "stc/WD-0.5/M512-K1024-N256-IAD0.27-WD0.5/DSTC-RF2x-24-bandwidth";
const fs::path kTc = kReference / "stc/WD-1.0/M512-K1024-N256-IAD0.27-WD1.0/TC-RF2x-24-bandwidth";

std::vector<fs::path> referenceCases()
{
    std::vector<fs::path> out;
    if (fs::exists(kReference))
        for (const auto& e : fs::recursive_directory_iterator(kReference))
            if (e.path().filename() == "aggregated_input.yaml")
                out.push_back(e.path().parent_path());
    std::sort(out.begin(), out.end());
    return out;
}

SparseloopCase import(const fs::path& dir)
{
    try {
        return importSparseloopCase(dir.string());
    } catch (const InputError& e) {
        qFatal("%s", e.what());
    }
}

// A mapping level's loops outer to inner with their bounds ("K1 M2 N2"), then " x<split>" if set.
std::string loops(const SparseloopCase& c, const std::string& name)
{
    for (const auto& l : c.mapping.levels) {
        if (l.name != name)
            continue;
        std::string out;
        for (int d : l.order)
            out += (out.empty() ? "" : " ") + c.workload.dims[d].name + std::to_string(l.bounds[d]);
        return out + (l.spatialXLoops >= 0 ? " x" + std::to_string(l.spatialXLoops) : "");
    }
    return "no level " + name;
}

// A tensor's declared ranks at a storage level, outermost first: format:metadataBits:payloadBits.
std::string ranks(const SparseloopCase& c, int level, int tensor)
{
    std::string out;
    for (const auto& r : c.sparse.formats[level][tensor].ranks)
        out += (out.empty() ? "" : " ") + std::string(rankFormatName(r.format)) + ":" +
               std::to_string(r.metadataBits) + ":" + std::to_string(r.payloadBits);
    return out;
}

void checkMappingProducts(const SparseloopCase& c)
{
    for (std::size_t d = 0; d < c.workload.dims.size(); ++d)
        QCOMPARE(c.mapping.product(static_cast<int>(d)), c.workload.dims[d].size);
}

} // namespace

class TestIoSparseloop : public QObject {
    Q_OBJECT
private slots:
    void importsEveryReferenceCase()
    {
        const auto cases = referenceCases();
        if (cases.empty())
            SPARSEMAP_REFERENCE_MISSING("the Sparseloop reference cases (../shared/reference/sparseloop)");
        QCOMPARE(cases.size(), std::size_t{48});
        for (const auto& dir : cases) {
            const SparseloopCase c = import(dir);
            QCOMPARE(c.name, dir.filename().string());
            QCOMPARE(c.architecture.levelCount(), 4);
            QCOMPARE(c.workload.dims.size(), std::size_t{3});
            checkMappingProducts(c);
        }
    }

    void stcCaseMatchesItsYaml()
    {
        if (!fs::exists(kStc))
            SPARSEMAP_REFERENCE_MISSING("the Sparseloop reference cases (../shared/reference/sparseloop)");
        const SparseloopCase c = import(kStc);
        const Workload& w = c.workload;
        QVERIFY(w.kind == WorkloadKind::General && w.name == "gemm-ABZ");
        QCOMPARE(w.dims, (std::vector<Dimension>{{"M", 512}, {"N", 256}, {"K", 1024}}));
        const auto rank = [](int dim) { return RankProjection{ProjectionTerm{dim, 1}}; };
        QCOMPARE(w.tensors.size(), std::size_t{3});
        QVERIFY(w.tensors[0].name == "A" && w.tensors[0].ranks == (std::vector{rank(0), rank(2)}));
        QVERIFY(w.tensors[1].name == "B" && w.tensors[1].ranks == (std::vector{rank(1), rank(2)}));
        QVERIFY(w.tensors[2].name == "Z" && w.tensors[2].ranks == (std::vector{rank(0), rank(1)}));
        QVERIFY(!w.tensors[0].isOutput && !w.tensors[1].isOutput && w.tensors[2].isOutput);
        DensitySpec fixed; // every tile has exactly the density: no n:m
        fixed.model = DensityModelKind::FixedStructured;
        fixed.density = 0.5;
        QVERIFY(w.tensors[0].density == fixed);
        fixed.density = 1.0;
        QVERIFY(w.tensors[1].density == fixed);

        const Architecture& a = c.architecture;
        std::string levels; // name, instances, block size (words per access)
        for (const auto& l : a.levels)
            levels += l.name + " " + std::to_string(l.instances) + " " + std::to_string(l.blockSize) + "; ";
        QCOMPARE(levels, std::string("DRAM 1 8; SMEM 1 64; RF 4 1; LRF 1024 1; "));
        QCOMPARE(a.levels[0].capacityBits, std::int64_t{0});          // DRAM: unbounded
        QCOMPARE(a.levels[1].capacityBits, std::int64_t{4096 * 512}); // depth x width
        QVERIFY(a.levels[1].metadataCapacityBits == 8192 * 64 && a.levels[1].metadataWordBits == 64);
        QCOMPARE(a.levels[2].metadataWordBits, 8); // no metadata_storage_width: the word width
        QCOMPARE(c.levels[2].metadataStorageWidthBits, 0);
        QCOMPARE(a.levels[1].readBandwidth, 42.0);
        QVERIFY(a.levels[2].meshX == 1 && a.levels[3].meshX == 16);
        QVERIFY(a.compute.name == "MAC" && a.compute.instances == 1024);
        // ERT: copied as written, matched by the last name part without ranges.
        QCOMPARE(a.levels[1].energy.energyPj("read"), 285.71464);
        QCOMPARE(a.levels[1].energy.energyPj("write"), 316.96744);
        QCOMPARE(a.levels[3].energy.energyPj("gated_read"), 0.00296);
        // DRAM `idle` kept: Timeloop prices gated / skipped actions at it when no gated_* entry is given.
        QCOMPARE(a.levels[0].energy.entries().size(), std::size_t{3});
        QCOMPARE(a.compute.energy.energyPj("mac_random"), 0.5608);

        // map.yaml: permutations innermost first, reversed into outer-to-inner orders; split = X loops.
        checkMappingProducts(c);
        QCOMPARE(loops(c, "L1_T"), std::string("K1 M2 N2"));
        QCOMPARE(loops(c, "L2_T"), std::string("K1 N1 M4"));
        QCOMPARE(loops(c, "L2_S"), std::string("K1 N1 M4 x0"));
        QCOMPARE(loops(c, "L3_T"), std::string("N1 M1 K32"));
        QCOMPARE(loops(c, "L3_S"), std::string("N1 M16 K32 x1")); // K32 along X, M16 along Y
        QCOMPARE(loops(c, "L4_T"), std::string("K1 M1 N128"));
        QCOMPARE(loops(c, "L4_S"), std::string("M1 N1 K1")); // no directive
        const Mapping& m = c.mapping;
        QVERIFY(m.keeps(3, 0) && !m.keeps(3, 1) && !m.keeps(3, 2)); // LRF keeps A
        QVERIFY(!m.keeps(2, 0) && !m.keeps(2, 1) && m.keeps(2, 2)); // RF keeps Z
        QVERIFY(m.keeps(1, 0) && m.keeps(1, 1) && !m.keeps(1, 2));  // SMEM
        QVERIFY(m.streams(1, 0) && m.streams(1, 1) && !m.streams(1, 2));
        QVERIFY(m.streams(0, 2) && !m.streams(3, 0));

        // Formats as declared (outermost first), not bound to loops.
        const std::string uop = "UOP:-1:0 ";
        QCOMPARE(ranks(c, 0, 0), uop + uop + uop + uop + uop + uop + "CP:2:-1"); // DRAM A
        QCOMPARE(ranks(c, 1, 0), uop + uop + uop + uop + "CP:2:-1");             // SMEM A
        QCOMPARE(ranks(c, 3, 0), std::string("CP:2:-1"));                        // LRF A
        const auto& dramA = c.sparse.formats[0][0].ranks;
        QVERIFY(std::all_of(dramA.begin(), dramA.end(), [](const FormatRank& r) {
            return r.dim == -1 && r.mappingLevel == -1 && r.flattenedDims.empty();
        }));
        QCOMPARE(c.levels[0].rankApplicationOrder[0], std::string("inner-to-outer"));

        // S/G sites: every on-chip level and the compute; RF spatially skips B and Z on A.
        const std::vector<SgAction> rfSkips{{SgKind::SpatialSkip, 1, {0}}, {SgKind::SpatialSkip, 2, {0}}};
        QCOMPARE(c.sparse.sites, (std::vector<SgSite>{{1, {}}, {2, rfSkips}, {3, {}}, {kComputeSite, {}}}));
        QVERIFY(c.actionOptimizations.size() == 2 &&
                c.actionOptimizations[1].type == SparseloopSafType::SkippingSpatial);
        QCOMPARE(c.computeOptimization, SparseloopComputeOptimization::None);
    }

    void dstcPositionSkipping()
    {
        if (!fs::exists(kDstc))
            SPARSEMAP_REFERENCE_MISSING("the Sparseloop reference cases (../shared/reference/sparseloop)");
        const SparseloopCase c = import(kDstc);
        const Architecture& a = c.architecture; // LRF: 4 per subpartition, 16-bit wide; 1024 MACs
        QVERIFY(a.levels[3].instances == 4 && a.levels[3].blockSize == 2 && a.compute.instances == 1024);
        QVERIFY(c.workload.tensors[1].density == uniformDensity(0.27));
        // Position skipping: an empty condition (the target's own empty positions).
        const std::vector<SgAction> rf{{SgKind::Skip, 2, {0, 1}}},
            lrf{{SgKind::Skip, 0, {}}, {SgKind::Skip, 1, {}}};
        QCOMPARE(c.sparse.sites, (std::vector<SgSite>{{1, {}}, {2, rf}, {3, lrf}, {kComputeSite, {}}}));
        const auto& safs = c.actionOptimizations;
        QVERIFY(safs[0].type == SparseloopSafType::Skipping &&
                safs[1].type == SparseloopSafType::PositionSkipping &&
                safs[2].type == SparseloopSafType::PositionSkipping);
        QCOMPARE(ranks(c, 3, 0), std::string("B:0:0 B:1:-1")); // LRF A, listed after B in the file
        // flattened_rankIDs: [[M]] -- a key Sparseloop (2022) does not read (it reads
        // flattened-rankIDs), so the rank is not flattened, and a note says so.
        const FormatRank& inner = c.sparse.formats[3][0].ranks[1];
        QVERIFY(inner.flattenedDims.empty());
        QVERIFY(std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
            return n.find("flattened_rankIDs ignored") != std::string::npos;
        }));
        QCOMPARE(loops(c, "L4_S"), std::string("K1 M16 N16 x1"));
    }

    void tinyCase()
    {
        const SparseloopCase c = import(kData / "tiny");
        const Architecture& a = c.architecture;
        QVERIFY(a.levels[1].wordBits == 8 && a.levels[1].blockSize == 8); // `datawidth` of the subtree
        QCOMPARE(a.levels[1].writeBandwidth, 8.0);
        QVERIFY(a.levels[2].technology == "regfile" && a.levels[2].capacityBits == 16 * 8);
        QCOMPARE(c.levels[2].defaultMetadataWordBits, 4);
        QVERIFY(a.compute.instances == 8 && a.compute.meshX == 4);    // PE[0..3] x MAC[0..1]
        QCOMPARE(a.levels[2].energy.energyPj("skipped_read"), 0.001); // skipped_* kept
        QVERIFY(a.levels[0].energy.find("idle").has_value());         // a Timeloop fallback name: kept
        QCOMPARE(c.workload.tensors[0].density.model, DensityModelKind::Uniform);
        QCOMPARE(loops(c, "L3_T"), std::string("M1 N1 K4")); // unlisted dims: bound 1, outermost
        QVERIFY(!c.mapping.keeps(2, 2) && c.mapping.keeps(1, 2));
        QCOMPARE(c.computeOptimization, SparseloopComputeOptimization::Gating);
        QCOMPARE(c.sparse.sites.back().actions,
                 (std::vector<SgAction>{{SgKind::Gate, 0, {1}}, {SgKind::Gate, 1, {0}}}));
        QCOMPARE(c.sparse.formats[2][0].ranks[0].flattenedDims, std::vector<int>{}); // `_` key: ignored
        QVERIFY(std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
            return n.find("system.adders") != std::string::npos;
        }));
    }

    void parsesEveryStatsFile()
    {
        const auto cases = referenceCases();
        if (cases.empty())
            SPARSEMAP_REFERENCE_MISSING("the Sparseloop reference cases (../shared/reference/sparseloop)");
        for (const auto& dir : cases) {
            const auto stats = parseSparseloopStats((dir / "timeloop-model.stats.txt").string());
            QVERIFY(stats.cycles > 0 && stats.energyUj > 0);
            QCOMPARE(stats.levels.size(), std::size_t{4});
            QCOMPARE(stats.levels.front().name, std::string("DRAM"));
            // The summary is the sum of the printed energies (2 decimals of uJ).
            QVERIFY2(std::abs(stats.levelEnergySumPj() / 1e6 - stats.energyUj) <= 0.0051,
                     qPrintable(dir.c_str()));
        }
    }

    void statsNumbersMatchTheText()
    {
        if (!fs::exists(kTc))
            SPARSEMAP_REFERENCE_MISSING("the Sparseloop reference cases (../shared/reference/sparseloop)");
        const auto tc = parseSparseloopStats((kTc / "timeloop-model.stats.txt").string());
        QCOMPARE(tc.cycles, 131072.0);
        QCOMPARE(tc.energyUj, 247.59);
        QCOMPARE(tc.energyPj, 247.59e6);
        QCOMPARE(tc.compute.computes.actual, 134217728.0);
        QCOMPARE(tc.compute.energyPj, 59979218.29);
        const auto* smemA = tc.level("SMEM")->tensor("A");
        QVERIFY(smemA && smemA->streamed);
        QCOMPARE(smemA->reads.actual, 1048576.0);
        QCOMPARE(tc.level("RF")->tensor("Z")->updates.actual, 2097152.0);

        const auto dstc = parseSparseloopStats((kDstc / "timeloop-model.stats.txt").string());
        QCOMPARE(dstc.cycles, 35482.0);
        QCOMPARE(dstc.energyUj, 110.93);
        QCOMPARE(dstc.compute.computes.actual, 18119425.0);
        QCOMPARE(dstc.compute.utilizedInstancesAverage, 556.10);
        QVERIFY(dstc.level("SMEM")->bandwidthThrottling == 0.92 && dstc.level("SMEM")->cycles == 35482);
        const auto* lrfA = dstc.level("LRF")->tensor("A");
        QCOMPARE(lrfA->reads.algorithmic, 2097152.0);
        QCOMPARE(lrfA->reads.actual, 413851.0);
        QCOMPARE(lrfA->representationFormat, std::string("b b"));
        QCOMPARE(lrfA->formatReads.actual[1].payload, 131072.0);
        QCOMPARE(lrfA->formatReads.actual[0].metadata, 2097121.0);
        QCOMPARE(lrfA->energyPj, 1140107.98);
        QCOMPARE(dstc.level("RF")->tensor("Z")->reads.skipped, 28996232.0);
    }

    void statsWithoutSummaryAreRejected()
    {
        QVERIFY_THROWS_EXCEPTION(InputError, parseSparseloopStatsText("Level 0\n=== MAC ===\n", "x.txt"));
        QVERIFY_THROWS_EXCEPTION(InputError, parseSparseloopStats((kData / "missing.txt").string()));
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("dir");
        QTest::newRow("tiny") << QString::fromStdString((kData / "tiny").string());
        if (fs::exists(kReference)) {
            QTest::newRow("TC, streamed A") << QString::fromStdString(kTc.string());
            QTest::newRow("DSTC") << QString::fromStdString(kDstc.string());
        }
    }
    void roundTrip()
    {
        QFETCH(QString, dir);
        const SparseloopCase original = import(dir.toStdString());
        QTemporaryDir out;
        exportSparseloopCase(original, out.path().toStdString());
        const SparseloopCase again = import(out.path().toStdString());
        QVERIFY(original.workload == again.workload && original.architecture == again.architecture);
        QVERIFY(original.mapping == again.mapping && original.sparse == again.sparse);
        QVERIFY(original.levels == again.levels &&
                original.actionOptimizations == again.actionOptimizations &&
                original.computeOptimization == again.computeOptimization);
    }

    void roundTripOfOwnDesign()
    {
        Workload w = test::toyWorkload();
        Architecture a = test::toyArchitecture();
        a.levels[2].meshX = 2; // 2 x 2 PEs
        a.compute.meshX = 4;   // 4 x 4 MACs
        a.levels[1].metadataCapacityBits = 4096;
        a.levels[2].metadataCapacityBits = 512; // what the export gives a level without a metadata store
        Design d;
        d.mapping = trivialMapping(a, w);
        auto& levels = d.mapping.levels; // L1_T L2_T L2_S L3_T L3_S over dims M K N
        levels[0].bounds = {2, 2, 1};
        levels[2].bounds = {2, 1, 2}; // M along Y, N along X of the 2 x 2 PE grid
        levels[2].spatialXLoops = 1;
        levels[3].bounds = {1, 4, 1};
        levels[4].bounds = {1, 1, 2}; // N: 2 x 2 = 4 along X of the 4 x 4 MACs
        levels[4].spatialXLoops = 1;
        d.sparse.formats.assign(3, std::vector<TensorFormat>(3));
        for (int s = 0; s < 3; ++s)
            for (int t = 0; t < 3; ++t) {
                auto ranks = tensorRanks(w, d.mapping, t, s);
                for (auto& r : ranks)
                    r.format = t == 0 ? RankFormat::B : t == 1 ? RankFormat::CP : RankFormat::U;
                d.sparse.formats[s][t].ranks = ranks;
            }
        d.sparse.sites = {SgSite{1, {{SgKind::Skip, 1, {0}}}}, SgSite{2, {}},
                          SgSite{kComputeSite, {{SgKind::Gate, 0, {1}}, {SgKind::Gate, 1, {0}}}}};
        QTemporaryDir out;
        exportSparseloopCase(w, a, d, out.path().toStdString());
        const SparseloopCase c = import(out.path().toStdString());
        w.kind = WorkloadKind::General; // Sparseloop knows only the general form
        // The output's density is written (Sparseloop would take it as dense): 1 - (1 - 0.25)^8.
        auto& z = w.tensors[2];
        z.densityDeclared = true;
        z.density.model = DensityModelKind::Uniform;
        z.density.density = 1 - std::pow(0.75, 8);
        QCOMPARE(c.workload.tensors[2].density.density, z.density.density);
        QVERIFY(c.workload == w && c.architecture == a && c.mapping == d.mapping);
        // What is read back: the formats with the word widths Sparseloop is given (capped/widened).
        d.sparse.formats = sparseloopFormatsOf(w, a, d);
        for (auto& level : d.sparse.formats) // Sparseloop declares ranks; the loops are the model's to bind
            for (auto& tensor : level) {
                for (auto& rank : tensor.ranks)
                    rank.dim = rank.mappingLevel = -1;
                if (!tensor.compressed()) // an all-U format is no format: not written, read as none
                    tensor.ranks.clear();
            }
        QVERIFY(c.sparse == d.sparse);
        QCOMPARE(c.sparse.formats[1][0].ranks[0].format, RankFormat::B); // the formats themselves
        QCOMPARE(c.sparse.formats[1][1].ranks[0].format, RankFormat::CP);
        QVERIFY(!c.sparse.formats[0][0].ranks.empty());
        // Names Timeloop would split are refused.
        a.levels[1].name = "GLB.0";
        QVERIFY_THROWS_EXCEPTION(InputError, exportSparseloopCase(w, a, d, out.path().toStdString()));
    }

    void badInputs_data()
    {
        QTest::addColumn<QString>("file");
        for (const auto& e : fs::directory_iterator(kData / "bad"))
            QTest::newRow(e.path().filename().c_str()) << QString::fromStdString(e.path().string());
    }
    void badInputs()
    {
        QFETCH(QString, file);
        const fs::path bad = file.toStdString();
        std::ifstream in(bad);
        std::string first;
        std::getline(in, first);
        std::smatch match;
        QVERIFY(std::regex_match(first, match, std::regex(R"(^# expect: line (\d+): (.+)$)")));
        const int line = std::stoi(match[1].str());
        const std::string fragment = match[2].str(), name = bad.filename().string();
        // The bad file replaces the tiny case's file of the same role (the name's second part);
        // `no-map-file` cases have no map.yaml.
        const auto pick = [&](const std::string& role) {
            if (role == "map" && name.find("no-map-file") != std::string::npos)
                return fs::path();
            return name.find("." + role + ".yaml") != std::string::npos ? bad
                                                                        : kData / "tiny" / (role + ".yaml");
        };
        try {
            importSparseloopCase(pick("aggregated_input").string(), pick("map").string(),
                                 pick("ERT").string());
        } catch (const InputError& e) {
            const auto& ds = e.diagnostics();
            const bool found = std::any_of(ds.begin(), ds.end(), [&](const Diagnostic& d) {
                return d.line == line && d.file == bad.string() &&
                       d.message.find(fragment) != std::string::npos;
            });
            QVERIFY2(found, e.what());
            return;
        }
        QFAIL("accepted a bad input");
    }

    void fixedStructuredDensityAlone()
    {
        const std::string text = "version: 1\nworkload:\n  name: w\n  type: spmm\n  M: 8\n  K: 8\n  N: 8\n"
                                 "  density:\n    P: {model: fixed-structured, density: 0.25}\n    Q: 0.5\n";
        const Workload w = parseWorkloadYaml(text);
        const DensitySpec& p = w.tensors[w.tensorIndex("P")].density;
        QVERIFY(p.model == DensityModelKind::FixedStructured && p.density == 0.25);
        QVERIFY(p.structuredN == 0 && p.structuredM == 0);
        const std::string saved = workloadToYaml(w);
        QVERIFY2(saved.find("{model: fixed-structured, density: 0.25}") != std::string::npos, saved.c_str());
        QVERIFY(parseWorkloadYaml(saved) == w);
    }
};

QTEST_APPLESS_MAIN(TestIoSparseloop)
#include "test_io_sparseloop.moc"
