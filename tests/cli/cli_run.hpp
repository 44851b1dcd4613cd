#pragma once
// Runs the `sparsemap` command from the repository root, as a user would: exit code and both outputs.
#include <QProcess>
#include <QStringList>

namespace clitest {

struct CliRun {
    int exitCode = -1; // -2: crashed; -1: did not finish in time
    QString out;
    QString err;
};

inline CliRun runSparsemap(const QStringList& args, int timeoutMs = 60000)
{
    QProcess p;
    p.setWorkingDirectory(SPARSEMAP_SOURCE_DIR);
    p.start(SPARSEMAP_CLI, args);
    if (!p.waitForFinished(timeoutMs))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

} // namespace clitest
