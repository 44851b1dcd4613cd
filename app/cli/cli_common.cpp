#include "cli_common.hpp"

#include "genome/genome_text.hpp"
#include "io/architecture_io.hpp"
#include "io/design_io.hpp"
#include "io/workload_io.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

#include <QFileInfo>
#include <QRegularExpression>

#include <cstdio>
#include <iostream>
#include <new>
#include <stdexcept>

namespace sparsemap::cli {

std::string str(const QString& s)
{
    return s.toStdString();
}

namespace {

bool isNegativeNumber(const QString& arg)
{
    static const QRegularExpression kNumber(R"(^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^-(inf|nan)$)",
                                            QRegularExpression::CaseInsensitiveOption);
    return kNumber.match(arg).hasMatch();
}

// True when the long option `--name` takes a value (probed on a copy of the command line).
bool takesValue(QCommandLineParser& parser, const QString& command, const QString& option)
{
    const QString name = option.mid(2);
    return parser.parse({command, option, QStringLiteral("probe")}) && parser.value(name) == "probe";
}

} // namespace

QStringList negativeNumbersAsValues(QCommandLineParser& parser, const QStringList& args)
{
    // QCommandLineParser reads `-0.5` as the short options 0, ., 5. A number right after an option that
    // takes a value is that option's value already; every other one is a positional argument: the
    // options go first, then `--` and the positional arguments in their order.
    bool any = false;
    for (int i = 1; i < args.size() && args[i] != "--"; ++i)
        any = any || isNegativeNumber(args[i]);
    if (!any)
        return args;
    QStringList options{args.value(0)}, positionals;
    for (int i = 1; i < args.size(); ++i) {
        const QString& arg = args[i];
        if (arg == "--") {
            positionals += args.mid(i + 1);
            break;
        }
        if (arg.startsWith('-') && !isNegativeNumber(arg)) {
            options << arg;
            if (arg.startsWith("--") && !arg.contains('=') && i + 1 < args.size() &&
                takesValue(parser, args.value(0), arg))
                options << args[++i];
        } else {
            positionals << arg;
        }
    }
    return options + QStringList{"--"} + positionals;
}

bool parseCommandLine(QCommandLineParser& parser, const QStringList& args, const QString& description,
                      const QList<QPair<QString, QString>>& positionals, int required)
{
    parser.setApplicationDescription(description);
    const QCommandLineOption help({"h", "help"}, "Show this help.");
    parser.addOption(help);
    for (const auto& [name, text] : positionals)
        parser.addPositionalArgument(name, text);
    if (!parser.parse(negativeNumbersAsValues(parser, args)))
        throw UsageError(str(parser.errorText()));
    if (parser.isSet(help)) {
        std::cout << str(parser.helpText());
        return false;
    }
    const auto given = parser.positionalArguments();
    if (given.size() < required) {
        QString missing = positionals.value(given.size()).first;
        throw UsageError("missing argument <" + str(missing) + "> (see --help)");
    }
    if (given.size() > positionals.size())
        throw UsageError("unexpected argument '" + str(given.value(positionals.size())) + "' (see --help)");
    return true;
}

Workload loadWorkloadArgument(const QString& path)
{
    return loadWorkloadFile(str(path));
}

Architecture loadArchitecture(const QString& presetOrPath)
{
    return loadArchitectureArgument(str(presetOrPath));
}

QCommandLineOption paddingOption()
{
    return QCommandLineOption("padding",
                              "Dimension padding for the prime-factor tiling: none, large-prime (the paper's "
                              "rule, default) or smooth (next 7-smooth size).",
                              "mode", "large-prime");
}

QList<QCommandLineOption> modelOptionOptions()
{
    return {QCommandLineOption("confidence",
                               "Occupancy quantile at which capacity is checked, in (0, 1]; default 1 = the "
                               "worst case, Sparseloop's rule (a result made with another value says so).",
                               "c"),
            QCommandLineOption("format-space",
                               "Formats Sparseloop cannot represent (a compressed rank above an uncompressed "
                               "one): dead (default: invalid, with the reason), nearest (evaluated as the "
                               "nearest representable format) or unrestricted (as given; beyond Sparseloop).",
                               "mode", "dead")};
}

model::ModelOptions modelOptions(const QCommandLineParser& parser)
{
    model::ModelOptions options;
    if (parser.isSet("confidence")) {
        bool ok = false;
        const double c = parser.value("confidence").toDouble(&ok);
        if (!ok || !(c > 0 && c <= 1))
            throw UsageError("--confidence must be a number in (0, 1], not '" +
                             str(parser.value("confidence")) + "'");
        options.occupancyConfidence = c;
    }
    const auto space = model::parseFormatSpace(str(parser.value("format-space")));
    if (!space)
        throw UsageError("--format-space must be dead, nearest or unrestricted, not '" +
                         str(parser.value("format-space")) + "'");
    options.formatSpace = *space;
    return options;
}

GenomeOptions genomeOptions(const QCommandLineParser& parser)
{
    GenomeOptions options;
    const auto mode = parsePaddingMode(str(parser.value("padding")));
    if (!mode)
        throw UsageError("--padding must be none, large-prime or smooth, not '" +
                         str(parser.value("padding")) + "'");
    options.padding = *mode;
    return options;
}

GenomeArgument loadGenomeArgument(const QString& textOrFile, const Workload& workload,
                                  const Architecture& arch, const QCommandLineParser& parser)
{
    const GenomeOptions fromOption = genomeOptions(parser); // a bad --padding is an error either way
    if (QFileInfo(textOrFile).isFile()) {
        auto doc = loadDesignFile(str(textOrFile), workload, arch);
        return {std::move(doc.genome), doc.options, doc.modelOptions};
    }
    return {parseGenomeText(str(textOrFile)), fromOption, std::nullopt};
}

model::ModelOptions modelOptions(const QCommandLineParser& parser, const GenomeArgument& genome)
{
    const model::ModelOptions given = modelOptions(parser); // checks both options either way
    if (!genome.modelOptions)
        return given;
    model::ModelOptions options = *genome.modelOptions;
    if (parser.isSet("confidence"))
        options.occupancyConfidence = given.occupancyConfidence;
    if (parser.isSet("format-space"))
        options.formatSpace = given.formatSpace;
    return options;
}

int runGuarded(const char* command, const std::function<int()>& body)
{
    try {
        return body();
    } catch (const UsageError& e) {
        // Command-line text is echoed in messages: escaped like file-derived text (util/text.hpp).
        std::cerr << "sparsemap " << command << ": " << escapeControl(e.what()) << '\n';
        return kUsage;
    } catch (const InputError& e) {
        // One line per problem; a single problem is a single line.
        for (const auto& d : e.diagnostics())
            std::cerr << "sparsemap " << command << ": " << d.toString() << '\n';
        return kFailed;
    } catch (const std::bad_alloc&) {
        // Inputs are bounded (docs/file-formats.md, "Limits"); what is left is a run too large for
        // this machine's memory, which is not a program error.
        std::cerr << "sparsemap " << command
                  << ": out of memory: the run needs more memory than this machine has (a smaller budget, "
                     "workload or architecture needs less)\n";
        return kFailed;
    } catch (const std::length_error& e) {
        std::cerr << "sparsemap " << command
                  << ": a size is too large to represent: " << escapeControl(e.what()) << '\n';
        return kFailed;
    } catch (const std::exception& e) {
        std::cerr << "sparsemap " << command << ": internal error: " << escapeControl(e.what()) << '\n';
        return kFailed;
    }
}

} // namespace sparsemap::cli
