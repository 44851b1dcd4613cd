// sparsemap-plot [--out DIR] [--format png,svg,pdf] [--width-in W] [--height-in H] [--dpi N] INPUT...
// Draws the workbench's charts headless (Qt's offscreen platform, no display needed) from session
// files, `sparsemap search --out` folders (their run.session.yaml) and `sparsemap sweep --out` folders;
// `sparsemap plot` runs this program. The figures are listed in ui/plot/run_figures.hpp.
#include "io/session_io.hpp"
#include "plot/run_figures.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

#include <cstdio>
#include <map>

using namespace sparsemap;

namespace {

constexpr int kOk = 0, kFailed = 1, kUsage = 2;

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

double positiveNumber(const QCommandLineParser& parser, const QCommandLineOption& option, double low,
                      double high)
{
    bool ok = false;
    const double value = parser.value(option).toDouble(&ok);
    if (!ok || !(value >= low && value <= high))
        throw UsageError(QString("--%1 must be a number in %2..%3, not '%4'")
                             .arg(option.names().first())
                             .arg(low)
                             .arg(high)
                             .arg(parser.value(option))
                             .toStdString());
    return value;
}

// Runs of a session, appended to `into`; a run name already taken gets the input's name in front.
void appendRuns(Session& into, Session from, const QString& input)
{
    for (auto& run : from.runs) {
        for (const auto& existing : into.runs)
            if (existing.name == run.name) {
                run.name = QFileInfo(input).fileName().toStdString() + ": " + run.name;
                break;
            }
        into.runs.push_back(std::move(run));
    }
}

int run(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Draw the workbench's charts without a display: convergence of the runs, valid share per method "
        "(paper Fig. 17b), convergence per generation (Fig. 18 style), and per run the design-space map "
        "(Fig. 7), the energy-delay front and the best design's breakdown; for a sweep folder the methods' "
        "mean convergence per architecture and workload (Fig. 18).");
    parser.addHelpOption();
    parser.addPositionalArgument("inputs",
                                 "Session files, search run folders (--out of sparsemap search) or "
                                 "sweep folders (--out of sparsemap sweep).",
                                 "INPUT...");
    const QCommandLineOption outOpt("out", "Folder for the figures (default: the current folder).", "dir",
                                    ".");
    const QCommandLineOption formatOpt("format", "Comma-separated: png, svg, pdf (default png).", "list",
                                       "png");
    const QCommandLineOption widthOpt("width-in", "Figure width in inches (default 7).", "W", "7");
    const QCommandLineOption heightOpt("height-in", "Figure height in inches (default 4.3).", "H", "4.3");
    const QCommandLineOption dpiOpt("dpi", "PNG resolution (default 300).", "N", "300");
    const QCommandLineOption fontOpt("min-font-pt", "Smallest text in the figure, in points (default 9).",
                                     "pt", "9");
    for (const auto& o : {outOpt, formatOpt, widthOpt, heightOpt, dpiOpt, fontOpt})
        parser.addOption(o);
    if (!parser.parse(args))
        throw UsageError(parser.errorText().toStdString());
    if (parser.isSet("help")) {
        std::printf("%s", parser.helpText().toStdString().c_str());
        return kOk;
    }
    const QStringList inputs = parser.positionalArguments();
    if (inputs.isEmpty())
        throw UsageError("give at least one session file, run folder or sweep folder (see --help)");

    ui::FigureOptions options;
    options.outDir = parser.value(outOpt);
    options.formats.clear();
    for (const QString& name : parser.value(formatOpt).split(',', Qt::SkipEmptyParts)) {
        const auto format = ui::chartFormatForPath("x." + name.trimmed());
        if (!format)
            throw UsageError("--format takes png, svg and pdf, not '" + name.toStdString() + "'");
        if (!options.formats.contains(*format))
            options.formats << *format;
    }
    if (options.formats.isEmpty())
        throw UsageError("--format needs at least one of png, svg, pdf");
    options.size.widthInches = positiveNumber(parser, widthOpt, 1, 40);
    options.size.heightInches = positiveNumber(parser, heightOpt, 1, 40);
    options.size.dpi = int(positiveNumber(parser, dpiOpt, 50, 1200));
    options.size.minFontPt = positiveNumber(parser, fontOpt, 4, 40);

    Session runs;
    QStringList written;
    for (const QString& input : inputs) {
        const QFileInfo info(input);
        if (!info.exists())
            throw InputError("cannot read " + input.toStdString() + ": no such file or folder");
        if (info.isFile()) {
            appendRuns(runs, loadSessionFile(input.toStdString()), input);
            continue;
        }
        const QDir dir(input);
        if (dir.exists("run.session.yaml"))
            appendRuns(runs, loadSessionFile(dir.filePath("run.session.yaml").toStdString()), input);
        else if (dir.exists("convergence.csv") && dir.exists("cells"))
            written << ui::renderSweepFigures(input, options);
        else
            throw InputError(
                input.toStdString() +
                ": neither a run folder (run.session.yaml, written by sparsemap search --out) nor a "
                "sweep folder (convergence.csv and cells/, written by sparsemap sweep --out)");
    }
    if (!runs.runs.empty())
        written << ui::renderRunFigures(runs, options);
    for (const QString& file : written)
        std::printf("wrote %s\n", file.toStdString().c_str());
    return kOk;
}

} // namespace

int main(int argc, char** argv)
{
    // Headless unless the caller chose a platform: figures need no display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName("sparsemap-plot");
    try {
        return run(QApplication::arguments());
    } catch (const UsageError& e) {
        std::fprintf(stderr, "sparsemap plot: %s\n", e.what());
        return kUsage;
    } catch (const InputError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return kFailed;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sparsemap plot: %s\n", e.what());
        return kFailed;
    }
}
