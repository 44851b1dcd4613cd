// Properties that must hold whatever a count is: the number of methods in a sweep (1 to all of them)
// and the number of inputs of an Einsum (1 to kMaxInputs). Each count is run end to end (a sweep
// folder with its summaries; a workload read, laid out and searched); the expected values are the
// counts themselves and the S/G gene rule 1 + 3k(k-1) worked out by hand.
#include "genome/genome_layout.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "search/method_registry.hpp"
#include "search/optimizer.hpp"
#include "sweep/sweep_run.hpp"
#include "sweep/sweep_summary.hpp"
#include "util/file_io.hpp"
#include "util/limits.hpp"
#include "sample_inputs.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

using namespace sparsemap;

class TestPropertyCounts : public QObject {
    Q_OBJECT

private slots:
    // 1, 3, 12 and every method in one sweep on the toy: every cell runs within its budget, the
    // summary has a row per method and a comparison for each but the reference.
    void sweepsWithAnyNumberOfMethods_data()
    {
        QTest::addColumn<int>("count");
        QTest::newRow("1") << 1;
        QTest::newRow("3") << 3;
        QTest::newRow("12") << 12;
        QTest::newRow("all") << int(search::methodList().size());
    }
    void sweepsWithAnyNumberOfMethods()
    {
        QFETCH(int, count);
        std::vector<std::string> methods;
        for (const auto& m : search::methodList())
            if (int(methods.size()) < count)
                methods.push_back(std::string(m.name));
        QCOMPARE(int(methods.size()), count);
        sweep::SweepSettings settings;
        settings.budget = 40;
        const sweep::SweepGrid grid({test::sampleWorkload("toy")},
                                    {loadArchitectureFile(SPARSEMAP_SOURCE_DIR "/samples/arch/toy.yaml")}, {},
                                    methods, {1}, settings);
        QCOMPARE(grid.cellCount(), std::size_t(count));
        QTemporaryDir dir;
        const sweep::SweepFolder folder(dir.path().toStdString() + "/sweep", grid);
        sweep::SweepRunOptions options;
        options.threads = 1;
        const auto outcome = sweep::runSweepHere(grid, folder, options);
        QCOMPARE(outcome.results.size(), std::size_t(count));
        QCOMPARE(outcome.ran, std::size_t(count));
        for (const auto& r : outcome.results) {
            QVERIFY(r.evaluations >= 1 && r.evaluations <= 40);
            QVERIFY(r.validShare >= 0 && r.validShare <= 1);
            QVERIFY(!std::isnan(r.best));
        }
        QCOMPARE(outcome.summary.architectures.size(), std::size_t(1));
        const auto& arch = outcome.summary.architectures[0];
        QCOMPARE(arch.validShare.size(), std::size_t(count));
        QCOMPARE(arch.comparisons.size(), std::size_t(count - 1));
        const std::string summary = readTextFile(dir.path().toStdString() + "/sweep/summary.md");
        for (const auto& m : methods)
            QVERIFY2(summary.find(m) != std::string::npos, m.c_str());
    }

    // k = 1 .. kMaxInputs inputs: read, laid out with an S/G gene of 1 + 3k(k-1) values per site, and
    // searched (random, 60 evaluations) without an error; every point it logs is finite.
    void einsumsWithAnyNumberOfInputs()
    {
        const Architecture arch = loadPreset("edge");
        for (int k = 1; k <= kMaxInputs; ++k) {
            std::string text = "version: 1\nworkload:\n  name: e" + std::to_string(k) +
                               "\n  type: general\n  dims: {I: 6, J: 4}\n  tensors:\n";
            for (int i = 0; i < k; ++i)
                text += "    - {name: A" + std::to_string(i) + ", ranks: [I, J], density: 0.5}\n";
            text += "    - {name: Z, ranks: [I], output: true}\n";
            const Workload w = parseWorkloadYaml(text, "e.yaml");
            QCOMPARE(int(w.inputTensors().size()), k);
            const GenomeLayout layout(w, arch);
            QCOMPARE(layout.sgGeneCount(), 1 + 3 * k * (k - 1));
            search::SearchSettings settings;
            settings.budget = 60;
            settings.threads = 1;
            auto optimizer = search::makeOptimizer("random");
            const auto result = search::runSearch(*optimizer, layout, settings);
            QCOMPARE(std::int64_t(result.points.size()), std::int64_t(60));
            for (std::size_t i = 0; i < result.points.size(); ++i) {
                const auto p = result.points[i];
                if (p.valid)
                    QVERIFY(std::isfinite(p.cycles) && std::isfinite(p.energyPj) && p.cycles > 0);
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestPropertyCounts)
#include "test_property_counts.moc"
