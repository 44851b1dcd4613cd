// The session behind the project panel: entries are added, named uniquely, renamed and removed, and the
// tree model follows (groups with their children, summaries), with pins kept pointing at their runs.
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "project/project_store.hpp"
#include "project/project_tree_model.hpp"
#include "synthetic_session.hpp"

#include <QSignalSpy>
#include <QtTest>

using sparsemap::RunRecord;
using sparsemap::ui::ProjectStore;
using sparsemap::ui::ProjectTreeModel;
using Group = ProjectStore::Group;

namespace {

// A run with `n` valid points of objective (and EDP) 10, 20, ...: the best is point 0.
RunRecord makeRun(const std::string& name, int n)
{
    return sparsemap::test::rankedRun(name, "random", n);
}

} // namespace

class TestProject : public QObject {
    Q_OBJECT
private slots:
    void upsertReplacesByName();
    void runNamesAreUnique();
    void removingARunDropsAndRenumbersPins();
    void treeFollowsTheStore();
    void renameThroughTheModel();
};

void TestProject::upsertReplacesByName()
{
    ProjectStore store;
    QSignalSpy modified(&store, &ProjectStore::modifiedChanged);
    auto cloud = sparsemap::loadPreset("cloud");
    QCOMPARE(store.upsertArchitecture(sparsemap::loadPreset("edge")), 0);
    QCOMPARE(store.upsertArchitecture(cloud), 1);
    QVERIFY(store.isModified());
    QCOMPARE(modified.count(), 1);
    cloud.clockGHz = 2.0;
    QCOMPARE(store.upsertArchitecture(cloud), 1); // same name: replaced, not added
    QCOMPARE(store.count(Group::Architectures), 2);
    QCOMPARE(store.session().architectures[1].clockGHz, 2.0);
    store.markClean();
    QVERIFY(!store.isModified());
    store.updateArchitecture(1, cloud); // no change: stays clean
    QVERIFY(!store.isModified());
}

void TestProject::runNamesAreUnique()
{
    ProjectStore store;
    QCOMPARE(store.addRun(makeRun("sa mm3", 3)), 0);
    QCOMPARE(store.addRun(makeRun("sa mm3", 3)), 1);
    QCOMPARE(store.addRun(makeRun("sa mm3", 3)), 2);
    QCOMPARE(store.session().runs[1].name, std::string("sa mm3 (2)"));
    QCOMPARE(store.session().runs[2].name, std::string("sa mm3 (3)"));
    store.rename(Group::Runs, 2, "sa mm3"); // taken by run 0: made unique again
    QCOMPARE(store.session().runs[2].name, std::string("sa mm3 (3)"));
    store.rename(Group::Runs, 2, "third");
    QCOMPARE(store.session().runs[2].name, std::string("third"));
}

void TestProject::removingARunDropsAndRenumbersPins()
{
    ProjectStore store;
    store.addRun(makeRun("a", 2));
    store.addRun(makeRun("b", 4));
    store.addRun(makeRun("c", 3));
    QCOMPARE(store.pin(0, 1, "a1"), 0);
    QCOMPARE(store.pin(1, 3, "b3"), 1);
    QCOMPARE(store.pin(2, 2, "c2"), 2);
    QCOMPARE(store.pin(2, 3, "out of range"), -1); // run c has points 0..2
    QCOMPARE(store.pin(5, 0, "no such run"), -1);
    store.remove(Group::Runs, 1);
    QCOMPARE(store.count(Group::Runs), 2);
    QCOMPARE(store.count(Group::Pinned), 2);
    QCOMPARE(store.session().pinned[0].name, std::string("a1"));
    QCOMPARE(store.session().pinned[0].run, 0);
    QCOMPARE(store.session().pinned[1].name, std::string("c2"));
    QCOMPARE(store.session().pinned[1].run, 1); // c moved from 2 to 1
    QCOMPARE(store.session().runs[1].name, std::string("c"));
}

void TestProject::treeFollowsTheStore()
{
    ProjectStore store;
    ProjectTreeModel model(&store);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.rowCount(model.indexOf(Group::Runs)), 0);
    store.upsertWorkload(sparsemap::loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/toy.yaml"));
    store.addRun(makeRun("r", 5));
    store.pin(0, 0, "best");
    QCOMPARE(model.rowCount(model.indexOf(Group::Workloads)), 1);
    QCOMPARE(model.rowCount(model.indexOf(Group::Runs)), 1);
    QCOMPARE(model.data(model.indexOf(Group::Runs)).toString(), QString("Runs (1)"));
    const QModelIndex run = model.indexOf(Group::Runs, 0);
    QCOMPARE(model.parent(run), model.indexOf(Group::Runs));
    QCOMPARE(model.data(run).toString(), QString("r"));
    // Summary: method, evaluations, best objective (10, point 0).
    QCOMPARE(model.data(run.siblingAtColumn(1)).toString(), QString("random, 5 evals, best 10"));
    QCOMPARE(model.data(model.indexOf(Group::Pinned, 0).siblingAtColumn(1)).toString(),
             QString("r #0, EDP 10"));
    const auto item = model.itemAt(run);
    QVERIFY(item && item->group == Group::Runs && item->row == 0);
    store.remove(Group::Runs, 0);
    QCOMPARE(model.rowCount(model.indexOf(Group::Runs)), 0);
    QCOMPARE(model.rowCount(model.indexOf(Group::Pinned)), 0);
}

void TestProject::renameThroughTheModel()
{
    ProjectStore store;
    ProjectTreeModel model(&store);
    store.addRun(makeRun("r", 1));
    store.upsertArchitecture(sparsemap::loadPreset("edge"));
    const QModelIndex run = model.indexOf(Group::Runs, 0);
    QVERIFY(model.flags(run) & Qt::ItemIsEditable);
    QVERIFY(!model.setData(run, "   ")); // empty names are refused
    store.pin(0, 0, "p");
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QVERIFY(model.setData(run, "renamed"));
    QCOMPARE(store.session().runs[0].name, std::string("renamed"));
    // Renamed in place: no rows removed (the view keeps its selection), the pin's summary follows.
    QCOMPARE(removed.count(), 0);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(model.data(model.indexOf(Group::Pinned, 0).siblingAtColumn(1)).toString(),
             QString("renamed #0, EDP 10"));
    // An architecture is renamed in its editor, not in the tree.
    QVERIFY(!(model.flags(model.indexOf(Group::Architectures, 0)) & Qt::ItemIsEditable));
}

QTEST_MAIN(TestProject)
#include "test_project.moc"
