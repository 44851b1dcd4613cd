#include "design_printing.hpp"

#include "cli_common.hpp"
#include "design/loop_nest_text.hpp"
#include "genome/genome_codec.hpp"
#include "genome/genome_text.hpp"
#include "io/design_io.hpp"
#include "util/text.hpp"

#include <iostream>

namespace sparsemap::cli {

void printDecodedGenome(const GenomeLayout& layout, const Genome& genome, const QString& savePath)
{
    const Design design = decodeGenome(layout, genome);
    std::cout << "genome: " << genomeToText(genome) << "\n\n"
              << escapeControl(renderLoopNest(layout.workload(), layout.architecture(), design),
                               LineBreaks::Keep); // names from the files, escaped
    if (!savePath.isEmpty()) {
        saveDesignFile(layout, genome, design, str(savePath));
        std::cout << "\nsaved " << escapeControl(str(savePath)) << '\n';
    }
    std::cout.flush();
}

} // namespace sparsemap::cli
