// sparsemap decode <workload> <arch> <genome> [--padding mode] [--save file]
#include "cli_common.hpp"
#include "commands.hpp"
#include "design_printing.hpp"

#include "genome/genome_text.hpp"
#include "io/design_io.hpp"

#include <QFileInfo>

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
        const QString genomeArg = positional[2];
        if (QFileInfo(genomeArg).isFile()) {
            // A design file carries its own padding mode; --padding does not apply.
            const auto doc = loadDesignFile(str(genomeArg), workload, arch);
            printDecodedGenome(GenomeLayout(workload, arch, doc.options), doc.genome, parser.value(save));
        } else {
            const GenomeLayout layout(workload, arch, genomeOptions(parser));
            printDecodedGenome(layout, parseGenomeText(str(genomeArg)), parser.value(save));
        }
        return int(kOk);
    });
}

} // namespace sparsemap::cli
