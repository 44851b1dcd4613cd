// Writing files (issue 69): only a regular file is ever replaced, atomically; a device or pipe is
// written through (a failed write, /dev/full, is an error); folders are errors; a process killed
// part-way through a save leaves the old file whole; and one sweep at a time writes a sweep folder.
#include "cli_run.hpp"

#include "util/error.hpp"
#include "util/file_io.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <csignal>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using Run = clitest::CliRun;

const QString kWorkload = "samples/workloads/toy.yaml";
const QString kArch = "samples/arch/toy.yaml";
// Evaluations per cell for a sweep that is still running while a second one starts (seconds per cell).
const QString kLongBudget = "100000";

// `sparsemap random toy toy --save <path>`: one design, saved as design YAML.
Run saveRandomDesign(const QString& path)
{
    return clitest::runSparsemap({"random", kWorkload, kArch, "--save", path});
}

mode_t typeOf(const QString& path, bool follow = false)
{
    struct stat st {};
    const QByteArray p = path.toLocal8Bit();
    if ((follow ? ::stat(p.constData(), &st) : ::lstat(p.constData(), &st)) != 0)
        return 0;
    return st.st_mode & S_IFMT;
}

QByteArray contents(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(missing)");
}

// A copy of the character device major:minor at `path`; false when this process may not make one.
bool makeDevice(const QString& path, unsigned major, unsigned minor)
{
    return ::mknod(path.toLocal8Bit().constData(), S_IFCHR | 0666, makedev(major, minor)) == 0;
}

// A sweep of 2 cells (toy on toy, random, seeds 1 and 2) of `budget` evaluations into `out`.
QStringList sweepArgs(const QString& out, const QString& budget)
{
    return {"sweep", "--workloads", kWorkload, "--arch",    kArch, "--methods", "random", "--seeds",
            "1,2",   "--budget",    budget,    "--threads", "1",   "--out",     out};
}

} // namespace

class TestCliFiles : public QObject {
    Q_OBJECT
private slots:
    // A copy of /dev/null stays a device and takes the design (exit 0); a copy of /dev/full stays a
    // device and the save is an error: "No space left on device", never exit 0 with the data lost.
    void savingIntoDevicesWritesThrough()
    {
        QTemporaryDir dir;
        const QString null = dir.filePath("null"), full = dir.filePath("full");
        if (!makeDevice(null, 1, 3) || !makeDevice(full, 1, 7))
            QSKIP("mknod is not allowed here (the tests run as root in CI)");
        const Run toNull = saveRandomDesign(null);
        QCOMPARE(toNull.exitCode, 0);
        QCOMPARE(typeOf(null), mode_t(S_IFCHR));
        const Run toFull = saveRandomDesign(full);
        QCOMPARE(toFull.exitCode, 1);
        QVERIFY2(toFull.err.contains("cannot write " + full + ": write error: No space left on device"),
                 qPrintable(toFull.err));
        QCOMPARE(typeOf(full), mode_t(S_IFCHR));
        // The same through a symbolic link: the link and the device both stay.
        QVERIFY(QFile::link(full, dir.filePath("link-to-full")));
        const Run linked = saveRandomDesign(dir.filePath("link-to-full"));
        QCOMPARE(linked.exitCode, 1);
        QVERIFY2(linked.err.contains("No space left on device"), qPrintable(linked.err));
        QCOMPARE(typeOf(dir.filePath("link-to-full")), mode_t(S_IFLNK));
        QCOMPARE(typeOf(full), mode_t(S_IFCHR));
    }

    // A link to /proc/self/fd/1 (here the pipe QProcess reads) writes the design to standard output;
    // the link is not replaced by a file.
    void savingThroughALinkToStandardOutput()
    {
        QTemporaryDir dir;
        const QString link = dir.filePath("stdout.yaml");
        QVERIFY(QFile::link("/proc/self/fd/1", link));
        const Run r = saveRandomDesign(link);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(typeOf(link), mode_t(S_IFLNK));
        QCOMPARE(QFileInfo(link).symLinkTarget(), QString("/proc/self/fd/1"));
        // The design YAML itself, as saveDesignFile writes it, went to standard output.
        QVERIFY2(r.out.contains("design:\n  workload: toy\n  architecture: toy\n"), qPrintable(r.out));
    }

    // A pipe nobody reads is an error, not a wait; the pipe (and a link to it) stay.
    void savingIntoAPipeNobodyReads()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("fifo"), link = dir.filePath("link");
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0666) == 0);
        QVERIFY(QFile::link(fifo, link));
        for (const QString& path : {fifo, link}) {
            const Run r = saveRandomDesign(path);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains("cannot write " + path + ": no process reads the pipe"),
                     qPrintable(r.err));
            QCOMPARE(typeOf(fifo), mode_t(S_IFIFO));
            QCOMPARE(typeOf(link), mode_t(S_IFLNK));
        }
    }

    // A folder, or a link to one, is an error that says so; the folder stays as it was.
    void savingOntoAFolderIsAnError()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath("folder"), link = dir.filePath("link");
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::link(folder, link));
        for (const QString& path : {folder, link}) {
            const Run r = saveRandomDesign(path);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(
                r.err.contains("cannot write " + path + ": it is a folder; only a regular file is replaced"),
                qPrintable(r.err));
            QVERIFY(
                QDir(folder).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System));
        }
    }

    // A regular file through a symbolic link: the file is replaced, the link stays; a dangling link
    // gets its target created.
    void savingThroughALinkReplacesItsTarget()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath("real.yaml"), link = dir.filePath("link.yaml");
        QVERIFY(QFile::link("real.yaml", link)); // relative, dangling
        QCOMPARE(saveRandomDesign(link).exitCode, 0);
        QCOMPARE(typeOf(link), mode_t(S_IFLNK));
        QCOMPARE(typeOf(file), mode_t(S_IFREG));
        QVERIFY(contents(file).contains("design:\n  workload: toy\n"));
        QFile(file).resize(0);
        QCOMPARE(saveRandomDesign(link).exitCode, 0);
        QCOMPARE(typeOf(link), mode_t(S_IFLNK));
        QVERIFY(contents(file).contains("design:\n  workload: toy\n"));
    }

    // A folder that cannot be written: an error naming the file; nothing appears.
    void savingIntoAReadOnlyFolder()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath("ro");
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(::chmod(folder.toLocal8Bit().constData(), 0555) == 0);
        if (::access(folder.toLocal8Bit().constData(), W_OK) == 0) {
            ::chmod(folder.toLocal8Bit().constData(), 0755);
            QSKIP("this user (root) may write into a read-only folder");
        }
        const Run r = saveRandomDesign(folder + "/d.yaml");
        ::chmod(folder.toLocal8Bit().constData(), 0755);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cannot write " + folder +
                                "/d.yaml: cannot create a temporary file beside "
                                "it: Permission denied"),
                 qPrintable(r.err));
        QVERIFY(QDir(folder).isEmpty());
    }

    // A process killed part-way through a save (here: after at least 1 MiB of 64 MiB reached the
    // temporary file) leaves the file it was replacing whole.
    void killedPartWayKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const std::string target = dir.filePath("big.txt").toStdString();
        sparsemap::writeTextFileAtomically(target, "the old contents\n");
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            // Never finishes: a file larger than 16 MiB ends the process (SIGXFSZ) if SIGKILL has not.
            const rlimit limit{16 << 20, 16 << 20};
            ::setrlimit(RLIMIT_FSIZE, &limit);
            const std::string block(1 << 20, 'x');
            const std::vector<std::string_view> pieces(64, block);
            try {
                sparsemap::writeFileAtomically(target, pieces);
            } catch (...) {
            }
            ::_exit(0);
        }
        // Wait for the child's temporary file to hold at least 1 MiB, or for the child to end.
        const QString prefix =
            QString::fromStdString(target).section('/', -1) + ".tmp-" + QString::number(child);
        int status = 0;
        bool ended = false;
        while (!ended) {
            const auto temporaries = QDir(dir.path()).entryInfoList({prefix + "*"}, QDir::Files);
            if (!temporaries.isEmpty() && temporaries.front().size() >= (1 << 20))
                break;
            ended = ::waitpid(child, &status, WNOHANG) == child;
            QThread::usleep(200);
        }
        if (!ended) {
            ::kill(child, SIGKILL);
            QCOMPARE(::waitpid(child, &status, 0), child);
        }
        QVERIFY2(WIFSIGNALED(status), "the child finished its write instead of being killed part-way");
        QVERIFY(WTERMSIG(status) == SIGKILL || WTERMSIG(status) == SIGXFSZ);
        QCOMPARE(contents(QString::fromStdString(target)), QByteArray("the old contents\n"));
    }

    // Issue 69 item 19: a search's --out folder holds one run. A pareto run with a shorter front
    // after a longer one leaves exactly its own front/ files (those front.csv lists); a plain run after
    // a pareto run leaves no front at all.
    void searchOutHoldsOneRun()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        auto search = [&](const QString& budget, const QString& seed, bool pareto) {
            QStringList args{"search",    "--workload", "samples/workloads/spmm-32x64x48.yaml",
                             "--arch",    "cloud",      "--budget",
                             budget,      "--seed",     seed,
                             "--threads", "1",          "--out",
                             out};
            if (pareto)
                args << "--objective"
                     << "pareto";
            return clitest::runSparsemap(args);
        };
        // The design files front.csv names (its `design_file` column), and those in front/.
        auto listed = [&] {
            QStringList files;
            const QList<QByteArray> lines = contents(out + "/front.csv").split('\n');
            const int column = lines.front().split(',').indexOf("design_file");
            for (qsizetype i = 1; i < lines.size(); ++i)
                if (!lines[i].isEmpty())
                    files << QString::fromUtf8(lines[i].split(',').value(column));
            files.sort();
            return files;
        };
        auto present = [&] {
            QStringList files;
            for (const auto& f : QDir(out + "/front").entryList(QDir::Files, QDir::NoSort))
                files << "front/" + f;
            files.sort();
            return files;
        };
        const Run longer = search("2000", "1", true); // a front of 3 designs
        QCOMPARE(longer.exitCode, 0);
        const qsizetype before = present().size();
        QCOMPARE(present(), listed());
        const Run shorter = search("200", "2", true); // and of 2
        QCOMPARE(shorter.exitCode, 0);
        QVERIFY2(listed().size() < before && !listed().isEmpty(),
                 "the second front must be shorter for this test to mean anything");
        QCOMPARE(present(), listed()); // the first run's third design is gone
        const Run plain = search("200", "2", false);
        QCOMPARE(plain.exitCode, 0);
        QVERIFY(!QFileInfo::exists(out + "/front.csv"));
        QVERIFY(!QFileInfo::exists(out + "/front"));
        QVERIFY(QFileInfo::exists(out + "/best.design.yaml") && QFileInfo::exists(out + "/points.csv"));
    }

    // Issue 69 item 14: while a process holds a sweep folder's lock (here this test), a sweep into it is
    // refused, naming the folder, and writes nothing; once the lock is let go the sweep runs.
    void sweepIntoALockedFolderIsRefused()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        QVERIFY(QDir().mkpath(out));
        const int lock = ::open((out + "/sweep.lock").toLocal8Bit().constData(), O_RDWR | O_CREAT, 0666);
        QVERIFY(lock >= 0 && ::flock(lock, LOCK_EX | LOCK_NB) == 0);
        const Run refused = clitest::runSparsemap(sweepArgs(out, "50"));
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("--out " + out + " is being written by another sweep"),
                 qPrintable(refused.err));
        QVERIFY(!QFileInfo::exists(out + "/sweep.txt"));
        QVERIFY(!QFileInfo::exists(out + "/cells"));
        ::close(lock);
        const Run ran = clitest::runSparsemap(sweepArgs(out, "50"));
        QCOMPARE(ran.exitCode, 0);
        QVERIFY2(ran.out.contains("2 cells: 2 run, 0 reused"), qPrintable(ran.out));
    }

    // Two sweeps started into one folder: while the first runs, the second is refused with the
    // message; the first, killed, leaves a folder that is resumed (its lock died with it).
    void twoSweepsIntoOneFolder()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("run");
        const QStringList args = sweepArgs(out, kLongBudget);
        QProcess first;
        first.setWorkingDirectory(SPARSEMAP_SOURCE_DIR);
        first.start(SPARSEMAP_CLI, args);
        QVERIFY(first.waitForStarted());
        // sweep.txt is written under the lock.
        while (!QFileInfo::exists(out + "/sweep.txt") && first.state() == QProcess::Running)
            QThread::msleep(5);
        const Run second = clitest::runSparsemap(args);
        QVERIFY2(first.state() == QProcess::Running, "the first sweep ended before the second started");
        QCOMPARE(second.exitCode, 1);
        QVERIFY2(second.err.contains("--out " + out + " is being written by another sweep"),
                 qPrintable(second.err));
        QVERIFY2(second.out.isEmpty(), qPrintable(second.out));
        first.kill(); // SIGKILL: the lock goes with the process
        QVERIFY(first.waitForFinished());
        const int kept = static_cast<int>(QDir(out + "/cells").entryList({"*.cell"}, QDir::Files).size());
        const Run resumed = clitest::runSparsemap(args);
        QCOMPARE(resumed.exitCode, 0);
        QVERIFY2(resumed.out.contains(QString("2 cells: %1 run, %2 reused").arg(2 - kept).arg(kept)),
                 qPrintable(resumed.out));
    }
};

QTEST_GUILESS_MAIN(TestCliFiles)
#include "test_cli_files.moc"
