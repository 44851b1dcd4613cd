// The model against Sparseloop itself: every reference case in ../shared/reference/sparseloop is
// imported, evaluated, and compared with the cycles and energy Sparseloop printed (the expected
// values are Sparseloop's, not ours). Also: exporting a case and importing it again gives the same
// metrics, and random genomes on every bundled workload and preset never give NaN or infinity.
#include "reference_corpus.hpp"
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/sparseloop/sparseloop_export.hpp"
#include "io/sparseloop/sparseloop_import.hpp"
#include "io/sparseloop/sparseloop_stats.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "io/sparseloop/sparseloop_options.hpp"
#include "analysis/sparseloop_validation.hpp"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <random>

using namespace sparsemap;

namespace {

QString referenceRoot()
{
    return QStringLiteral(SPARSEMAP_SOURCE_DIR "/../shared/reference/sparseloop");
}

QStringList referenceCases()
{
    QStringList cases;
    QDirIterator it(referenceRoot(), {"timeloop-model.stats.txt"}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        cases << QFileInfo(it.next()).absolutePath();
    cases.sort();
    return cases;
}

const model::EvaluationResult& evaluateCase(model::Evaluator& evaluator, const SparseloopCase& c)
{
    return evaluator.evaluate(model::sparseloopDesign(c));
}

} // namespace

class TestModelReference : public QObject {
    Q_OBJECT
private slots:
    void reproducesSparseloop_data()
    {
        QTest::addColumn<QString>("dir");
        const auto cases = referenceCases();
        if (cases.isEmpty())
            SPARSEMAP_REFERENCE_MISSING("the Sparseloop reference cases (../shared/reference/sparseloop)");
        for (const auto& dir : cases)
            QTest::newRow(qPrintable(QDir(referenceRoot()).relativeFilePath(dir))) << dir;
    }
    void reproducesSparseloop()
    {
        QFETCH(QString, dir);
        const auto c = importSparseloopCase(dir.toStdString());
        const auto ref = parseSparseloopStats(dir.toStdString() + "/timeloop-model.stats.txt");
        model::Evaluator evaluator(c.workload, c.architecture, model::sparseloopModelOptions(c));
        const auto& r = evaluateCase(evaluator, c);
        QVERIFY2(r.valid, r.reason.c_str());
        // Sparseloop's counts come from floors and ceils of probabilities; a count may differ by
        // one, which moves energy by far less than 0.1 %.
        QVERIFY2(std::abs(r.cycles - ref.cycles) <= 0.001 * ref.cycles,
                 qPrintable(QString("cycles %1 vs %2").arg(r.cycles).arg(ref.cycles)));
        const double refEnergy = ref.levelEnergySumPj(); // includes the MAC level
        QVERIFY2(
            std::abs(r.energyPj - refEnergy) <= 0.001 * refEnergy,
            qPrintable(QString("energy %1 vs %2 pJ").arg(r.energyPj, 0, 'f', 2).arg(refEnergy, 0, 'f', 2)));
        // Per level too, so that a compensating error cannot hide.
        for (std::size_t s = 0; s < r.levels.size(); ++s) {
            const auto* level = ref.level(c.architecture.levels[s].name);
            QVERIFY(level);
            QVERIFY2(std::abs(r.levels[s].energyPj - level->energyPj()) <= 0.001 * level->energyPj() + 1.0,
                     qPrintable(QString("%1: %2 vs %3 pJ")
                                    .arg(QString::fromStdString(level->name))
                                    .arg(r.levels[s].energyPj, 0, 'f', 2)
                                    .arg(level->energyPj(), 0, 'f', 2)));
        }
    }

    // The 19 public Sparseloop/Timeloop exercise cases (../shared/reference/sparseloop-exercises, read
    // as given) against the reference build's figures in their EXPECTED.tsv. Issue 12's targets: every
    // case within 2 % in cycles and energy (median <= 0.5 %), and the one design Sparseloop rejects (a
    // metadata tile over its 512-bit buffer) rejected by us too. Cases the model does not meet yet are
    // expected failures naming the missing mechanism; one that starts passing fails (XPASS) so that
    // the list is kept honest.
    void exercises_data()
    {
        QTest::addColumn<QString>("name");
        const QString root = reference_corpus::path("sparseloop-exercises");
        if (!QFileInfo::exists(root + "/EXPECTED.tsv"))
            SPARSEMAP_REFERENCE_MISSING(
                "the Sparseloop exercise cases (../shared/reference/sparseloop-exercises)");
        for (const auto& e : model::parseSparseloopExpected((root + "/EXPECTED.tsv").toStdString()))
            QTest::newRow(e.caseName.c_str()) << QString::fromStdString(e.caseName);
    }
    void exercises()
    {
        QFETCH(QString, name);
        static const auto corpus =
            model::validateSparseloopCorpus(reference_corpus::path("sparseloop-exercises").toStdString());
        const auto row = std::find_if(corpus.rows.begin(), corpus.rows.end(),
                                      [&](const auto& r) { return r.caseName == name.toStdString(); });
        QVERIFY(row != corpus.rows.end());
        if (name == "var-02.2.2-spMspM-tiled-hypergeo-overflow") {
            QVERIFY2(row->outcome == model::SparseloopOutcome::BothReject, row->message.c_str());
            QVERIFY2(row->message.find("metadata capacity exceeded at BackingStorage") != std::string::npos,
                     row->message.c_str());
            return;
        }
        QVERIFY2(row->outcome == model::SparseloopOutcome::Compared, row->message.c_str());
        const QString figures = QString("cycles %1 vs %2, energy %3 vs %4 pJ")
                                    .arg(row->cycles)
                                    .arg(row->refCycles)
                                    .arg(row->energyPj, 0, 'g', 10)
                                    .arg(row->refEnergyPj, 0, 'g', 10);
        QVERIFY2(std::abs(row->cycleError) <= 0.02 && std::abs(row->energyError) <= 0.02,
                 qPrintable(figures));
    }
    void exercisesMedian()
    {
        const QString root = reference_corpus::path("sparseloop-exercises");
        if (!QFileInfo::exists(root + "/EXPECTED.tsv"))
            SPARSEMAP_REFERENCE_MISSING(
                "the Sparseloop exercise cases (../shared/reference/sparseloop-exercises)");
        const auto v = model::validateSparseloopCorpus(root.toStdString());
        QCOMPARE(static_cast<int>(v.rows.size()), 19);
        // Over the cases both evaluate (18 of 19 today; the overflow case is rejected by both).
        QVERIFY(v.compared >= 18);
        QVERIFY2(v.medianCycleError <= 0.005 && v.medianEnergyError <= 0.005,
                 qPrintable(QString("median cycles %1 %%, energy %2 %%")
                                .arg(100 * v.medianCycleError)
                                .arg(100 * v.medianEnergyError)));
    }

    void exportImportKeepsTheMetrics()
    {
        const auto cases = referenceCases();
        if (cases.isEmpty())
            SPARSEMAP_REFERENCE_MISSING("the Sparseloop reference cases (../shared/reference/sparseloop)");
        for (const auto& dir : {cases.first(), cases.last()}) {
            const auto c = importSparseloopCase(dir.toStdString());
            QTemporaryDir out;
            exportSparseloopCase(c, out.path().toStdString());
            const auto again = importSparseloopCase(out.path().toStdString());
            model::Evaluator a(c.workload, c.architecture, model::sparseloopModelOptions(c));
            model::Evaluator b(again.workload, again.architecture, model::sparseloopModelOptions(again));
            const auto ra = evaluateCase(a, c);
            const auto rb = evaluateCase(b, again);
            QCOMPARE(rb.valid, ra.valid);
            QCOMPARE(rb.cycles, ra.cycles);
            QCOMPARE(rb.energyPj, ra.energyPj);
        }
    }

    // Every bundled workload on every preset: random genomes give either an invalid design with a
    // reason or finite, positive cycles and energy.
    void randomGenomesAreFiniteEverywhere()
    {
        QDirIterator it(SPARSEMAP_SOURCE_DIR "/samples/workloads", {"*.yaml"}, QDir::Files);
        int workloads = 0;
        while (it.hasNext()) {
            const auto w = loadWorkloadFile(it.next().toStdString());
            if (w.inputTensors().size() != 2)
                continue; // e.g. MTTKRP: the SparseMap genome encodes two operands only
            ++workloads;
            for (const auto& preset : presetNames()) {
                const GenomeLayout layout(w, loadPreset(preset));
                model::GenomeEvaluator evaluator(layout);
                std::mt19937_64 rng(7);
                for (int i = 0; i < 60; ++i) {
                    const auto& r = evaluator.evaluate(randomGenome(layout, rng));
                    if (!r.valid) {
                        QVERIFY2(!r.reason.empty(), w.name.c_str());
                        continue;
                    }
                    QVERIFY2(std::isfinite(r.cycles) && r.cycles > 0, w.name.c_str());
                    QVERIFY2(std::isfinite(r.energyPj) && r.energyPj > 0, w.name.c_str());
                    QVERIFY2(std::isfinite(r.edp) && r.utilization > 0 && r.utilization <= 1.0 + 1e-9,
                             (w.name + " utilization " + std::to_string(r.utilization)).c_str());
                }
            }
        }
        QVERIFY(workloads >= 30);
    }
};

QTEST_APPLESS_MAIN(TestModelReference)
#include "test_model_reference.moc"
