// Our model against Sparseloop itself on generated designs: tests/data/oracle/figures.tsv holds what
// the public Timeloop/Sparseloop (commit 019f107) printed for designs drawn by `sparsemap
// oracle-corpus draw` (random valid genomes and searched best designs; edge, mobile, cloud, toy; SpMM,
// SpConv, batched SpMM, and MTTKRP through the multi-operand build; densities 0.01..1). Each design is
// rebuilt from its workload, architecture, densities and genome, exported as Sparseloop reads it, read back
// and evaluated; the figures compared are the oracle's, never ours. docs/oracle.md says how to regenerate the
// file.
#include "analysis/oracle_corpus.hpp"
#include "util/file_io.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace sparsemap;

namespace {

const std::string kFigures = SPARSEMAP_SOURCE_DIR "/tests/data/oracle/figures.tsv";
const std::string kSamples = SPARSEMAP_SOURCE_DIR "/samples";

} // namespace

class TestOracleCorpus : public QObject {
    Q_OBJECT
private slots:
    void figuresFileRoundTrips()
    {
        const std::string text = readTextFile(kFigures);
        const auto figures = parseOracleFigures(text, kFigures);
        QVERIFY(figures.size() >= 500);
        QCOMPARE(oracleFiguresText(figures), text);
    }

    // Sparseloop's unsigned counts that went below zero print as 2^64 - k: such a record is a verdict
    // without figures; an ordinary one is not flagged.
    void wrappedCountsAreRecognised()
    {
        OracleFigures f;
        f.accepted = true;
        f.levels.push_back({"PE buffer", "P", 1227, 0, 0, 1627});
        QVERIFY(!oracleCountsWrapped(f));
        f.levels.push_back({"PE buffer", "Q", 9, 0, 18446744073709551471.0, 5});
        QVERIFY(oracleCountsWrapped(f));
        f.accepted = false;
        QVERIFY(!oracleCountsWrapped(f));
    }

    // The corpus covers what issue 12 asks: >= 500 designs, every format value and every S/G gene
    // value at least 20 times (over the two-input designs), all four architectures, SpMM, SpConv,
    // batched SpMM and MTTKRP, densities from 0.01 to 1; every design rebuilds to one our model
    // accepts and exports.
    void corpusCoverage()
    {
        const auto figures = parseOracleFigures(readTextFile(kFigures), kFigures);
        std::map<int, int> formatValues, sgValues;
        std::set<std::string> archs, workloads;
        double lowest = 1, highest = 0;
        int threeInput = 0;
        QTemporaryDir dir;
        for (const auto& f : figures) {
            const OracleDesign d = buildOracleDesign(kSamples, f.entry);
            QVERIFY2(d.result.valid, (f.entry.id + ": " + d.result.reason).c_str());
            workloads.insert(f.entry.workload);
            if (d.workload.inputTensors().size() != 2) {
                ++threeInput; // their S/G genes take 19 values: counted apart from issue 12's coverage
                continue;
            }
            for (const auto& g : d.layout->genes()) {
                const int index = static_cast<int>(&g - d.layout->genes().data());
                if (g.segment == GeneSegment::Format)
                    ++formatValues[f.entry.genome[index]];
                else if (g.segment == GeneSegment::SkipGate)
                    ++sgValues[f.entry.genome[index]];
            }
            archs.insert(f.entry.arch);
            for (double x : f.entry.densities) {
                lowest = std::min(lowest, x);
                highest = std::max(highest, x);
            }
        }
        QVERIFY(figures.size() >= 500);
        for (int v = 0; v < kRankFormatCount; ++v)
            QVERIFY2(formatValues[v] >= 20, ("format value " + std::to_string(v)).c_str());
        QVERIFY(!sgValues.empty());
        for (const auto& [value, count] : sgValues)
            QVERIFY2(count >= 20, ("S/G value " + std::to_string(value)).c_str());
        for (const char* a : {"edge", "mobile", "cloud", "toy"})
            QVERIFY(archs.count(a));
        for (const char* w :
             {"mm3", "conv4", "general-strided-conv", "batched-spmm", "mttkrp-small", "mttkrp"})
            QVERIFY(workloads.count(w));
        QVERIFY(threeInput >= 50); // the MTTKRP corpus (seed 29, docs/oracle.md)
        QVERIFY(lowest <= 0.02 && highest == 1);
    }

    // Against the oracle's verdicts: every design it accepts is one our model accepts (read as
    // Sparseloop reads the export, and from the genome), every design it rejects with a reason ours
    // rejects too; timeouts and Sparseloop's own assertion failures are no verdict. The agreement
    // figures are a ratchet beyond issue 12's targets (test_oracle_agreement holds those):
    // measured on 2026-11-24 over three corpora (seeds 3, 7 and 11; docs/oracle.md): 1563 of the
    // 1566 accepted designs with figures within 0.5 % in cycles and energy, all within 2 %; on
    // 2026-11-26 two held-out corpora joined (seed 23, two inputs; seed 29, MTTKRP through the
    // multi-operand oracle): all 164 of their designs with figures within 0.5 %, so 1727 of 1730;
    // the genome model (formats bound as Sparseloop binds them, spatial loops as Timeloop splits
    // them) as often as the export read back.
    void verdictsAgreeAndAgreementDoesNotRegress()
    {
        QTemporaryDir dir;
        int accepted = 0, within05 = 0, within2 = 0, genomeWithin05 = 0;
        for (const auto& f : parseOracleFigures(readTextFile(kFigures), kFigures)) {
            if (!oracleGaveVerdict(f))
                continue;
            const auto c = compareWithOracle(kSamples, f, dir.path().toStdString() + "/case");
            if (!f.accepted) {
                QVERIFY2(!c.oursValid || !c.sparseloopModeValid,
                         (f.entry.id + ": the oracle rejects it (" + f.rejection + "), our model does not")
                             .c_str());
                continue;
            }
            ++accepted;
            QVERIFY2(c.oursValid && c.sparseloopModeValid,
                     (f.entry.id + ": the oracle accepts it, our model says " + c.oursReason +
                      c.sparseloopModeReason)
                         .c_str());
            if (oracleCountsWrapped(f))
                continue; // Sparseloop's own counts went below zero: a verdict, no figures
            const double e = std::max(std::fabs(c.cyclesErrorPct), std::fabs(c.energyErrorPct));
            within05 += e <= 0.5;
            within2 += e <= 2;
            genomeWithin05 +=
                std::max(std::fabs(c.genomeCyclesErrorPct), std::fabs(c.genomeEnergyErrorPct)) <= 0.5;
        }
        QVERIFY(accepted >= 1771);
        QVERIFY2(within05 >= 1727, (std::to_string(within05) + " within 0.5 %").c_str());
        QVERIFY2(within2 >= 1730, (std::to_string(within2) + " within 2 %").c_str());
        // The genome model (what every search scores) gives the same figures as the export read back.
        QVERIFY2(genomeWithin05 >= 1727,
                 (std::to_string(genomeWithin05) + " genome designs within 0.5 %").c_str());
    }
};

QTEST_GUILESS_MAIN(TestOracleCorpus)
#include "test_oracle_corpus.moc"
