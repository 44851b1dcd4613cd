// A design file is self-contained: it embeds its workload and architecture (`inputs`), so that
// `sparsemap evaluate DESIGN.yaml` alone, with no other file, gives the numbers it was saved with,
// also for an edited architecture that is no preset.
#include "cli_run.hpp"

#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/design_io.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "search/method_registry.hpp"
#include "search/optimizer.hpp"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace sparsemap;

namespace {

// "mobile" with a quarter of its GLB and an eighth of its DRAM bandwidth, named as the workbench names
// an edited preset.
Architecture editedMobile()
{
    Architecture arch = loadPreset("mobile");
    arch.levels[std::size_t(arch.levelIndex("GLB"))].capacityBits /= 4;
    arch.levels[0].readBandwidth /= 8;
    arch.levels[0].writeBandwidth /= 8;
    arch.name = "mobile (2)";
    return arch;
}

// The best design of a short random search, with the model's metrics for it.
struct Saved {
    Genome genome;
    model::EvaluationResult result;
};
Saved bestOfSearch(const GenomeLayout& layout)
{
    search::SearchSettings settings;
    settings.budget = 400;
    settings.seed = 5;
    settings.threads = 1;
    const auto optimizer = search::makeOptimizer("sparsemap");
    const auto found = search::runSearch(*optimizer, layout, settings);
    const auto best = found.best();
    if (!best)
        return {};
    model::GenomeEvaluator evaluator(layout);
    Saved saved{best->genome.toGenome(), {}};
    saved.result = evaluator.evaluate(saved.genome);
    return saved;
}

double printed(const QString& out, const char* pattern)
{
    const auto match = QRegularExpression(pattern).match(out);
    return match.hasMatch() ? match.captured(1).toDouble() : -1;
}

} // namespace

class TestCliEvaluateDesign : public QObject {
    Q_OBJECT
private slots:
    void designFileCarriesItsWorkloadAndArchitecture()
    {
        const Workload w = loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/mm3.yaml");
        const Architecture arch = editedMobile();
        const GenomeLayout layout(w, arch);
        const Saved saved = bestOfSearch(layout);
        QVERIFY(saved.result.valid);
        const std::string text = designToYaml(layout, saved.genome, decodeGenome(layout, saved.genome));
        const auto inputs = parseDesignInputs(text, "d.design.yaml");
        QVERIFY(inputs);
        QVERIFY(inputs->workload == w);
        QVERIFY(inputs->architecture == arch);
        // A file written before designs carried their inputs has none.
        const std::string older = text.substr(0, text.find("  inputs:"));
        QVERIFY(!parseDesignInputs(older, "old.design.yaml"));
        // A damaged embedded architecture is reported at the design file's line, naming the entry.
        std::string damaged = text;
        damaged.replace(damaged.find("instances: 1"), 12, "instances: 0");
        try {
            parseDesignInputs(damaged, "bad.design.yaml");
            QFAIL("a design whose embedded DRAM has 0 instances was read");
        } catch (const InputError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("bad.design.yaml:") != std::string::npos, e.what());
            QVERIFY2(what.find("design.inputs.architecture") != std::string::npos, e.what());
        }
    }

    void evaluateReadsTheDesignFileAlone()
    {
        const Workload w = loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/mm3.yaml");
        const Architecture arch = editedMobile();
        const GenomeLayout layout(w, arch);
        const Saved saved = bestOfSearch(layout);
        QVERIFY(saved.result.valid);
        QTemporaryDir dir;
        const QString path = dir.filePath("edited.design.yaml");
        const DesignMetrics metrics{true, {}, saved.result.cycles, saved.result.energyPj, saved.result.edp};
        saveDesignFile(layout, saved.genome, decodeGenome(layout, saved.genome), path.toStdString(),
                       &metrics);

        const auto r = clitest::runSparsemap({"evaluate", path});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // The summary prints energy and EDP to 6 significant digits, cycles to 3 above 10^6.
        const double energy = printed(r.out, "energy +([0-9.e+]+) pJ");
        const double edp = printed(r.out, "EDP +([0-9.e+]+) cycles");
        const double cycles = printed(r.out, "cycles +([0-9.e+]+)\n");
        QVERIFY2(energy > 0 && edp > 0 && cycles > 0, qPrintable(r.out));
        QVERIFY2(std::abs(energy / saved.result.energyPj - 1) < 5e-6, qPrintable(r.out));
        QVERIFY2(std::abs(edp / saved.result.edp - 1) < 5e-6, qPrintable(r.out));
        QVERIFY2(std::abs(cycles / saved.result.cycles - 1) < (saved.result.cycles < 1e6 ? 1e-12 : 5e-3),
                 qPrintable(r.out));
        // On the preset the file names in its `architecture` line the design is faster: the numbers
        // above are the edited architecture's.
        const GenomeLayout onPreset(w, loadPreset("mobile"));
        model::GenomeEvaluator preset(onPreset);
        QVERIFY(preset.evaluate(saved.genome).cycles < saved.result.cycles); // DRAM 8x faster there

        // A design file without inputs alone is a usage error that says what to give.
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(file.readAll());
        file.close();
        const QString older = dir.filePath("older.design.yaml");
        QFile out(older);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.left(text.indexOf("  inputs:")).toUtf8());
        out.close();
        const auto bare = clitest::runSparsemap({"evaluate", older});
        QCOMPARE(bare.exitCode == 0, false);
        QVERIFY2(bare.err.contains("has no `inputs`"), qPrintable(bare.err));
    }
};

QTEST_MAIN(TestCliEvaluateDesign)
#include "test_cli_evaluate_design.moc"
