// sparsemap info <workload> [--arch preset|file] [--padding mode] [--genes]
#include "cli_common.hpp"
#include "commands.hpp"

#include "design/loop_nest_text.hpp"
#include "genome/genome_layout.hpp"
#include "util/text.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace sparsemap::cli {

namespace {

std::string powerOfTen(double log10)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "10^%.1f (O(10^%d))", log10, static_cast<int>(std::floor(log10)));
    return buf;
}

std::string dimsText(const Workload& w, const std::vector<std::int64_t>& sizes)
{
    std::string out;
    for (std::size_t d = 0; d < w.dims.size(); ++d)
        out += (d ? " " : "") + w.dims[d].name + "=" + std::to_string(sizes[d]);
    return out;
}

// printf into `out`.
template <typename... Args> void appendf(std::ostringstream& out, const char* format, Args... args)
{
    std::string line(static_cast<std::size_t>(std::snprintf(nullptr, 0, format, args...)) + 1, '\0');
    std::snprintf(line.data(), line.size(), format, args...);
    line.pop_back();
    out << line;
}

void printLayout(const GenomeLayout& layout, bool everyGene)
{
    // Names come from the files: the report is printed with their control characters escaped.
    std::ostringstream out;
    const Workload& w = layout.workload();
    const Architecture& a = layout.architecture();
    std::vector<std::int64_t> sizes;
    for (const auto& d : w.dims)
        sizes.push_back(d.size);
    out << "workload      " << w.name << " (" << workloadKindName(w.kind) << "): " << dimsText(w, sizes)
        << "\n              " << einsumText(w) << '\n';
    out << "padded dims   " << dimsText(w, layout.paddedSizes()) << "  (padding "
        << paddingModeName(layout.options().padding) << ")\n";
    out << "architecture  " << a.name << ": ";
    for (const auto& l : a.levels)
        out << l.name << (l.instances > 1 ? " (x" + std::to_string(l.instances) + ")" : "") << " -> ";
    out << a.compute.name << " (x" << a.compute.instances << ")\n";
    out << "mapping       ";
    for (const auto& s : layout.mappingLevels())
        out << s.name << "=" << a.levels[s.storageLevel].name
            << (s.kind == LoopKind::Spatial ? " spatial  " : " temporal  ");
    out << "\n\ngenome        " << layout.size() << " genes\n";
    appendf(out, "  %-8s %-9s %6s  %-8s  %s\n", "segment", "genes", "length", "range", "what");
    for (const auto& part : layout.parts()) {
        const auto r = part.range;
        if (r.size() == 0)
            continue;
        std::string what;
        switch (part.segment) {
        case GeneSegment::Permutation:
            what = "loop order per mapping level (Cantor code)";
            break;
        case GeneSegment::Tiling:
            what = "mapping level of each prime factor:";
            for (std::size_t d = 0; d < w.dims.size(); ++d) {
                what += " " + w.dims[d].name + "=";
                const auto& f = layout.factors(static_cast<int>(d));
                for (std::size_t i = 0; i < f.size(); ++i)
                    what += (i ? "*" : "") + std::to_string(f[i]);
                if (f.empty())
                    what += "1";
            }
            break;
        case GeneSegment::Format:
            what = "formats of " + w.tensors[layout.gene(r.begin).tensor].name +
                   ", right-aligned to its ranks (0 U, 1 B, 2 RLE, 3 CP, 4 UOP)";
            break;
        case GeneSegment::SkipGate:
            what = "skipping/gating at each on-chip level and compute";
            break;
        }
        const std::string genes = std::to_string(r.begin + 1) + "-" + std::to_string(r.end);
        const std::string range =
            std::to_string(layout.gene(r.begin).lower) + ".." + std::to_string(layout.gene(r.begin).upper);
        appendf(out, "  %-8s %-9s %6d  %-8s  %s\n", layout.partName(part).c_str(), genes.c_str(), r.size(),
                range.c_str(), what.c_str());
    }
    if (everyGene) {
        out << '\n';
        for (int i = 0; i < layout.size(); ++i) {
            const auto& g = layout.gene(i);
            appendf(out, "  %3d  %-14s %d..%-5d %s\n", i + 1, g.name.c_str(), g.lower, g.upper,
                    g.description.c_str());
        }
    }
    out << "\ndesign space  raw (paper's count)  " << powerOfTen(layout.rawSpaceLog10()) << " = mapping "
        << powerOfTen(layout.rawMappingSpaceLog10()) << " x sparse strategy "
        << powerOfTen(layout.sparseSpaceLog10()) << '\n';
    out << "              encoded (genomes)    " << powerOfTen(layout.encodedSpaceLog10()) << '\n';
    std::cout << escapeControl(out.str(), LineBreaks::Keep);
    std::cout.flush();
}

} // namespace

int runInfo(const QStringList& args)
{
    return runGuarded("info", [&] {
        QCommandLineParser parser;
        const QCommandLineOption arch("arch", "Architecture: a preset (edge, mobile, cloud) or a YAML file.",
                                      "preset|file", "cloud");
        const QCommandLineOption genes("genes", "List every gene with its meaning and range.");
        parser.addOption(arch);
        parser.addOption(genes);
        parser.addOption(paddingOption());
        if (!parseCommandLine(parser, args,
                              "Print the genome layout (segments, lengths, ranges) of a workload on an "
                              "architecture and the size of its design space.",
                              {{"workload", "Workload YAML file (see samples/workloads)."}}, 1))
            return int(kOk);
        const GenomeLayout layout(loadWorkloadArgument(parser.positionalArguments()[0]),
                                  loadArchitecture(parser.value(arch)), genomeOptions(parser));
        printLayout(layout, parser.isSet(genes));
        return int(kOk);
    });
}

} // namespace sparsemap::cli
