// Every bundled workload the genome can encode, on the edge and cloud presets: a valid design opens in
// the Design view and its hardware-behaviour picture builds and walks to the last time step without an
// error, and the steps cover the design's temporal iterations. A smoke test over real sizes (up to
// mm13's 12288 x 24576 x 12288 on 65,536 MACs) for what the unit suites check on small examples.
#include "design_view/design_view.hpp"
#include "genome/genome_codec.hpp"
#include "hardware_view/hardware_behavior_view.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "search/genome_checks.hpp"

#include <QDirIterator>
#include <QtTest>
#include <random>

using namespace sparsemap;

class TestDesignSamples : public QObject {
    Q_OBJECT
private slots:
    void everySampleOpensAndWalks();
};

void TestDesignSamples::everySampleOpensAndWalks()
{
    ui::DesignView view;
    auto* hardware = new ui::HardwareBehaviorView;
    view.addDetailTab(hardware, "Hardware behaviour");
    int opened = 0;
    QDirIterator it(SPARSEMAP_SOURCE_DIR "/samples/workloads", {"*.yaml"}, QDir::Files);
    while (it.hasNext()) {
        const QString path = it.next();
        const Workload workload = loadWorkloadFile(path.toStdString());
        if (workload.inputTensors().size() != 2)
            continue; // the genome encodes two operands (e.g. not the MTTKRP sample)
        for (const char* preset : {"edge", "cloud"}) {
            auto layout = std::make_shared<const GenomeLayout>(workload, loadPreset(preset));
            model::GenomeEvaluator evaluator(*layout);
            std::mt19937_64 rng(11);
            Genome genome;
            // Draws that fit the spatial fan-out and meshes (as the searches draw), until the model says
            // valid.
            for (int i = 0; i < 20000 && genome.empty(); ++i) {
                Genome candidate = randomGenome(*layout, rng);
                orderFormatGenesForSparseloop(*layout, candidate); // Sparseloop's format space
                if (search::spatialFanoutFits(*layout, candidate) && evaluator.evaluate(candidate).valid)
                    genome = std::move(candidate);
            }
            const QString what = QFileInfo(path).baseName() + " on " + preset;
            if (genome.empty()) {
                qWarning("no valid random design for %s in 20000 draws", qPrintable(what));
                continue;
            }
            QVERIFY2(view.showGenome(layout, genome, what).isEmpty(), qPrintable(what));
            hardware->setDesign(view.workload(), view.architecture(), view.design(), view.result());
            QVERIFY2(hardware->errorText().isEmpty(), qPrintable(what + ": " + hardware->errorText()));
            // Steps = the product of every temporal loop bound = padded MACs / the spatial product.
            double temporal = 1, spatial = 1;
            for (const auto& level : view.design().mapping.levels)
                for (const auto bound : level.bounds)
                    (level.kind == LoopKind::Temporal ? temporal : spatial) *= double(bound);
            double padded = 1;
            for (const auto& dim : view.workload().dims)
                padded *= double(dim.size);
            QCOMPARE(temporal * spatial, padded);
            QCOMPARE(double(hardware->stepCount()), temporal);
            hardware->setStep(hardware->stepCount() - 1);
            QCOMPARE(hardware->step(), hardware->stepCount() - 1);
            ++opened;
        }
    }
    QVERIFY2(opened >= 50, qPrintable(QString::number(opened)));
}

QTEST_MAIN(TestDesignSamples)
#include "test_design_samples.moc"
