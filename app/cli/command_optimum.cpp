// sparsemap optimum <workload> <arch> <genome|design.yaml> [--objective o] [--threads n]
//                   [--max-mappings n] [--save file] [--padding mode] [--confidence c] [--format-space m]
// The exact optimum of the mapping for the design's sparse strategy (core/search/mapping_optimum.hpp).
#include "cli_common.hpp"
#include "commands.hpp"
#include "design_printing.hpp"
#include "search_options.hpp"

#include "genome/genome_codec.hpp"
#include "model/genome_evaluator.hpp"
#include "search/mapping_optimum.hpp"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>

namespace sparsemap::cli {

int runOptimum(const QStringList& args)
{
    return runGuarded("optimum", [&] {
        QCommandLineParser parser;
        const QCommandLineOption objectiveOpt("objective", "edp (default), energy or delay.", "name", "edp");
        const QCommandLineOption threadsOpt("threads", "Worker threads; 0 = every core (default).", "n", "0");
        const QCommandLineOption maxOpt(
            "max-mappings",
            "Refuse to start when the canonical mapping space holds more mappings than this "
            "(default 200000000).",
            "n", "200000000");
        const QCommandLineOption save("save", "Write the optimum as design YAML to this file.", "file");
        for (const auto& o : {objectiveOpt, threadsOpt, maxOpt, save})
            parser.addOption(o);
        for (const auto& option : modelOptionOptions())
            parser.addOption(option);
        parser.addOption(paddingOption());
        if (!parseCommandLine(
                parser, args,
                "Enumerate every canonical mapping (tiling and loop order) of a workload on an "
                "architecture with the format and S/G genes of the given design held, and print the "
                "best: the exact optimum of the mapping for that sparse strategy.",
                {{"workload", "Workload YAML file."},
                 {"arch", "Architecture: a preset (edge, mobile, cloud) or a YAML file."},
                 {"genome", "Integers separated by commas or spaces, or a design YAML file (e.g. a "
                            "search's best.design.yaml): its format and S/G genes are held."}},
                3))
            return int(kOk);
        const auto positional = parser.positionalArguments();
        const Workload workload = loadWorkloadArgument(positional[0]);
        const Architecture arch = loadArchitecture(positional[1]);
        const GenomeArgument argument = loadGenomeArgument(positional[2], workload, arch, parser);
        const Genome& given = argument.genome;
        const GenomeLayout layout(workload, arch, argument.options);
        layout.validate(given);

        search::MappingOptimumSettings settings;
        settings.objective = parseObjective(parser.value(objectiveOpt));
        settings.threads = parseThreads(parser.value(threadsOpt));
        settings.modelOptions = modelOptions(parser, argument);
        bool ok = false;
        const double maxMappings = parser.value(maxOpt).toDouble(&ok);
        if (!ok || !(maxMappings >= 1) || !std::isfinite(maxMappings))
            throw UsageError("--max-mappings must be a positive number, not '" + str(parser.value(maxOpt)) +
                             "'");

        const auto size = search::canonicalMappingSpaceSize(layout, maxMappings, given);
        std::cout << "canonical mapping space: " << size.tilings << " tilings, ";
        if (size.mappings)
            std::cout << *size.mappings << " mappings\n";
        else
            std::cout << "loop orders not counted (more tilings than --max-mappings)\n";
        if (!size.mappings || *size.mappings > maxMappings) {
            std::cerr << "sparsemap optimum: the canonical mapping space is larger than --max-mappings ("
                      << maxMappings << "); raise it or take a smaller workload\n";
            return int(kFailed);
        }

        model::GenomeEvaluator evaluator(layout, settings.modelOptions);
        const Genome givenCanonical = canonicalGenome(layout, given);
        const auto& givenResult = evaluator.evaluate(givenCanonical);
        const double givenObjective =
            givenResult.valid ? model::objectiveValue(givenResult, settings.objective) : INFINITY;

        settings.progress = [](std::int64_t done, std::int64_t all) {
            std::cerr << "\r" << done << " / " << all << " tilings" << std::flush;
        };
        const auto start = std::chrono::steady_clock::now();
        const auto optimum = search::exhaustiveMappingOptimum(layout, given, settings);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cerr << '\n';

        const std::string name = objectiveName(settings.objective);
        std::cout << "enumerated: " << optimum.mappings << " mappings of " << optimum.tilings << " tilings, "
                  << optimum.fanoutRejected << " rejected by the fan-out pre-check, " << optimum.evaluated
                  << " evaluated, " << optimum.valid << " valid, in " << std::fixed << std::setprecision(1)
                  << seconds << " s\n"
                  << std::defaultfloat << std::setprecision(10);
        std::cout << "given design: " << name << ' ';
        if (givenResult.valid)
            std::cout << givenObjective << '\n';
        else
            std::cout << "invalid (" << givenResult.reason << ")\n";
        if (optimum.best.empty()) {
            std::cout << "optimum: no mapping is valid with this sparse strategy\n";
            return int(kOk);
        }
        std::cout << "optimum: " << name << ' ' << optimum.bestObjective;
        if (givenResult.valid)
            std::cout << "  (given / optimum = " << std::setprecision(6)
                      << givenObjective / optimum.bestObjective << ')';
        std::cout << "\n\n";
        printDecodedGenome(layout, optimum.best, parser.value(save));
        return int(kOk);
    });
}

} // namespace sparsemap::cli
