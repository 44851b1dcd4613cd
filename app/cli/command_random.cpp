// sparsemap random <workload> <arch> [--seed N] [--count N] [--padding mode] [--save file]
#include "cli_common.hpp"
#include "commands.hpp"
#include "design_printing.hpp"

#include "genome/genome_codec.hpp"

#include <iostream>
#include <random>

namespace sparsemap::cli {

int runRandom(const QStringList& args)
{
    return runGuarded("random", [&] {
        QCommandLineParser parser;
        const QCommandLineOption seed(
            "seed", "Random seed (default 1): the same seed gives the same genomes.", "N", "1");
        const QCommandLineOption count("count", "How many genomes to draw (default 1).", "N", "1");
        const QCommandLineOption save("save", "Write the (last) design as design YAML to this file.", "file");
        parser.addOption(seed);
        parser.addOption(count);
        parser.addOption(save);
        parser.addOption(paddingOption());
        if (!parseCommandLine(parser, args, "Draw uniformly random genomes and print their decoding.",
                              {{"workload", "Workload YAML file."},
                               {"arch", "Architecture: a preset (edge, mobile, cloud) or a YAML file."}},
                              2))
            return int(kOk);
        bool ok = false;
        const qulonglong seedValue = parser.value(seed).toULongLong(&ok);
        if (!ok)
            throw UsageError("--seed must be a non-negative integer, not '" + str(parser.value(seed)) + "'");
        const int n = parser.value(count).toInt(&ok);
        if (!ok || n < 1 || n > 100000)
            throw UsageError("--count must be an integer in 1..100000, not '" + str(parser.value(count)) +
                             "'");
        const auto positional = parser.positionalArguments();
        const GenomeLayout layout(loadWorkloadArgument(positional[0]), loadArchitecture(positional[1]),
                                  genomeOptions(parser));
        std::mt19937_64 rng(seedValue);
        for (int i = 0; i < n; ++i) {
            if (i)
                std::cout << "\n----\n\n";
            printDecodedGenome(layout, randomGenome(layout, rng),
                               i + 1 == n ? parser.value(save) : QString());
        }
        return int(kOk);
    });
}

} // namespace sparsemap::cli
