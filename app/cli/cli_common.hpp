#pragma once
// Shared pieces of the `sparsemap` subcommands: argument parsing with --help, loading the workload
// and architecture arguments, and turning core errors into messages and exit codes.
#include "arch/architecture.hpp"
#include "genome/genome_layout.hpp"
#include "model/evaluator.hpp"
#include "workload/workload.hpp"

#include <QCommandLineParser>
#include <QStringList>

#include <functional>
#include <optional>
#include <string>

namespace sparsemap::cli {

enum ExitCode { kOk = 0, kFailed = 1, kUsage = 2 };

// Thrown for a bad command line (unknown option, missing argument): exit code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Sets up --help and positional arguments, parses `args` (args[0] is the subcommand), prints help
// and returns false when --help was given; throws UsageError on bad usage.
bool parseCommandLine(QCommandLineParser& parser, const QStringList& args, const QString& description,
                      const QList<QPair<QString, QString>>& positionals, int required);

// `args` rewritten so that negative numbers (`-3`, `-0.5`, `-1e-3`) are values, never options: the
// value of the option before them, or positional arguments (moved after `--`, order kept).
QStringList negativeNumbersAsValues(QCommandLineParser& parser, const QStringList& args);

std::string str(const QString& s);
Workload loadWorkloadArgument(const QString& path);
Architecture loadArchitecture(const QString& presetOrPath);
GenomeOptions genomeOptions(const QCommandLineParser& parser); // reads --padding

// A genome argument: a design YAML file (its genome, with the padding mode the file records; --padding
// does not apply) or integers separated by commas or spaces (with --padding).
struct GenomeArgument {
    Genome genome;
    GenomeOptions options;
    // The model options a design file records (its `model` entry; Sparseloop's rules when absent);
    // none for genome text.
    std::optional<model::ModelOptions> modelOptions;
};
GenomeArgument loadGenomeArgument(const QString& textOrFile, const Workload& workload,
                                  const Architecture& arch, const QCommandLineParser& parser);
QCommandLineOption paddingOption();
// --confidence c (capacity at the c occupancy quantile; default 1 = worst case, Sparseloop's rule) and
// --format-space dead|nearest|unrestricted (formats Sparseloop cannot represent), and their values.
QList<QCommandLineOption> modelOptionOptions();
model::ModelOptions modelOptions(const QCommandLineParser& parser);
// The options to evaluate a genome argument with: those its design file records, each replaced by
// --confidence / --format-space when given on the command line; for genome text, modelOptions(parser).
model::ModelOptions modelOptions(const QCommandLineParser& parser, const GenomeArgument& genome);

// Runs a subcommand body, mapping exceptions to messages on stderr and exit codes.
int runGuarded(const char* command, const std::function<int()>& body);

} // namespace sparsemap::cli
