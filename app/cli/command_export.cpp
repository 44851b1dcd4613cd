// sparsemap export --sparseloop <dir> <workload> <arch> <genome | design.yaml> [--padding mode]
//                  [--format-space dead|nearest|unrestricted] [--confidence c]
// The CLI twin of the workbench's Sparseloop export: both call exportSparseloopCase.
#include "cli_common.hpp"
#include "commands.hpp"

#include "util/text.hpp"

#include "genome/genome_codec.hpp"
#include "io/sparseloop/sparseloop_export.hpp"
#include "model/genome_evaluator.hpp"
#include "model/result_text.hpp"

#include <iostream>

namespace sparsemap::cli {

int runExport(const QStringList& args)
{
    return runGuarded("export", [&] {
        QCommandLineParser parser;
        const QCommandLineOption sparseloop(
            "sparseloop",
            "Write the design as a Sparseloop case (aggregated_input.yaml, ERT.yaml) in this folder.", "dir");
        parser.addOption(sparseloop);
        parser.addOption(paddingOption());
        for (const auto& option : modelOptionOptions())
            parser.addOption(option);
        if (!parseCommandLine(parser, args,
                              "Export a design for Sparseloop. A design the model finds invalid (including "
                              "formats Sparseloop cannot represent) is refused with the reason.",
                              {{"workload", "Workload YAML file."},
                               {"arch", "Architecture: a preset (edge, mobile, cloud) or a YAML file."},
                               {"genome", "Integers separated by commas or spaces, or a design YAML file."}},
                              3))
            return int(kOk);
        if (!parser.isSet(sparseloop))
            throw UsageError("say where to write: --sparseloop <dir>");
        const auto positional = parser.positionalArguments();
        const Workload workload = loadWorkloadArgument(positional[0]);
        const Architecture arch = loadArchitecture(positional[1]);
        const GenomeArgument given = loadGenomeArgument(positional[2], workload, arch, parser);
        const Genome& genome = given.genome;
        const GenomeLayout layout(workload, arch, given.options);
        model::GenomeEvaluator evaluator(layout, modelOptions(parser, given));
        const auto& result = evaluator.evaluate(genome);
        if (!result.valid) {
            std::cerr << "sparsemap export: the design is invalid, not exported: " << result.reason << '\n';
            return int(kFailed);
        }
        const std::string dir = str(parser.value(sparseloop));
        exportSparseloopCase(layout.workload(), arch, evaluator.lastDesign(), dir);
        std::cout << "wrote " << dir << "/aggregated_input.yaml and " << dir
                  << "/ERT.yaml (run: timeloop-model aggregated_input.yaml ERT.yaml)\n\n"
                  << escapeControl(model::renderSummary(result), LineBreaks::Keep) << '\n';
        return int(kOk);
    });
}

} // namespace sparsemap::cli
