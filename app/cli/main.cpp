// `sparsemap`: the command-line twin of the workbench. Every subcommand is a thin client of the core.
#include "cli_common.hpp"
#include "commands.hpp"

#include "util/text.hpp"

#include <QCoreApplication>

#include <algorithm>
#include <iostream>

namespace {

struct Subcommand {
    const char* name;
    const char* summary;
    int (*run)(const QStringList&);
};

const Subcommand kSubcommands[] = {
    {"info", "genome layout and design-space size of a workload on an architecture", sparsemap::cli::runInfo},
    {"decode", "decode a genome into its mapping and sparse strategy (loop nest)", sparsemap::cli::runDecode},
    {"random", "draw random genomes and print their decoding", sparsemap::cli::runRandom},
    {"evaluate", "evaluate a design (genome or Sparseloop case) with the analytical model",
     sparsemap::cli::runEvaluate},
    {"export", "export a design as a Sparseloop case (the workbench's export)", sparsemap::cli::runExport},
    {"search", "search the design space of a workload on an architecture", sparsemap::cli::runSearch},
    {"optimum", "the exact optimum of the mapping for a design's sparse strategy (exhaustive)",
     sparsemap::cli::runOptimum},
    {"sweep", "run a grid of searches (workloads x presets x methods x seeds) and summarize",
     sparsemap::cli::runSweep},
    {"cgra", "map sparse CNN blocks onto a streaming CGRA (CGRA SparseMap scheduler and binder)",
     sparsemap::cli::runCgra},
    {"oracle-corpus", "draw designs for Sparseloop, collect its figures, compare (docs/oracle.md)",
     sparsemap::cli::runOracleCorpus},
    {"validate", "compare the model with Sparseloop's reference outputs", sparsemap::cli::runValidate},
    {"plot", "draw the workbench's charts of runs and sweeps as PNG / SVG / PDF, without a display",
     sparsemap::cli::runPlot},
};

void printUsage(std::ostream& out)
{
    out << "Usage: sparsemap <command> [options] [arguments]\n\n"
           "SparseMap Workbench: co-design of mapping and sparse strategy for sparse tensor accelerators.\n\n"
           "Commands:\n";
    for (const auto& c : kSubcommands)
        out << "  " << c.name << std::string(std::max<std::size_t>(2, 15 - std::string(c.name).size()), ' ')
            << c.summary << '\n';
    out << "\nArchitectures are a preset name (edge, mobile, cloud) or an architecture YAML file.\n"
           "Run 'sparsemap <command> --help' for the options of a command.\n";
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("sparsemap");
    QCoreApplication::setApplicationVersion("0.1.0");
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2) {
        printUsage(std::cerr);
        return sparsemap::cli::kUsage;
    }
    const QString command = args.at(1);
    if (command == "-h" || command == "--help" || command == "help") {
        printUsage(std::cout);
        return sparsemap::cli::kOk;
    }
    if (command == "--version") {
        std::cout << "sparsemap 0.1.0\n";
        return sparsemap::cli::kOk;
    }
    for (const auto& c : kSubcommands)
        if (command == c.name)
            return c.run(args.mid(1));
    std::cerr << "sparsemap: unknown command '" << sparsemap::escapeControl(command.toStdString())
              << "'; commands are info, decode, random, evaluate, export, search, optimum, sweep, cgra, "
                 "oracle-corpus, validate, plot (see "
                 "sparsemap --help)\n";
    return sparsemap::cli::kUsage;
}
