// sparsemap decode <workload> <arch> <genome> [--padding mode] [--save file]
#include "cli_common.hpp"
#include "commands.hpp"
#include "design_printing.hpp"

namespace sparsemap::cli {

int runDecode(const QStringList& args)
{
    return runGuarded("decode", [&] {
        QCommandLineParser parser;
        const QCommandLineOption save("save", "Write the decoded design as design YAML to this file.",
                                      "file");
        parser.addOption(save);
        parser.addOption(paddingOption());
        if (!parseCommandLine(
                parser, args,
                "Decode a SparseMap genome into its mapping and sparse strategy and print the loop nest.",
                {{"workload", "Workload YAML file."},
                 {"arch", "Architecture: a preset (edge, mobile, cloud) or a YAML file."},
                 {"genome",
                  "Integers separated by commas or spaces (e.g. 1,3,2,...), or a design YAML file."}},
                3))
            return int(kOk);
        const auto positional = parser.positionalArguments();
        const Workload workload = loadWorkloadArgument(positional[0]);
        const Architecture arch = loadArchitecture(positional[1]);
        const auto given = loadGenomeArgument(positional[2], workload, arch, parser);
        printDecodedGenome(GenomeLayout(workload, arch, given.options), given.genome, parser.value(save));
        return int(kOk);
    });
}

} // namespace sparsemap::cli
