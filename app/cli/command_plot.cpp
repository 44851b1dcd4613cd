// sparsemap plot ...: runs sparsemap-plot, the headless chart renderer (app/plot), from this program's
// folder with the same arguments. It is a separate program because it draws with the workbench's Qt
// Widgets charts, which this command-line tool does not link.
#include "cli_common.hpp"
#include "commands.hpp"

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>

#include <cstdio>

namespace sparsemap::cli {

int runPlot(const QStringList& args)
{
    const QString program = QCoreApplication::applicationDirPath() + "/sparsemap-plot";
    if (!QFileInfo(program).isExecutable()) {
        std::fprintf(stderr,
                     "sparsemap plot: %s is missing; build the target sparsemap-plot (it draws the charts "
                     "with the workbench's widgets)\n",
                     program.toStdString().c_str());
        return kFailed;
    }
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedChannels);
    process.setInputChannelMode(QProcess::ForwardedInputChannel);
    process.start(program, args.mid(1));
    if (!process.waitForStarted(-1) || !process.waitForFinished(-1)) {
        std::fprintf(stderr, "sparsemap plot: cannot run %s: %s\n", program.toStdString().c_str(),
                     process.errorString().toStdString().c_str());
        return kFailed;
    }
    if (process.exitStatus() != QProcess::NormalExit) {
        std::fprintf(stderr, "sparsemap plot: %s crashed\n", program.toStdString().c_str());
        return kFailed;
    }
    return process.exitCode();
}

} // namespace sparsemap::cli
