// The SessionController: runs keep their ids while runs before them are removed, pins refer to their
// runs by id, the shown design follows its run, and the project tree follows every change row by row
// (never a reset) under QAbstractItemModelTester. Expected names and indices are worked out by hand
// from the three runs a (2 points), b (4) and c (3), whose point i has objective and EDP 10 (i + 1).
#include "compare/compare_view.hpp"
#include "compare/run_table_model.hpp"
#include "design_view/design_view.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "project/project_panel.hpp"
#include "project/project_tree_model.hpp"
#include "project/session_controller.hpp"
#include "synthetic_session.hpp"
#include "workbench/main_window.hpp"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using sparsemap::RunRecord;
using sparsemap::ui::ProjectStore;
using sparsemap::ui::ProjectTreeModel;
using sparsemap::ui::RunId;
using sparsemap::ui::RunTableModel;
using sparsemap::ui::SessionController;
using Group = ProjectStore::Group;

namespace {

// A run of method `method` with `n` valid points of objective (and EDP) 10, 20, ...: the best is point 0.
// (On the toy workload and the edge preset.)
RunRecord makeRun(const std::string& name, const std::string& method, int n)
{
    RunRecord run = sparsemap::test::rankedRun(name, method, n);
    run.workload = sparsemap::loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/toy.yaml");
    run.architecture = sparsemap::loadPreset("edge");
    return run;
}

// The names of a group's rows in the tree, in order.
QStringList names(const ProjectTreeModel& model, Group group)
{
    QStringList list;
    const QModelIndex parent = model.indexOf(group);
    for (int r = 0; r < model.rowCount(parent); ++r)
        list << model.index(r, 0, parent).data().toString();
    return list;
}

QStringList column(const RunTableModel& model, int column)
{
    QStringList list;
    for (int r = 0; r < model.rowCount(); ++r)
        list << model.index(r, column).data().toString();
    return list;
}

} // namespace

class TestSessionController : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void removingTheMiddleRunKeepsPinsOnTheirRuns();
    void idsAreNeverReused();
    void shownDesignFollowsItsRun();
    void treeUpdatesInPlaceUnderTheTester();
    void windowPinsTheShownDesignAfterARemoval();

private:
    QTemporaryDir m_dir;
};

void TestSessionController::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("SparseMapTest");
    QCoreApplication::setApplicationName("SessionControllerTest");
    QSettings().clear();
    QVERIFY(m_dir.isValid());
}

void TestSessionController::removingTheMiddleRunKeepsPinsOnTheirRuns()
{
    SessionController session;
    ProjectTreeModel tree(session.store());
    sparsemap::ui::CompareView compare;
    auto showSession = [&] { compare.setSession(session.session()); };
    connect(&session, &SessionController::runsChanged, &compare, showSession);
    connect(&session, &SessionController::pinsChanged, &compare, showSession);
    QSignalSpy added(&session, &SessionController::runAdded);
    QSignalSpy removed(&session, &SessionController::runRemoved);

    const RunId a = session.addRun(makeRun("a", "random", 2));
    const RunId b = session.addRun(makeRun("b", "sa", 4));
    const RunId c = session.addRun(makeRun("c", "ga", 3));
    QCOMPARE(added.count(), 3);
    QVERIFY(a != RunId::None && b != RunId::None && c != RunId::None);
    QVERIFY(a != b && b != c && a != c);
    QCOMPARE(session.pin(a, 1, "a1"), 0);
    QCOMPARE(session.pin(c, 2, "c2"), 1);
    QCOMPARE(session.pin(b, 3, "b3"), 2);
    QCOMPARE(session.pin(c, 0, "c0"), 3);
    QCOMPARE(session.pin(c, 3, "out of range"), -1); // c has points 0..2

    session.removeRun(b);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed[0][0].value<RunId>(), b);
    QVERIFY(!session.run(b));
    QCOMPARE(session.runIndex(b), -1);
    // c is the second run now, under the same id; its two pins still point to it.
    QCOMPARE(session.runIndex(a), 0);
    QCOMPARE(session.runIndex(c), 1);
    QCOMPARE(session.runId(1), c);
    QCOMPARE(session.run(c)->name, std::string("c"));
    const auto& pins = session.session().pinned;
    QCOMPARE(int(pins.size()), 3);
    QCOMPARE(pins[0].name, std::string("a1"));
    QCOMPARE(pins[1].name, std::string("c2"));
    QCOMPARE(pins[2].name, std::string("c0"));
    QCOMPARE(session.store()->pinnedRun(0), a);
    QCOMPARE(session.store()->pinnedRun(1), c);
    QCOMPARE(session.store()->pinnedRun(2), c);
    QCOMPARE(pins[1].run, 1); // the index the core reads follows the id
    QCOMPARE(pins[2].run, 1);

    // The project tree: the runs a and c, the pins with their runs' names and points.
    QCOMPARE(names(tree, Group::Runs), QStringList({"a", "c"}));
    QCOMPARE(names(tree, Group::Pinned), QStringList({"a1", "c2", "c0"}));
    QCOMPARE(tree.indexOf(Group::Pinned, 1).siblingAtColumn(1).data().toString(), QString("c #2, EDP 30"));
    QCOMPARE(tree.indexOf(Group::Pinned, 2).siblingAtColumn(1).data().toString(), QString("c #0, EDP 10"));
    QCOMPARE(tree.indexOf(Group::Runs).data().toString(), QString("Runs (2)"));

    // The Compare table: runs, then pins, each pin with its own run's method and its point's EDP.
    const RunTableModel& table = *compare.model();
    QCOMPARE(column(table, RunTableModel::Name), QStringList({"a", "c", "a1", "c2", "c0"}));
    QCOMPARE(column(table, RunTableModel::Kind), QStringList({"run", "run", "pinned", "pinned", "pinned"}));
    QCOMPARE(column(table, RunTableModel::Method), QStringList({"random", "ga", "random", "ga", "ga"}));
    QCOMPARE(table.index(3, 0).data(RunTableModel::RunRole).toInt(), 1);
    QCOMPARE(table.index(3, 0).data(RunTableModel::PointRole).toLongLong(), 2);

    // Removing c takes its two pins; a's pin is left.
    session.removeRun(c);
    QCOMPARE(names(tree, Group::Runs), QStringList({"a"}));
    QCOMPARE(names(tree, Group::Pinned), QStringList({"a1"}));
    QCOMPARE(session.store()->pinnedRun(0), a);
    QCOMPARE(column(table, RunTableModel::Name), QStringList({"a", "a1"}));
}

void TestSessionController::idsAreNeverReused()
{
    SessionController session;
    const RunId a = session.addRun(makeRun("a", "random", 2));
    const RunId b = session.addRun(makeRun("b", "sa", 2));
    session.pin(b, 1, "b1");
    session.removeRun(a);
    const RunId c = session.addRun(makeRun("c", "ga", 2));
    QVERIFY(c != a && c != b);
    QCOMPARE(session.runId(0), b);
    QCOMPARE(session.runId(1), c);
    QCOMPARE(session.runId(2), RunId::None);

    // Ids are not in the file: a reopened session's runs get new ones, and its pins the new ids of
    // the runs they name.
    const QString path = m_dir.filePath("ids.session.yaml");
    QCOMPARE(session.store()->saveAs(path), QString());
    QSignalSpy removed(&session, &SessionController::runRemoved);
    QSignalSpy added(&session, &SessionController::runAdded);
    QCOMPARE(session.store()->load(path), QString());
    QCOMPARE(removed.count(), 2);
    QCOMPARE(added.count(), 2);
    const RunId b2 = session.runId(0);
    const RunId c2 = session.runId(1);
    QCOMPARE(session.run(b2)->name, std::string("b"));
    QCOMPARE(session.run(c2)->name, std::string("c"));
    for (RunId old : {a, b, c}) {
        QVERIFY(old != b2 && old != c2);
        QVERIFY(!session.run(old));
    }
    QCOMPARE(session.store()->pinnedRun(0), b2);
    QCOMPARE(session.session().pinned[0].name, std::string("b1"));
}

void TestSessionController::shownDesignFollowsItsRun()
{
    SessionController session;
    session.addRun(makeRun("a", "random", 2));
    const RunId b = session.addRun(makeRun("b", "sa", 4));
    const RunId c = session.addRun(makeRun("c", "ga", 3));
    QSignalSpy shown(&session, &SessionController::shownDesignChanged);
    session.setShownDesign(c, 2);
    session.setExplorationRun(c);
    QCOMPARE(shown.count(), 1);

    // Removing another run changes nothing for c's design: it is pinned as c's.
    session.removeRun(b);
    QCOMPARE(shown.count(), 1);
    QCOMPARE(session.shownRun(), c);
    QCOMPARE(session.explorationRun(), c);
    QCOMPARE(session.pinShownDesign(), 0);
    QCOMPARE(session.session().pinned[0].name, std::string("c #2"));
    QCOMPARE(session.store()->pinnedRun(0), c);
    QCOMPARE(session.session().pinned[0].pointIndex, std::int64_t(2));

    // Removing c leaves a design of no session run: nothing to pin.
    session.removeRun(c);
    QCOMPARE(shown.count(), 2);
    QCOMPARE(shown[1][0].value<RunId>(), RunId::None);
    QCOMPARE(shown[1][1].toLongLong(), -1);
    QCOMPARE(session.explorationRun(), RunId::None);
    QCOMPARE(session.pinShownDesign(), -1);
    QCOMPARE(session.store()->count(Group::Pinned), 0);

    // A run without a valid design has no best to pin.
    RunRecord none = makeRun("none", "de", 0);
    const RunId n = session.addRun(none);
    QString error;
    QCOMPARE(session.pinBest(n, &error), -1);
    QCOMPARE(error, QString("This run found no valid design to pin."));
    const RunId a = session.runId(0);
    QCOMPARE(session.pinBest(a), 0);
    QCOMPARE(session.session().pinned[0].name, std::string("best of a"));
}

void TestSessionController::treeUpdatesInPlaceUnderTheTester()
{
    SessionController session;
    ProjectStore* store = session.store();
    ProjectTreeModel tree(store);
    QAbstractItemModelTester tester(&tree, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy resets(&tree, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&tree, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&tree, &QAbstractItemModel::rowsRemoved);

    // Add: one row inserted per entry, at the end of its group.
    store->upsertArchitecture(sparsemap::loadPreset("edge"));
    const RunId a = session.addRun(makeRun("a", "random", 2)); // adds the toy workload too
    const RunId b = session.addRun(makeRun("b", "sa", 4));
    const RunId c = session.addRun(makeRun("c", "ga", 3));
    QCOMPARE(names(tree, Group::Architectures), QStringList({"edge"}));
    QCOMPARE(names(tree, Group::Workloads), QStringList({"toy"}));
    QCOMPARE(names(tree, Group::Runs), QStringList({"a", "b", "c"}));
    QCOMPARE(inserted.count(), 5); // edge, toy, a, b, c
    QCOMPARE(inserted.last()[0].value<QModelIndex>(), tree.indexOf(Group::Runs));
    QCOMPARE(inserted.last()[1].toInt(), 2);
    QCOMPARE(inserted.last()[2].toInt(), 2);
    QPersistentModelIndex cRow(tree.indexOf(Group::Runs, 2));
    QPersistentModelIndex runsGroup(tree.indexOf(Group::Runs));

    // Rename through the model: in place.
    QVERIFY(tree.setData(tree.indexOf(Group::Runs, 0), "alpha"));
    QCOMPARE(names(tree, Group::Runs), QStringList({"alpha", "b", "c"}));
    QCOMPARE(session.run(a)->name, std::string("alpha"));

    // Pin and rename a pin.
    QCOMPARE(session.pin(b, 3, "b3"), 0);
    QCOMPARE(session.pin(c, 1, "c1"), 1);
    QVERIFY(tree.setData(tree.indexOf(Group::Pinned, 1), "c one"));
    QCOMPARE(names(tree, Group::Pinned), QStringList({"b3", "c one"}));
    QCOMPARE(tree.indexOf(Group::Pinned, 1).siblingAtColumn(1).data().toString(), QString("c #1, EDP 20"));

    // Unpin b3: one row removed, c's pin moves up.
    removed.clear();
    store->remove(Group::Pinned, 0);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(names(tree, Group::Pinned), QStringList({"c one"}));
    QCOMPARE(store->pinnedRun(0), c);

    // Remove the middle run: its row alone goes; c's row (persistent) moves up in place.
    session.pin(b, 0, "b0");
    removed.clear();
    session.removeRun(b);
    QCOMPARE(removed.count(), 2); // b's pin, then b
    QCOMPARE(removed[1][0].value<QModelIndex>(), tree.indexOf(Group::Runs));
    QCOMPARE(removed[1][1].toInt(), 1);
    QCOMPARE(removed[1][2].toInt(), 1);
    QVERIFY(cRow.isValid());
    QCOMPARE(cRow.row(), 1);
    QCOMPARE(cRow.data().toString(), QString("c"));
    QCOMPARE(names(tree, Group::Runs), QStringList({"alpha", "c"}));
    QCOMPARE(names(tree, Group::Pinned), QStringList({"c one"}));
    QCOMPARE(tree.indexOf(Group::Runs).data().toString(), QString("Runs (2)"));

    // Save and load: every entry leaves and the file's come back, the groups' rows stay.
    const QString path = m_dir.filePath("tree.session.yaml");
    QCOMPARE(store->saveAs(path), QString());
    session.addRun(makeRun("d", "pso", 1));
    QCOMPARE(names(tree, Group::Runs), QStringList({"alpha", "c", "d"}));
    QCOMPARE(store->load(path), QString());
    QCOMPARE(names(tree, Group::Architectures), QStringList({"edge"}));
    QCOMPARE(names(tree, Group::Workloads), QStringList({"toy"}));
    QCOMPARE(names(tree, Group::Runs), QStringList({"alpha", "c"}));
    QCOMPARE(names(tree, Group::Pinned), QStringList({"c one"}));
    QCOMPARE(tree.indexOf(Group::Pinned, 0).siblingAtColumn(1).data().toString(), QString("c #1, EDP 20"));
    QVERIFY(runsGroup.isValid()); // the group rows themselves never move
    QVERIFY(!cRow.isValid());     // the old c's row left with the old session

    // Clear: every group empty.
    store->clear();
    for (Group g : {Group::Architectures, Group::Workloads, Group::Runs, Group::Pinned})
        QCOMPARE(tree.rowCount(tree.indexOf(g)), 0);
    QCOMPARE(tree.indexOf(Group::Runs).data().toString(), QString("Runs (0)"));
    QCOMPARE(resets.count(), 0);
}

void TestSessionController::windowPinsTheShownDesignAfterARemoval()
{
    sparsemap::ui::MainWindow window;
    window.setAutoAnswer(QMessageBox::Discard);
    SessionController* session = window.session();
    const auto workload = sparsemap::loadWorkloadFile(SPARSEMAP_SOURCE_DIR "/samples/workloads/toy.yaml");
    const auto arch = sparsemap::loadPreset("edge");
    session->addRun(sparsemap::test::syntheticRun("a", workload, arch, 6, 1));
    const RunId b = session->addRun(sparsemap::test::syntheticRun("b", workload, arch, 6, 2));
    session->addRun(sparsemap::test::syntheticRun("c", workload, arch, 6, 3));
    // Point 2 of c (valid: every third point, from 0, is invalid) in the Design view.
    QCOMPARE(window.showRunPoint(2, 2, false), QString());
    QCOMPARE(window.designView()->title(), QString("c, design #2"));

    QAction* pinAction = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == "&Pin shown design")
            pinAction = action;
    QVERIFY(pinAction && pinAction->isEnabled());

    session->removeRun(b);
    // The design shown is still c's: Run > Pin stays on and pins c's point 2.
    QVERIFY(pinAction->isEnabled());
    window.pinShownDesign();
    const auto& s = window.project()->session();
    QCOMPARE(int(s.pinned.size()), 1);
    QCOMPARE(s.pinned[0].name, std::string("c #2"));
    QCOMPARE(s.runs[std::size_t(s.pinned[0].run)].name, std::string("c"));
    // The project panel and the Compare table name the runs left and the pin.
    auto* tree = window.projectPanel()->model();
    QCOMPARE(names(*tree, Group::Runs), QStringList({"a", "c"}));
    QCOMPARE(names(*tree, Group::Pinned), QStringList({"c #2"}));
    QCOMPARE(column(*window.compareView()->model(), RunTableModel::Name), QStringList({"a", "c", "c #2"}));
    // Double-clicking the pin's Compare row shows c's point 2 again.
    QCOMPARE(window.showRunPoint(0, 1, false), QString()); // something else first (a's point 1)
    QCOMPARE(window.designView()->title(), QString("a, design #1"));
    emit window.compareView()->designRequested(1, 2);
    QCOMPARE(window.designView()->title(), QString("c, design #2"));
    QVERIFY(window.showView("compare"));
    QCOMPARE(window.tabs()->currentWidget(), static_cast<QWidget*>(window.compareView()));
}

QTEST_MAIN(TestSessionController)
#include "test_session_controller.moc"
