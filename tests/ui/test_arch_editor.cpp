// The architecture editor: its models under QAbstractItemModelTester, validation that refuses bad
// values with a message and stores nothing, undo AND redo of every kind of edit, the modified marker,
// presets, and a save / load round trip.
#include "arch_editor/architecture_document.hpp"
#include "arch_editor/architecture_editor_panel.hpp"
#include "arch_editor/compute_model.hpp"
#include "arch_editor/energy_table_model.hpp"
#include "arch_editor/hierarchy_diagram.hpp"
#include "arch_editor/storage_level_model.hpp"
#include "arch_editor/validating_delegate.hpp"

#include "io/architecture_io.hpp"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sparsemap;
using namespace sparsemap::ui;

class TestArchEditor : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        m_doc = std::make_unique<ArchitectureDocument>();
        m_levels = std::make_unique<StorageLevelModel>(m_doc.get());
        m_energy = std::make_unique<EnergyTableModel>(m_doc.get());
        m_compute = std::make_unique<ComputeModel>(m_doc.get());
        // Fatal: any protocol violation while the tests run aborts the suite.
        for (QAbstractItemModel* model : {static_cast<QAbstractItemModel*>(m_levels.get()),
                                          static_cast<QAbstractItemModel*>(m_energy.get()),
                                          static_cast<QAbstractItemModel*>(m_compute.get())})
            m_testers.push_back(std::make_unique<QAbstractItemModelTester>(
                model, QAbstractItemModelTester::FailureReportingMode::Fatal));
        QVERIFY(m_doc->loadPreset("edge").isEmpty());
    }

    void cleanup()
    {
        m_testers.clear();
        m_compute.reset();
        m_energy.reset();
        m_levels.reset();
        m_doc.reset();
    }

    void capacityEditStoresBitsAndUndoRedo()
    {
        const int glb = m_doc->architecture().levelIndex("GLB");
        const QModelIndex cell = m_levels->index(glb, StorageLevelModel::Capacity);
        QCOMPARE(cell.data().toString(), QString("128 KB"));
        QSignalSpy changed(m_levels.get(), &QAbstractItemModel::dataChanged);
        QVERIFY(m_levels->setData(cell, "64 KB"));
        QCOMPARE(m_doc->architecture().levels[glb].capacityBits, std::int64_t{64} * 1024 * 8);
        QCOMPARE(cell.data().toString(), QString("64 KB"));
        QCOMPARE(changed.count(), 1);
        m_doc->undoStack()->undo();
        QCOMPARE(m_doc->architecture().levels[glb].capacityBits, std::int64_t{128} * 1024 * 8);
        m_doc->undoStack()->redo();
        QCOMPARE(m_doc->architecture().levels[glb].capacityBits, std::int64_t{64} * 1024 * 8);
    }

    void badValuesAreRefused_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("text");
        QTest::newRow("capacity abc") << int(StorageLevelModel::Capacity) << "abc";
        QTest::newRow("capacity 0 KB") << int(StorageLevelModel::Capacity) << "0 KB";
        QTest::newRow("capacity -5") << int(StorageLevelModel::Capacity) << "-5";
        QTest::newRow("capacity unbounded inside") << int(StorageLevelModel::Capacity) << "unbounded";
        QTest::newRow("empty name") << int(StorageLevelModel::Name) << "  ";
        QTest::newRow("duplicate name") << int(StorageLevelModel::Name) << "DRAM";
        QTest::newRow("instances 0") << int(StorageLevelModel::Instances) << "0";
        QTest::newRow("instances not dividing") << int(StorageLevelModel::Instances) << "3";
        QTest::newRow("word bits") << int(StorageLevelModel::WordBits) << "-8";
        QTest::newRow("bandwidth") << int(StorageLevelModel::ReadBandwidth) << "-1";
        QTest::newRow("technology") << int(StorageLevelModel::Technology) << "flash";
    }

    void badValuesAreRefused()
    {
        QFETCH(int, column);
        QFETCH(QString, text);
        const Architecture before = m_doc->architecture();
        QSignalSpy rejected(m_levels.get(), &StorageLevelModel::rejected);
        QVERIFY(!m_levels->setData(m_levels->index(1, column), text));
        QCOMPARE(rejected.count(), 1);
        QVERIFY(!rejected.first().first().toString().isEmpty());
        QVERIFY(m_doc->architecture() == before);
        QCOMPARE(m_doc->undoStack()->count(), 0);
        QVERIFY(!m_doc->isModified());
    }

    void delegateOnlyTranslates()
    {
        ValidatingDelegate delegate;
        const QModelIndex cell = m_levels->index(1, StorageLevelModel::Capacity);
        std::unique_ptr<QWidget> editor(delegate.createEditor(nullptr, {}, cell));
        auto* edit = qobject_cast<QLineEdit*>(editor.get());
        QVERIFY(edit);
        delegate.setEditorData(edit, cell);
        QCOMPARE(edit->text(), QString("128 KB"));
        edit->setText("abc");
        delegate.setModelData(edit, m_levels.get(), cell); // refused by the model
        QCOMPARE(cell.data().toString(), QString("128 KB"));
        edit->setText("2 MB");
        delegate.setModelData(edit, m_levels.get(), cell);
        QCOMPARE(cell.data().toString(), QString("2 MB"));
    }

    void modifiedFollowsCleanState()
    {
        QSignalSpy modified(m_doc.get(), &ArchitectureDocument::modifiedChanged);
        QVERIFY(!m_doc->isModified());
        QVERIFY(m_levels->setData(m_levels->index(1, StorageLevelModel::WordBits), "16"));
        QVERIFY(m_doc->isModified());
        m_doc->undoStack()->undo();
        QVERIFY(!m_doc->isModified());
        m_doc->undoStack()->redo();
        QVERIFY(m_doc->isModified());
        QCOMPARE(modified.count(), 3);
        // An edit that changes nothing is not an undo entry.
        QVERIFY(m_levels->setData(m_levels->index(1, StorageLevelModel::WordBits), "16"));
        QCOMPARE(m_doc->undoStack()->count(), 1);
    }

    void panelMarkerAndPresets()
    {
        ArchitectureEditorPanel panel;
        QVERIFY(!panel.modifiedMarker()->text().endsWith("*"));
        QVERIFY(panel.levelModel()->setData(panel.levelModel()->index(0, StorageLevelModel::Name),
                                            "Main memory"));
        QVERIFY(panel.modifiedMarker()->text().endsWith("*"));
        panel.document()->undoStack()->undo();
        QVERIFY(!panel.modifiedMarker()->text().endsWith("*"));
        QVERIFY(
            !panel.levelModel()->setData(panel.levelModel()->index(1, StorageLevelModel::Capacity), "abc"));
        QVERIFY(!panel.messageLabel()->text().isEmpty());
    }

    void presetsLoad()
    {
        for (const QString name : {"edge", "mobile", "cloud"}) {
            QVERIFY(m_doc->loadPreset(name).isEmpty());
            QVERIFY(m_doc->architecture() == loadPreset(name.toStdString()));
            QVERIFY(!m_doc->isModified());
        }
        QCOMPARE(m_compute->index(ComputeModel::PeArray, ComputeModel::Value).data().toString(),
                 QString("32 x 32"));
        QCOMPARE(m_compute->index(ComputeModel::MacsPerPe, ComputeModel::Value).data().toString(),
                 QString("64"));
        QVERIFY(!m_doc->loadPreset("nonexistent").isEmpty()); // a message, not a crash
        QVERIFY(m_doc->architecture() == loadPreset("cloud"));
    }

    void saveAndLoadRoundTrip()
    {
        QTemporaryDir dir;
        QVERIFY(m_levels->setData(m_levels->index(1, StorageLevelModel::Capacity), "96 KB"));
        const QString path = dir.filePath("arch.yaml");
        QVERIFY(m_doc->saveAs(path).isEmpty());
        QVERIFY(!m_doc->isModified());
        const Architecture saved = m_doc->architecture();
        QVERIFY(m_doc->loadPreset("cloud").isEmpty());
        QVERIFY(m_doc->loadFile(path).isEmpty());
        QVERIFY(m_doc->architecture() == saved);
        QCOMPARE(m_doc->filePath(), path);
        QVERIFY(!m_doc->loadFile(dir.filePath("missing.yaml")).isEmpty());
        QVERIFY(!m_doc->saveAs(dir.filePath("no/such/dir/a.yaml")).isEmpty());
        QVERIFY(m_doc->architecture() == saved);
    }

    void addAndRemoveLevelWithUndo()
    {
        const Architecture before = m_doc->architecture();
        QSignalSpy inserted(m_levels.get(), &QAbstractItemModel::rowsInserted);
        QVERIFY(m_levels->insertRows(2, 1));
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(m_levels->rowCount(), before.levelCount() + 1);
        m_doc->undoStack()->undo();
        QVERIFY(m_doc->architecture() == before);
        m_doc->undoStack()->redo();
        QCOMPARE(m_levels->rowCount(), before.levelCount() + 1);
        const Architecture added = m_doc->architecture();
        QVERIFY(m_levels->removeRows(2, 1));
        QVERIFY(m_doc->architecture() == before);
        m_doc->undoStack()->undo();
        QVERIFY(m_doc->architecture() == added);
        m_doc->undoStack()->redo();
        QVERIFY(m_doc->architecture() == before);
        // Two levels is the minimum: removing one more is refused with a message.
        QVERIFY(m_levels->removeRows(1, 1));
        QSignalSpy rejected(m_levels.get(), &StorageLevelModel::rejected);
        QVERIFY(!m_levels->removeRows(0, 1));
        QCOMPARE(rejected.count(), 1);
    }

    void energyTableEdits()
    {
        m_energy->setComponent(1); // GLB
        const int rows = m_energy->rowCount();
        QVERIFY(m_energy->setData(m_energy->index(0, EnergyTableModel::EnergyPj), "0.5"));
        QCOMPARE(m_doc->architecture().levels[1].energy.energyPj("read"), 0.5);
        QSignalSpy rejected(m_energy.get(), &EnergyTableModel::rejected);
        QVERIFY(!m_energy->setData(m_energy->index(0, EnergyTableModel::EnergyPj), "-1"));
        QVERIFY(!m_energy->setData(m_energy->index(0, EnergyTableModel::Action), "mac_random"));
        QVERIFY(!m_energy->setData(m_energy->index(0, EnergyTableModel::Action), "write"));
        QCOMPARE(rejected.count(), 3);
        QVERIFY(m_energy->removeRows(0, 1));
        QCOMPARE(m_energy->rowCount(), rows - 1);
        QVERIFY(m_energy->insertRows(0, 1));
        QCOMPARE(m_energy->index(0, 0).data().toString(), QString("read"));
        m_doc->undoStack()->undo();
        m_doc->undoStack()->undo();
        QCOMPARE(m_energy->rowCount(), rows);
        m_doc->undoStack()->undo();
        QCOMPARE(m_doc->architecture().levels[1].energy.energyPj("read"), 0.7);
        m_doc->undoStack()->redo();
        QCOMPARE(m_energy->index(0, 1).data().toString(), QString("0.5"));
        m_energy->setComponent(EnergyTableModel::kCompute);
        QVERIFY(m_energy->setData(m_energy->index(0, EnergyTableModel::EnergyPj), "0.1"));
        QCOMPARE(m_doc->architecture().compute.energy.energyPj("mac_random"), 0.1);
    }

    void computeEditsAndDiagram()
    {
        HierarchyDiagram diagram(m_doc.get());
        QVERIFY(diagram.boxLabels().last().startsWith("MAC x 1"));
        QVERIFY(m_compute->setData(m_compute->index(ComputeModel::MacsPerPe, ComputeModel::Value), "4"));
        QCOMPARE(m_doc->architecture().compute.instances, std::int64_t{1024});
        QVERIFY(diagram.boxLabels().last().startsWith("MAC x 4"));
        QVERIFY(m_compute->setData(m_compute->index(ComputeModel::PeArray, ComputeModel::Value), "8 x 4"));
        QCOMPARE(m_doc->architecture().levels.back().instances, std::int64_t{32});
        QCOMPARE(m_doc->architecture().compute.instances, std::int64_t{128});
        QVERIFY(diagram.boxLabels()[2].startsWith("PE buffer x 32"));
        QVERIFY(!m_compute->setData(m_compute->index(ComputeModel::ClockGHz, ComputeModel::Value), "0"));
        QVERIFY(!m_compute->setData(m_compute->index(ComputeModel::PeArray, ComputeModel::Value), "16"));
        m_doc->undoStack()->undo();
        m_doc->undoStack()->undo();
        QVERIFY(m_doc->architecture() == loadPreset("edge"));
        m_doc->undoStack()->redo();
        QCOMPARE(m_doc->architecture().compute.instances, std::int64_t{1024});
        diagram.resize(600, 90);
        QVERIFY(!diagram.grab().isNull()); // paints without crashing
    }

    // The core stores capacities in bits; KB is binary (docs/file-formats.md): 4 KB = 4 * 1024 * 8.
    void metadataCapacityIsSeparateOrShared()
    {
        const int glb = m_doc->architecture().levelIndex("GLB");
        const QModelIndex cell = m_levels->index(glb, StorageLevelModel::MetadataCapacity);
        QCOMPARE(cell.data().toString(), QString("shared"));
        QCOMPARE(cell.data(Qt::EditRole).toString(), QString()); // empty = shares the data capacity
        QVERIFY(m_levels->setData(cell, "4 KB"));
        QCOMPARE(m_doc->architecture().levels[glb].metadataCapacityBits, std::int64_t{4 * 1024 * 8});
        QCOMPARE(cell.data().toString(), QString("4 KB"));
        QSignalSpy rejected(m_levels.get(), &StorageLevelModel::rejected);
        for (const QString bad : {"-1 KB", "0", "unbounded", "4 parsecs"}) {
            QVERIFY2(!m_levels->setData(cell, bad), qPrintable(bad));
            QCOMPARE(m_doc->architecture().levels[glb].metadataCapacityBits, std::int64_t{4 * 1024 * 8});
        }
        QCOMPARE(rejected.count(), 4);
        QCOMPARE(m_doc->undoStack()->count(), 1);
        m_doc->undoStack()->undo();
        QCOMPARE(m_doc->architecture().levels[glb].metadataCapacityBits, std::int64_t{0});
        QCOMPARE(cell.data().toString(), QString("shared"));
        m_doc->undoStack()->redo();
        QCOMPARE(m_doc->architecture().levels[glb].metadataCapacityBits, std::int64_t{4 * 1024 * 8});
        // "words" of a metadata capacity are metadata words: 16-bit words x 100 = 1600 bits.
        QVERIFY(m_levels->setData(m_levels->index(glb, StorageLevelModel::MetadataWordBits), "16"));
        QVERIFY(m_levels->setData(cell, "100 words"));
        QCOMPARE(m_doc->architecture().levels[glb].metadataCapacityBits, std::int64_t{1600});
        QVERIFY(m_levels->setData(cell, ""));
        QCOMPARE(m_doc->architecture().levels[glb].metadataCapacityBits, std::int64_t{0});
    }

    // edge: DRAM x1, GLB x1, PE buffer 256 = 16 x 16 (mesh_x 16), 256 MACs (mesh_x 16).
    void meshEditsFollowTheCoresFanoutRules()
    {
        const Architecture edge = m_doc->architecture();
        const QModelIndex peMesh = m_levels->index(2, StorageLevelModel::Mesh);
        QCOMPARE(peMesh.data().toString(), QString("16 x 16"));
        QCOMPARE(m_levels->index(1, StorageLevelModel::Mesh).data().toString(), QString("1 x 1 (auto)"));
        QSignalSpy rejected(m_levels.get(), &StorageLevelModel::rejected);
        // 3 GLBs cannot each feed the same number of the 256 PE buffers (architectureProblems' words).
        QVERIFY(!m_levels->setData(m_levels->index(1, StorageLevelModel::Mesh), "3 x 1"));
        QCOMPARE(rejected.last().first().toString(),
                 QString("level PE buffer: instances (256) must be a multiple of the level above (3)"));
        // 512 PE buffers cannot feed 256 MACs.
        QVERIFY(!m_levels->setData(peMesh, "16 x 32"));
        QCOMPARE(
            rejected.last().first().toString(),
            QString("compute: instances (256) must be a multiple of the innermost storage level's (512)"));
        // 8 instances on a 16-column grid: only the file loader checks this; the editor asks it.
        QVERIFY(!m_levels->setData(m_levels->index(2, StorageLevelModel::Instances), "8"));
        QCOMPARE(rejected.last().first().toString(),
                 QString("level PE buffer: mesh_x (16) must divide instances (8)"));
        QVERIFY(!m_levels->setData(peMesh, "16 by 16"));
        QCOMPARE(rejected.count(), 4);
        QVERIFY(m_doc->architecture() == edge);
        QCOMPARE(m_doc->undoStack()->count(), 0);

        // 8 x 4 = 32 PE buffers, each feeding 256 / 32 = 8 MACs: consistent, accepted.
        HierarchyDiagram diagram(m_doc.get());
        QVERIFY(m_levels->setData(peMesh, "8 x 4"));
        QCOMPARE(m_doc->architecture().levels[2].instances, std::int64_t{32});
        QCOMPARE(m_doc->architecture().levels[2].meshX, std::int64_t{8});
        QCOMPARE(diagram.boxLabels()[2], QString("PE buffer x 32\n1 KB\n8 x 4 grid"));
        QVERIFY(diagram.boxLabels()[3].startsWith("MAC x 8\n"));
        QVERIFY(m_levels->setData(peMesh, "auto")); // the default grid of 32: 4 columns x 8 rows
        QCOMPARE(m_doc->architecture().levels[2].meshX, std::int64_t{0});
        QCOMPARE(peMesh.data().toString(), QString("4 x 8 (auto)"));
        m_doc->undoStack()->undo();
        QCOMPARE(m_doc->architecture().levels[2].meshX, std::int64_t{8});
        m_doc->undoStack()->undo();
        QVERIFY(m_doc->architecture() == edge);
        QCOMPARE(diagram.boxLabels()[2], QString("PE buffer x 256\n1 KB\n16 x 16 grid"));
    }

    void otherLevelFieldsAreEditable()
    {
        const Architecture edge = m_doc->architecture();
        QVERIFY(m_levels->setData(m_levels->index(1, StorageLevelModel::BlockSize), "4"));
        QVERIFY(m_levels->setData(m_levels->index(1, StorageLevelModel::MetadataWordBits), "4"));
        QVERIFY(m_levels->setData(m_levels->index(1, StorageLevelModel::WriteBandwidth), "8"));
        const StorageLevel& glb = m_doc->architecture().levels[1];
        QCOMPARE(glb.blockSize, 4);
        QCOMPARE(glb.metadataWordBits, 4);
        QCOMPARE(glb.writeBandwidth, 8.0);
        QCOMPARE(glb.readBandwidth, 32.0); // untouched
        const Architecture edited = m_doc->architecture();
        QSignalSpy rejected(m_levels.get(), &StorageLevelModel::rejected);
        QVERIFY(!m_levels->setData(m_levels->index(1, StorageLevelModel::BlockSize), "0"));
        QVERIFY(!m_levels->setData(m_levels->index(1, StorageLevelModel::MetadataWordBits), "-8"));
        QVERIFY(!m_levels->setData(m_levels->index(1, StorageLevelModel::WordBits), "5000"));
        QCOMPARE(rejected.count(), 3);
        QVERIFY(m_doc->architecture() == edited);
        for (int i = 0; i < 3; ++i)
            m_doc->undoStack()->undo();
        QVERIFY(m_doc->architecture() == edge);
    }

    void computeNamesAndMacArray()
    {
        const Architecture edge = m_doc->architecture();
        const QModelIndex macArray = m_compute->index(ComputeModel::MacArray, ComputeModel::Value);
        QCOMPARE(macArray.data().toString(), QString("16 x 16"));
        QVERIFY(m_compute->setData(macArray, "32 x 8"));
        QCOMPARE(m_doc->architecture().compute.meshX, std::int64_t{32});
        QCOMPARE(m_doc->architecture().compute.instances, std::int64_t{256});
        QSignalSpy rejected(m_compute.get(), &ComputeModel::rejected);
        QVERIFY(!m_compute->setData(macArray, "8 x 8")); // 64 MACs under 256 PEs
        QCOMPARE(
            rejected.last().first().toString(),
            QString("compute: instances (64) must be a multiple of the innermost storage level's (256)"));
        QVERIFY(
            !m_compute->setData(m_compute->index(ComputeModel::ArchitectureName, ComputeModel::Value), " "));
        QVERIFY(!m_compute->setData(m_compute->index(ComputeModel::MacName, ComputeModel::Value), ""));
        QCOMPARE(rejected.count(), 3);
        QVERIFY(m_compute->setData(m_compute->index(ComputeModel::MacName, ComputeModel::Value), "ALU"));
        QVERIFY(m_compute->setData(m_compute->index(ComputeModel::ArchitectureName, ComputeModel::Value),
                                   "edge-2"));
        QCOMPARE(m_doc->architecture().compute.name, std::string("ALU"));
        QCOMPARE(m_doc->architecture().name, std::string("edge-2"));
        // 4 MACs per PE on a 32-column MAC grid over 16 PE columns: 2 MAC columns per PE column stay.
        QVERIFY(m_compute->setData(m_compute->index(ComputeModel::MacsPerPe, ComputeModel::Value), "4"));
        QCOMPARE(m_doc->architecture().compute.instances, std::int64_t{1024});
        QCOMPARE(macArray.data().toString(), QString("32 x 32"));
        for (int i = 0; i < 4; ++i)
            m_doc->undoStack()->undo();
        QVERIFY(m_doc->architecture() == edge);
    }

    void everyNewFieldSurvivesSaveAndLoad()
    {
        QVERIFY(m_levels->setData(m_levels->index(1, StorageLevelModel::MetadataCapacity), "4 KB"));
        QVERIFY(m_levels->setData(m_levels->index(1, StorageLevelModel::MetadataWordBits), "4"));
        QVERIFY(m_levels->setData(m_levels->index(1, StorageLevelModel::BlockSize), "2"));
        QVERIFY(m_levels->setData(m_levels->index(2, StorageLevelModel::Mesh), "32 x 4"));
        QVERIFY(m_levels->setData(m_levels->index(2, StorageLevelModel::WriteBandwidth), "0.5"));
        QVERIFY(m_compute->setData(m_compute->index(ComputeModel::MacArray, ComputeModel::Value), "64 x 4"));
        QVERIFY(m_compute->setData(m_compute->index(ComputeModel::MacName, ComputeModel::Value), "ALU"));
        QTemporaryDir dir;
        const QString path = dir.filePath("edited.yaml");
        QVERIFY(m_doc->saveAs(path).isEmpty());
        const Architecture loaded = loadArchitectureFile(path.toStdString());
        QVERIFY(loaded == m_doc->architecture());
        QCOMPARE(loaded.levels[1].metadataCapacityBits, std::int64_t{4 * 1024 * 8});
        QCOMPARE(loaded.levels[1].metadataWordBits, 4);
        QCOMPARE(loaded.levels[1].blockSize, 2);
        QCOMPARE(loaded.levels[2].instances, std::int64_t{128});
        QCOMPARE(loaded.levels[2].meshX, std::int64_t{32});
        QCOMPARE(loaded.levels[2].writeBandwidth, 0.5);
        QCOMPARE(loaded.compute.meshX, std::int64_t{64});
        QCOMPARE(loaded.compute.name, std::string("ALU"));
    }

    void panelShowsTheCoresMessage()
    {
        ArchitectureEditorPanel panel;
        QVERIFY(!panel.levelModel()->setData(panel.levelModel()->index(1, StorageLevelModel::Mesh), "3 x 1"));
        QCOMPARE(panel.messageLabel()->text(),
                 QString("level PE buffer: instances (256) must be a multiple of the level above (3)"));
        // The next accepted edit clears the stale refusal.
        QVERIFY(panel.levelModel()->setData(panel.levelModel()->index(1, StorageLevelModel::BlockSize), "2"));
        QVERIFY(panel.messageLabel()->text().isEmpty());
    }

private:
    std::unique_ptr<ArchitectureDocument> m_doc;
    std::unique_ptr<StorageLevelModel> m_levels;
    std::unique_ptr<EnergyTableModel> m_energy;
    std::unique_ptr<ComputeModel> m_compute;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> m_testers;
};

QTEST_MAIN(TestArchEditor)
#include "test_arch_editor.moc"
