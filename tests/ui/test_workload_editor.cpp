// The workload editor: samples load with the sizes of their files, edits go through the models with
// undo and redo, bad values and bad files are refused with a message and change nothing, actual data
// from a .mtx file sets the density it holds, and the genome panel lays out the genes the paper's
// template gives (counted by hand below).
#include "common/segment_colors.hpp"
#include "workload_editor/dimension_model.hpp"
#include "workload_editor/gene_table_model.hpp"
#include "workload_editor/genome_panel.hpp"
#include "workload_editor/parameter_model.hpp"
#include "workload_editor/sample_list_model.hpp"
#include "workload_editor/tensor_model.hpp"
#include "workload_editor/workload_document.hpp"
#include "workload_editor/workload_editor_panel.hpp"

#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "workload/workload_factory.hpp"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace sparsemap;
using namespace sparsemap::ui;

namespace {

void writeFile(const QString& path, const QByteArray& text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
}

std::vector<std::int64_t> sizes(const Workload& w)
{
    std::vector<std::int64_t> out;
    for (const auto& d : w.dims)
        out.push_back(d.size);
    return out;
}

std::vector<std::string> names(const Workload& w)
{
    return w.dimNames();
}

} // namespace

class TestWorkloadEditor : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        m_doc = std::make_unique<WorkloadDocument>();
        m_params = std::make_unique<ParameterModel>(m_doc.get());
        m_dims = std::make_unique<DimensionModel>(m_doc.get());
        m_tensors = std::make_unique<TensorModel>(m_doc.get());
        for (QAbstractItemModel* model : {static_cast<QAbstractItemModel*>(m_params.get()),
                                          static_cast<QAbstractItemModel*>(m_dims.get()),
                                          static_cast<QAbstractItemModel*>(m_tensors.get())})
            m_testers.push_back(std::make_unique<QAbstractItemModelTester>(
                model, QAbstractItemModelTester::FailureReportingMode::Fatal));
    }

    void cleanup()
    {
        m_testers.clear();
        m_tensors.reset();
        m_dims.reset();
        m_params.reset();
        m_doc.reset();
    }

    void sampleListHoldsThePaperWorkloadsInOrder()
    {
        SampleListModel samples;
        QAbstractItemModelTester tester(&samples, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const QStringList files = QDir(QStringLiteral(SPARSEMAP_SOURCE_DIR "/samples/workloads"))
                                      .entryList({"*.yaml"}, QDir::Files);
        QCOMPARE(samples.rowCount(), files.size());
        // Table III order: mm1..mm15, then conv1..conv13 (28 rows), then the extra samples.
        for (int i = 0; i < 15; ++i)
            QCOMPARE(samples.index(i).data(SampleListModel::NameRole).toString(),
                     QStringLiteral("mm%1").arg(i + 1));
        for (int i = 0; i < 13; ++i)
            QCOMPARE(samples.index(15 + i).data(SampleListModel::NameRole).toString(),
                     QStringLiteral("conv%1").arg(i + 1));
        const QModelIndex mm3 = samples.index(samples.rowOf("mm3"));
        QCOMPARE(mm3.data(SampleListModel::SummaryRole).toString(),
                 QStringLiteral("SpMM · M 730, K 730, N 730 · P 0.118, Q 0.118"));
        QVERIFY(mm3.data().toString().startsWith("mm3\n"));
        for (int row = 0; row < samples.rowCount(); ++row)
            QVERIFY2(samples.flags(samples.index(row)) & Qt::ItemIsEnabled,
                     qPrintable(samples.index(row).data(SampleListModel::SummaryRole).toString()));
    }

    void samplesLoadWithTheSizesOfTheirFiles()
    {
        QVERIFY(m_doc->loadSample("mm3").isEmpty());
        const Workload& mm3 = m_doc->workload();
        QCOMPARE(mm3.kind, WorkloadKind::SpMM);
        QCOMPARE(names(mm3), (std::vector<std::string>{"M", "K", "N"}));
        QCOMPARE(sizes(mm3), (std::vector<std::int64_t>{730, 730, 730})); // mm3.yaml: M = K = N = 730
        QCOMPARE(mm3.tensors[0].density.density, 0.118);
        QCOMPARE(mm3.tensors[1].density.density, 0.118);
        QVERIFY(m_doc->filePath().isEmpty()); // a bundled sample is never the save target
        QCOMPARE(m_params->index(m_params->rowOf(ParameterModel::Param::M), ParameterModel::Value)
                     .data()
                     .toString(),
                 QString("730"));

        // conv4.yaml: C 128, H = W = 16, K 128, R = S = 3, stride 1, same padding, N 1 (no N dim).
        // Same padding keeps P = ceil(16 / 1) = 16 and Q = 16; the dims are K, C, P, Q, R, S.
        QVERIFY(m_doc->loadSample("conv4").isEmpty());
        const Workload& conv = m_doc->workload();
        QCOMPARE(conv.kind, WorkloadKind::SpConv);
        QCOMPARE(names(conv), (std::vector<std::string>{"K", "C", "P", "Q", "R", "S"}));
        QCOMPARE(sizes(conv), (std::vector<std::int64_t>{128, 128, 16, 16, 3, 3}));
        QCOMPARE(m_tensors->index(0, TensorModel::Ranks).data().toString(), QString("C, P + R, Q + S"));
        QCOMPARE(m_tensors->index(0, TensorModel::Density).data().toString(), QString("0.477"));
        QCOMPARE(m_tensors->index(1, TensorModel::Density).data().toString(), QString("0.647"));
        QCOMPARE(m_tensors->index(2, TensorModel::Role).data().toString(), QString("output"));

        QVERIFY(!m_doc->loadSample("no-such-sample").isEmpty());
        QCOMPARE(m_doc->workload().name, std::string("conv4"));
    }

    void editingMThroughTheModelWithUndoRedo()
    {
        QVERIFY(m_doc->loadSample("mm3").isEmpty());
        const Workload before = m_doc->workload();
        const QModelIndex m =
            m_params->index(m_params->rowOf(ParameterModel::Param::M), ParameterModel::Value);
        QSignalSpy modified(m_doc.get(), &WorkloadDocument::modifiedChanged);
        QVERIFY(m_params->setData(m, "512"));
        QCOMPARE(sizes(m_doc->workload()), (std::vector<std::int64_t>{512, 730, 730}));
        QCOMPARE(m_doc->workload().tensors[0].density, before.tensors[0].density); // densities kept
        QCOMPARE(m_dims->index(0, DimensionModel::Size).data().toString(), QString("512"));
        QVERIFY(m_doc->isModified());
        QCOMPARE(modified.count(), 1);
        m_doc->undoStack()->undo();
        QCOMPARE(m_doc->workload(), before);
        QVERIFY(!m_doc->isModified());
        m_doc->undoStack()->redo();
        QCOMPARE(sizes(m_doc->workload()), (std::vector<std::int64_t>{512, 730, 730}));

        // A size that is a large prime is padded for the genome: 13 -> 14 = 2 * 7.
        QVERIFY(m_params->setData(m, "13"));
        QCOMPARE(m_dims->index(0, DimensionModel::Padded).data().toString(), QString("14"));
        QCOMPARE(m_dims->index(0, DimensionModel::Factors).data().toString(), QString("2 · 7"));
    }

    void convStrideAndPaddingRebuildTheDims()
    {
        QVERIFY(m_doc->loadSample("conv4").isEmpty());
        // Stride 2 with same padding: P = ceil(16 / 2) = 8; the input row becomes 2*P + R.
        QVERIFY(m_params->setData(m_params->index(m_params->rowOf(ParameterModel::Param::StrideH), 1), "2"));
        QCOMPARE(sizes(m_doc->workload()), (std::vector<std::int64_t>{128, 128, 8, 16, 3, 3}));
        QCOMPARE(m_tensors->index(0, TensorModel::Ranks).data().toString(), QString("C, 2*P + R, Q + S"));
        // Explicit padding 0, stride (2, 1): P = (16 - 3) / 2 + 1 = 7, Q = (16 - 3) / 1 + 1 = 14.
        QVERIFY(m_params->setData(m_params->index(m_params->rowOf(ParameterModel::Param::Padding), 1),
                                  "explicit"));
        QCOMPARE(sizes(m_doc->workload()), (std::vector<std::int64_t>{128, 128, 7, 14, 3, 3}));
        // Pad H = 1: P = (16 + 2 - 3) / 2 + 1 = 8.
        QVERIFY(m_params->setData(m_params->index(m_params->rowOf(ParameterModel::Param::PadH), 1), "1"));
        QCOMPARE(m_doc->workload().dims[2].size, std::int64_t{8});
        // A filter larger than the padded input gives no output: refused, nothing stored.
        const Workload before = m_doc->workload();
        QSignalSpy rejected(m_params.get(), &ParameterModel::rejected);
        QVERIFY(!m_params->setData(m_params->index(m_params->rowOf(ParameterModel::Param::W), 1), "2"));
        QCOMPARE(rejected.count(), 1);
        QVERIFY(rejected.first().first().toString().contains("has no output"));
        QCOMPARE(m_doc->workload(), before);
        QCOMPARE(m_doc->undoStack()->count(), 3);
    }

    void badValuesAreRefusedWithAMessage_data()
    {
        QTest::addColumn<int>("table"); // 0 parameters (row M), 1 tensors (row P)
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected"); // part of the message
        QTest::newRow("M zero") << 0 << int(ParameterModel::Value) << "0"
                                << "positive integer";
        QTest::newRow("M negative") << 0 << int(ParameterModel::Value) << "-4"
                                    << "positive integer";
        QTest::newRow("M text") << 0 << int(ParameterModel::Value) << "many"
                                << "positive integer";
        QTest::newRow("M too large") << 0 << int(ParameterModel::Value) << "2000000000000"
                                     << "2^40";
        QTest::newRow("density 1.5") << 1 << int(TensorModel::Density) << "1.5"
                                     << "(0, 1]";
        QTest::newRow("density 0") << 1 << int(TensorModel::Density) << "0"
                                   << "(0, 1]";
        QTest::newRow("density nan") << 1 << int(TensorModel::Density) << "nan"
                                     << "(0, 1]";
        QTest::newRow("n:m on uniform") << 1 << int(TensorModel::StructuredNM) << "2:4"
                                        << "fixed-structured";
        QTest::newRow("bandwidth on uniform") << 1 << int(TensorModel::Bandwidth) << "3"
                                              << "banded";
        QTest::newRow("actual without file") << 1 << int(TensorModel::Model) << "actual"
                                             << "Load .mtx";
        QTest::newRow("unknown model") << 1 << int(TensorModel::Model) << "gaussian"
                                       << "not a density model";
        QTest::newRow("missing data file") << 1 << int(TensorModel::File) << "/no/such/file.mtx"
                                           << "file.mtx";
        QTest::newRow("rename in SpMM") << 1 << int(TensorModel::Name) << "A"
                                        << "Make general";
    }

    void badValuesAreRefusedWithAMessage()
    {
        QFETCH(int, table);
        QFETCH(int, column);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QVERIFY(m_doc->loadSample("mm3").isEmpty());
        const Workload before = m_doc->workload();
        QAbstractItemModel* model = table == 0 ? static_cast<QAbstractItemModel*>(m_params.get())
                                               : static_cast<QAbstractItemModel*>(m_tensors.get());
        QSignalSpy rejected(model, SIGNAL(rejected(QString)));
        const int row = table == 0 ? m_params->rowOf(ParameterModel::Param::M) : 0;
        QVERIFY(!model->setData(model->index(row, column), text));
        QCOMPARE(rejected.count(), 1);
        const QString message = rejected.first().first().toString();
        QVERIFY2(message.contains(expected), qPrintable(message));
        QCOMPARE(m_doc->workload(), before);
        QCOMPARE(m_doc->undoStack()->count(), 0);
        QVERIFY(!m_doc->isModified());
    }

    void densityModelsAreEdited()
    {
        QVERIFY(m_doc->loadSample("toy").isEmpty()); // P 4 x 8, Q 8 x 4, densities 0.5
        QVERIFY(m_tensors->setData(m_tensors->index(1, TensorModel::Model), "fixed-structured"));
        QVERIFY(m_tensors->setData(m_tensors->index(1, TensorModel::StructuredNM), "1:4"));
        DensitySpec q = m_doc->workload().tensors[1].density;
        QCOMPARE(q.model, DensityModelKind::FixedStructured);
        QCOMPARE(q.structuredN, 1);
        QCOMPARE(q.structuredM, 4);
        QCOMPARE(q.density, 0.25);
        QVERIFY(!m_tensors->setData(m_tensors->index(1, TensorModel::StructuredNM), "5:4"));
        QVERIFY(!m_tensors->setData(m_tensors->index(1, TensorModel::Density), "0.3")); // n/m fixes it
        // Banded on P (4 x 8) at density 0.5: the band whose (2b + 1) / 8 comes closest to 0.5 has
        // b = (0.5 * 8 - 1) / 2 = 1.5, rounded to 2.
        QVERIFY(m_tensors->setData(m_tensors->index(0, TensorModel::Model), "banded"));
        QCOMPARE(m_doc->workload().tensors[0].density.model, DensityModelKind::Banded);
        QCOMPARE(m_doc->workload().tensors[0].density.bandwidth, std::int64_t{2});
        QVERIFY(m_tensors->setData(m_tensors->index(0, TensorModel::Bandwidth), "3"));
        QCOMPARE(m_doc->workload().tensors[0].density.bandwidth, std::int64_t{3});
        QVERIFY(!m_tensors->setData(m_tensors->index(0, TensorModel::Bandwidth), "-1"));
        // The output's density is derived: not editable.
        QVERIFY(!(m_tensors->flags(m_tensors->index(2, TensorModel::Density)) & Qt::ItemIsEditable));
        QCOMPARE(m_doc->undoStack()->count(), 4);
        while (m_doc->undoStack()->canUndo())
            m_doc->undoStack()->undo();
        QCOMPARE(m_doc->workload().tensors[1].density, uniformDensity(0.5));
    }

    void badYamlChangesNothing()
    {
        QVERIFY(m_doc->loadSample("mm3").isEmpty());
        QVERIFY(m_params->setData(m_params->index(m_params->rowOf(ParameterModel::Param::K), 1), "64"));
        const Workload before = m_doc->workload();
        QTemporaryDir dir;
        const QString negative = dir.filePath("negative.yaml");
        writeFile(negative, "version: 1\nworkload:\n  name: bad\n  type: spmm\n  M: -3\n  K: 4\n  N: 4\n"
                            "  density: {P: 0.5, Q: 0.5}\n");
        const QString broken = dir.filePath("broken.yaml");
        writeFile(broken, "version: 1\nworkload: {name: x, type: spmm\n");
        QSignalSpy reset(m_doc.get(), &WorkloadDocument::reset);
        for (const QString& path : {negative, broken, dir.filePath("missing.yaml")}) {
            const QString error = m_doc->loadFile(path);
            QVERIFY2(!error.isEmpty(), qPrintable(path));
            QVERIFY2(error.contains(QFileInfo(path).fileName()), qPrintable(error)); // names the file
            QCOMPARE(m_doc->workload(), before);
            QVERIFY(m_doc->filePath().isEmpty());
            QCOMPARE(m_doc->undoStack()->count(), 1); // the K edit is still undoable
            QVERIFY(m_doc->isModified());
        }
        QVERIFY(m_doc->loadFile(negative).contains(":5:")); // the line of M
        QCOMPARE(reset.count(), 0);
    }

    void saveAndLoadRoundTrip()
    {
        QVERIFY(m_doc->loadSample("conv4").isEmpty());
        QVERIFY(m_params->setData(m_params->index(m_params->rowOf(ParameterModel::Param::StrideW), 1), "2"));
        QVERIFY(!m_doc->save().isEmpty()); // no file yet
        QTemporaryDir dir;
        const QString path = dir.filePath("mine.yaml");
        QVERIFY(m_doc->saveAs(path).isEmpty());
        QVERIFY(!m_doc->isModified());
        QCOMPARE(m_doc->filePath(), path);
        const Workload saved = m_doc->workload();
        WorkloadDocument other;
        QVERIFY(other.loadFile(path).isEmpty());
        QCOMPARE(other.workload(), saved);
    }

    void generalWorkloadIsEditedDimByDim()
    {
        m_doc->newWorkload(WorkloadKind::General); // M 32, K 64, N 48; P[M,K], Q[K,N], Z[M,N]
        QCOMPARE(m_doc->workload().kind, WorkloadKind::General);
        QVERIFY(m_dims->flags(m_dims->index(0, DimensionModel::Name)) & Qt::ItemIsEditable);
        QSignalSpy rejected(m_dims.get(), &DimensionModel::rejected);
        QVERIFY(!m_dims->setData(m_dims->index(0, DimensionModel::Name), "K")); // used twice
        QVERIFY(!m_dims->setData(m_dims->index(0, DimensionModel::Name), "2x"));
        QVERIFY(!m_dims->setData(m_dims->index(0, DimensionModel::Size), "0"));
        QVERIFY(!m_dims->removeRows(1, 1)); // K indexes P and Q
        QCOMPARE(rejected.count(), 4);
        QVERIFY(rejected.last().first().toString().contains("remove it from"));

        // A new dim indexes no tensor yet: accepted, and listed as what is left to complete.
        QVERIFY(m_dims->insertRows(3, 1));
        QCOMPARE(m_doc->workload().dims.size(), std::size_t{4});
        QCOMPARE(m_doc->workload().dims[3].name, std::string("D1"));
        QCOMPARE(workloadProblems(m_doc->workload()).size(), std::size_t{1});
        QVERIFY(m_dims->setData(m_dims->index(3, DimensionModel::Size), "3"));
        // P[M, 2*K + D1]: an affine rank typed as text.
        QVERIFY(!m_tensors->setData(m_tensors->index(0, TensorModel::Ranks), "M, 2*K + X"));
        QVERIFY(m_tensors->setData(m_tensors->index(0, TensorModel::Ranks), "M, 2*K + D1"));
        const RankProjection expected{ProjectionTerm{1, 2}, ProjectionTerm{3, 1}};
        QCOMPARE(m_doc->workload().tensors[0].ranks.at(1), expected);
        QVERIFY(workloadProblems(m_doc->workload()).empty());

        // Making Q the output moves the role from Z, which becomes a dense input.
        QVERIFY(m_tensors->setData(m_tensors->index(1, TensorModel::Role), "output"));
        QVERIFY(m_doc->workload().tensors[1].isOutput);
        QVERIFY(!m_doc->workload().tensors[2].isOutput);
        QCOMPARE(m_doc->workload().tensors[2].density.density, 1.0);
        QVERIFY(!m_tensors->setData(m_tensors->index(1, TensorModel::Role), "input")); // the only output

        while (m_doc->undoStack()->canUndo())
            m_doc->undoStack()->undo();
        QCOMPARE(m_doc->workload(), WorkloadDocument::defaultWorkload(WorkloadKind::General));
        while (m_doc->undoStack()->canRedo())
            m_doc->undoStack()->redo();
        QVERIFY(m_doc->workload().tensors[1].isOutput);
        QCOMPARE(m_doc->workload().dims.size(), std::size_t{4});
    }

    void actualDensityFromAMtxFile()
    {
        QVERIFY(m_doc->loadSample("toy").isEmpty()); // P is M x K = 4 x 8
        QTemporaryDir dir;
        // 6 entries: (1,1) twice (counts once), (4,4) an explicit zero (not a nonzero), so the nonzeros are
        // (1,1), (2,3), (3,8), (4,5): 4 of 4 * 8 = 32 elements, density 0.125.
        const QString good = dir.filePath("p.mtx");
        writeFile(good, "%%MatrixMarket matrix coordinate real general\n% toy P\n4 8 6\n1 1 1.0\n2 3 2.5\n"
                        "3 8 -1\n4 4 0.0\n4 5 7\n1 1 3.0\n");
        QVERIFY(m_doc->setActualDensity(0, good).isEmpty());
        const DensitySpec& p = m_doc->workload().tensors[0].density;
        QCOMPARE(p.model, DensityModelKind::Actual);
        QCOMPARE(p.density, 0.125);
        QCOMPARE(QString::fromStdString(p.resolvedFile), QFileInfo(good).absoluteFilePath());
        QVERIFY(p.data); // read once here; the model and the hardware view take the pattern from it
        QCOMPARE(p.actualPattern().nonzeros.size(), std::size_t{4});
        QCOMPARE(m_tensors->index(0, TensorModel::Model).data().toString(), QString("actual"));
        QCOMPARE(m_tensors->index(0, TensorModel::Density).data().toString(), QString("0.125"));
        // The actual file fixes P's shape: resizing M is refused with the file's reason.
        QSignalSpy paramRejected(m_params.get(), &ParameterModel::rejected);
        QVERIFY(!m_params->setData(m_params->index(m_params->rowOf(ParameterModel::Param::M), 1), "5"));
        QVERIFY(paramRejected.first().first().toString().contains("4 x 8"));

        const Workload before = m_doc->workload();
        const QString outOfRange = dir.filePath("range.mtx");
        writeFile(outOfRange, "%%MatrixMarket matrix coordinate pattern general\n4 8 2\n1 1\n9 9\n");
        const QString malformed = dir.filePath("malformed.mtx");
        writeFile(malformed, "%%MatrixMarket matrix coordinate real general\n4 8 1\n1 one 2\n");
        const QString transposed = dir.filePath("transposed.mtx");
        writeFile(transposed, "%%MatrixMarket matrix coordinate pattern general\n8 4 1\n1 1\n");
        for (const QString& path : {outOfRange, malformed, transposed}) {
            const QString error = m_doc->setActualDensity(0, path);
            QVERIFY2(error.contains(QFileInfo(path).fileName()), qPrintable(error));
            QCOMPARE(m_doc->workload(), before);
        }
        QVERIFY(m_doc->setActualDensity(2, good).contains("input")); // Z is the output
        // The Data file column loads the same way: Q is K x N = 8 x 4, a 0/1 mask with 3 ones -> 3/32.
        const QString mask = dir.filePath("q.txt");
        writeFile(mask, "# Q\n1 0 0 0\n0 0 0 0\n0 1 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 1\n0 0 0 0\n0 0 0 0\n");
        QVERIFY(m_tensors->setData(m_tensors->index(1, TensorModel::File), mask));
        QCOMPARE(m_doc->workload().tensors[1].density.density, 3.0 / 32.0);
        m_doc->undoStack()->undo();
        QCOMPARE(m_doc->workload(), before);
    }

    void genomeTableOfASmallSpmm()
    {
        // toy: M 4 = 2*2, K 8 = 2*2*2, N 4 = 2*2 -> 7 tiling genes. The presets have 3 storage levels:
        // mapping slots DRAM_T, GLB_T, GLB_S, PE_T, PE_S -> 5 permutation genes; 3 x 5 format genes;
        // S/G sites GLB, PE buffer and compute -> 3. Total 5 + 7 + 15 + 3 = 30.
        GenomePanel panel;
        QVERIFY(m_doc->loadSample("toy").isEmpty());
        panel.setArchitecture(loadPreset("cloud"));
        panel.setWorkload(m_doc->workload());
        QAbstractItemModelTester tester(panel.geneModel(),
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        QVERIFY(panel.layout() != nullptr);
        QCOMPARE(panel.geneModel()->rowCount(), panel.layout()->size());
        QCOMPARE(panel.geneModel()->rowCount(), 30);
        // Parts: perm, tiling, P, Q, Z formats, S/G.
        const int expected[6] = {5, 7, 5, 5, 5, 3};
        int counted[6] = {};
        QCOMPARE(panel.layout()->parts().size(), std::size_t(6));
        for (int row = 0; row < panel.geneModel()->rowCount(); ++row) {
            const QModelIndex index = panel.geneModel()->index(row, GeneTableModel::Segment);
            const int part = index.data(GeneTableModel::SegmentRole).toInt();
            ++counted[part];
            const auto& info = panel.layout()->parts()[std::size_t(part)];
            QCOMPARE(index.data(Qt::BackgroundRole).value<QBrush>().color(),
                     geneSegmentTint(*panel.layout(), info.segment, info.formatSlot));
        }
        for (int s = 0; s < 6; ++s)
            QCOMPARE(counted[s], expected[s]);
        // The segment column names a format gene's tensor: rows 13, 18, 23 begin P, Q, Z.
        const auto segmentText = [&](int row) {
            return panel.geneModel()->index(row, GeneTableModel::Segment).data().toString();
        };
        QCOMPARE(segmentText(12), QString("P"));
        QCOMPARE(segmentText(17), QString("Q"));
        QCOMPARE(segmentText(22), QString("Z"));
        QCOMPARE(segmentText(27), QString("S/G"));
        QCOMPARE(panel.geneModel()->index(0, GeneTableModel::Range).data().toString(), QString("1..6")); // 3!
        QCOMPARE(panel.geneModel()->index(5, GeneTableModel::Range).data().toString(), QString("1..5"));
        // Raw: 5 * log10(3! * 4 * 8 * 4) = 5 * log10 768 = 14.43 mapping, 15 log10 5 + 3 log10 7 = 13.02
        // sparse, 27.45 in all. Encoded: 6^5 * 5^7 * 5^15 * 7^3 -> 3.89 + 4.89 + 10.48 + 2.54 = 21.80.
        QVERIFY(panel.spaceLabel()->text().contains("10<sup>27.4</sup>"));
        QVERIFY(panel.spaceLabel()->text().contains("10<sup>14.4</sup>"));
        QVERIFY(panel.spaceLabel()->text().contains("10<sup>13.0</sup>"));
        QVERIFY(panel.spaceLabel()->text().contains("10<sup>21.8</sup>"));
        QVERIFY(panel.errorText().isEmpty());

        // M = 11 is a large prime, padded to 12 = 2*2*3: 3 genes for M, 8 tiling genes, 31 in all.
        QVERIFY(m_params->setData(m_params->index(m_params->rowOf(ParameterModel::Param::M), 1), "11"));
        panel.setWorkload(m_doc->workload());
        QCOMPARE(panel.geneModel()->rowCount(), 31);
        QCOMPARE(panel.layout()->segment(GeneSegment::Tiling).size(), 8);
    }

    void genomeErrorIsShownInline()
    {
        GenomePanel panel;
        m_doc->newWorkload(WorkloadKind::General);
        QVERIFY(m_tensors->insertRows(3, 1)); // a third input: the genome takes any number
        panel.setWorkload(m_doc->workload());
        QVERIFY(panel.layout() != nullptr);
        QCOMPARE(panel.layout()->formatSegmentCount(), 4);
        QVERIFY(panel.errorText().isEmpty());
        QVERIFY(m_tensors->removeRows(3, 1));
        QVERIFY(m_tensors->removeRows(0, 2)); // no input left: Z alone
        panel.setWorkload(m_doc->workload());
        QVERIFY(panel.layout() == nullptr);
        QCOMPARE(panel.geneModel()->rowCount(), 0);
        QVERIFY2(panel.errorText().contains("at least one input tensor"), qPrintable(panel.errorText()));
        QCOMPARE(panel.errorLabel()->text(), panel.errorText());
    }

    void panelWiresEverything()
    {
        WorkloadEditorPanel panel;
        QVERIFY(panel.openSample("mm3"));
        QCOMPARE(panel.genomePanel()->layout()->workload(), panel.document()->workload());
        // mm3 on the default (edge) preset: 730 = 2*5*73 -> 3 tiling genes per dim; 5 + 9 + 15 + 3.
        QCOMPARE(panel.genomePanel()->geneModel()->rowCount(), 32);
        QVERIFY(panel.findChild<QPushButton*>("loadData_P"));
        QVERIFY(panel.findChild<QPushButton*>("loadData_Q"));
        QVERIFY(!panel.findChild<QPushButton*>("loadData_Z"));

        // A refusal lands in the message line.
        QVERIFY(!panel.parameterModel()->setData(panel.parameterModel()->index(1, 1), "-1"));
        QVERIFY(panel.messageLabel()->text().contains("positive integer"));

        // A refused density's message goes once a valid edit is made: it no longer applies.
        auto* tensors = panel.tensorModel();
        const QModelIndex density = tensors->index(0, TensorModel::Density);
        QVERIFY(!tensors->setData(density, "1.5"));
        QVERIFY2(panel.messageLabel()->text().contains("\"1.5\" is not a density"),
                 qPrintable(panel.messageLabel()->text()));
        QVERIFY(tensors->setData(density, "0.5"));
        QCOMPARE(panel.messageLabel()->text(), QString());

        // confirmDiscard guards a modified workload.
        QVERIFY(panel.parameterModel()->setData(panel.parameterModel()->index(1, 1), "100"));
        QVERIFY(panel.modifiedMarker()->text().endsWith(" *"));
        int asked = 0;
        panel.setConfirmDiscard([&asked] { return ++asked > 1; }); // refuse once, then allow
        QVERIFY(!panel.openSample("conv1"));
        QCOMPARE(panel.document()->workload().dims[0].size, std::int64_t{100});
        QVERIFY(panel.openSample("conv1"));
        QCOMPARE(asked, 2);
        QCOMPARE(panel.document()->workload().name, std::string("conv1"));
        QVERIFY(!panel.modifiedMarker()->text().endsWith(" *"));
        QVERIFY(panel.findChild<QPushButton*>("loadData_I"));

        // The genome follows the architecture.
        Architecture cloud = loadPreset("cloud");
        panel.setArchitecture(cloud);
        QCOMPARE(panel.genomePanel()->layout()->architecture().name, cloud.name);

        // Activating a sample in the list loads it.
        const QModelIndex mm1 = panel.sampleModel()->index(panel.sampleModel()->rowOf("mm1"));
        emit panel.sampleView()->activated(mm1);
        QCOMPARE(panel.document()->workload().name, std::string("mm1"));
    }

    void screenshot()
    {
        // Only when asked (SPARSEMAP_SCREENSHOT_DIR): mm3 on the cloud preset, for a look at the layout.
        const QString dir = qEnvironmentVariable("SPARSEMAP_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set SPARSEMAP_SCREENSHOT_DIR to write the screenshot");
        WorkloadEditorPanel panel;
        panel.resize(1600, 900);
        QVERIFY(panel.openSample("mm3"));
        panel.setArchitecture(loadPreset("cloud"));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.grab().save(dir + "/workload-editor.png"));
        QVERIFY(panel.openSample("conv4"));
        QVERIFY(!panel.parameterModel()->setData(panel.parameterModel()->index(1, 1), "-2")); // a message
        QTest::qWait(50); // let the toolbar lay out the new title
        QVERIFY(panel.grab().save(dir + "/workload-editor-conv.png"));
    }

private:
    std::unique_ptr<WorkloadDocument> m_doc;
    std::unique_ptr<ParameterModel> m_params;
    std::unique_ptr<DimensionModel> m_dims;
    std::unique_ptr<TensorModel> m_tensors;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> m_testers;
};

QTEST_MAIN(TestWorkloadEditor)
#include "test_workload_editor.moc"
