// sparsemap evaluate <workload> <arch> <genome> [--padding mode] [--confidence c] [--format-space m] [--nest]
// sparsemap evaluate <design.yaml> [options]   (the design file's own workload and architecture)
// sparsemap evaluate --sparseloop <dir>
#include "cli_common.hpp"
#include "commands.hpp"

#include "util/text.hpp"

#include "design/loop_nest_text.hpp"
#include "genome/genome_codec.hpp"
#include "genome/genome_text.hpp"
#include "io/design_io.hpp"
#include "io/sparseloop/sparseloop_import.hpp"
#include "model/genome_evaluator.hpp"
#include "model/result_text.hpp"
#include "io/sparseloop/sparseloop_options.hpp"

#include <iostream>

namespace sparsemap::cli {

int runEvaluate(const QStringList& args)
{
    return runGuarded("evaluate", [&] {
        QCommandLineParser parser;
        const QCommandLineOption sparseloop(
            "sparseloop",
            "Evaluate a Sparseloop case folder (aggregated_input.yaml, map.yaml, "
            "ERT.yaml) instead of a genome.",
            "dir");
        const QCommandLineOption nest("nest", "Also print the design's loop nest.");
        parser.addOption(sparseloop);
        for (const auto& option : modelOptionOptions())
            parser.addOption(option);
        parser.addOption(nest);
        parser.addOption(paddingOption());
        const bool fromSparseloop =
            args.contains("--sparseloop") || std::any_of(args.begin(), args.end(), [](const QString& a) {
                return a.startsWith("--sparseloop=");
            });
        if (!parseCommandLine(
                parser, args,
                "Evaluate a design with the analytical model and print cycles, energy, EDP and the "
                "per-level breakdown.",
                {{"workload", "Workload YAML file, or a design YAML file alone: it is evaluated on the "
                              "workload and architecture it embeds (`inputs`)."},
                 {"arch", "Architecture: a preset (edge, mobile, cloud) or a YAML file."},
                 {"genome", "Integers separated by commas or spaces, or a design YAML file."}},
                fromSparseloop ? 0 : 1))
            return int(kOk);
        if (fromSparseloop) {
            if (!parser.positionalArguments().isEmpty())
                throw UsageError("--sparseloop takes a folder and no other arguments");
            const SparseloopCase c = importSparseloopCase(str(parser.value(sparseloop)));
            model::ModelOptions options = model::sparseloopModelOptions(c);
            const model::ModelOptions given = modelOptions(parser);
            options.occupancyConfidence = given.occupancyConfidence;
            options.formatSpace = given.formatSpace;
            model::Evaluator evaluator(c.workload, c.architecture, options);
            const Design design = model::sparseloopDesign(c);
            const auto& result = evaluator.evaluate(design);
            if (parser.isSet(nest))
                std::cout << escapeControl(renderLoopNest(c.workload, c.architecture, design),
                                           LineBreaks::Keep)
                          << '\n';
            std::cout << escapeControl(model::renderSummary(result) + '\n' +
                                           model::renderBreakdown(c.workload, c.architecture, result),
                                       LineBreaks::Keep);
            return int(kOk);
        }
        const auto positional = parser.positionalArguments();
        if (positional.size() == 2)
            throw UsageError("missing argument <genome> (see --help)");
        std::optional<DesignInputs> embedded;
        if (positional.size() == 1) {
            embedded = loadDesignInputs(str(positional[0]));
            if (!embedded)
                throw UsageError(str(positional[0]) +
                                 " has no `inputs` (workload and architecture): give them before it, "
                                 "`sparsemap evaluate <workload> <arch> " +
                                 str(positional[0]) + "`");
        }
        const Workload workload = embedded ? embedded->workload : loadWorkloadArgument(positional[0]);
        const Architecture arch = embedded ? embedded->architecture : loadArchitecture(positional[1]);
        const GenomeArgument given = loadGenomeArgument(positional.back(), workload, arch, parser);
        const Genome& genome = given.genome;
        const GenomeLayout layout(workload, arch, given.options);
        model::GenomeEvaluator evaluator(layout, modelOptions(parser, given));
        const auto& result = evaluator.evaluate(genome);
        std::cout << "genome: " << genomeToText(genome) << "\n\n";
        if (parser.isSet(nest))
            std::cout << escapeControl(renderLoopNest(layout.workload(), arch, evaluator.lastDesign()),
                                       LineBreaks::Keep)
                      << '\n';
        std::cout << escapeControl(model::renderSummary(result) + '\n' +
                                       model::renderBreakdown(evaluator.evaluator().workload(), arch, result),
                                   LineBreaks::Keep);
        return int(kOk);
    });
}

} // namespace sparsemap::cli
