// `sparsemap-workbench --help` on a machine without a display (a server, a CI job, an SSH shell): the
// options are printed and the program exits 0, without DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM
// (with them unset the GUI could not start: the help must not need it).
#include <QProcess>
#include <QProcessEnvironment>
#include <QtTest>

class TestWorkbenchHelp : public QObject {
    Q_OBJECT
private slots:
    void helpNeedsNoDisplay()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "XDG_SESSION_TYPE"})
            env.remove(name);
        for (const QString flag : {"--help", "-h"}) {
            QProcess workbench;
            workbench.setProcessEnvironment(env);
            workbench.start(SPARSEMAP_WORKBENCH, {flag});
            QVERIFY(workbench.waitForStarted());
            QVERIFY(workbench.waitForFinished(60000));
            const QString out = workbench.readAllStandardOutput();
            const QString err = workbench.readAllStandardError();
            QCOMPARE(workbench.exitStatus(), QProcess::NormalExit);
            QVERIFY2(workbench.exitCode() == 0, qPrintable(flag + ": " + err));
            QVERIFY2(out.contains("Usage:"), qPrintable(out));
            for (const char* option : {"--demo", "--budget", "--screenshots", "--screenshot-size", "--view"})
                QVERIFY2(out.contains(option), option);
            QVERIFY2(!err.contains("could not connect to display"), qPrintable(err));
        }
    }
};

QTEST_APPLESS_MAIN(TestWorkbenchHelp)
#include "test_workbench_help.moc"
