// sparsemap cgra (--block F | --random C K p seed [--count N] | --spconv W C K seed | --paper)
//                [--ablation variants] [--rows N --cols M --lrf R --grf R --no-multicast]
//                [--schedule] [--binding] [--save-block F]
// Maps sparse CNN blocks onto a streaming CGRA with the CGRA SparseMap scheduler (and its ablations and
// a baseline) and prints the paper's Table 3 metrics per block, then totals.
#include "cli_common.hpp"
#include "commands.hpp"

#include "cgra/block_file.hpp"
#include "cgra/block_mapper.hpp"
#include "cgra/paper_blocks.hpp"
#include "io/workload_io.hpp"
#include "util/text.hpp"

#include <cstdio>
#include <iostream>
#include <map>

#include <unistd.h>

namespace sparsemap::cli {

namespace {

using namespace sparsemap::cgra;

int intArgument(const QString& text, const char* what, int low, int high)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    if (!ok || value < low || value > high)
        throw UsageError(std::string(what) + " must be an integer in " + std::to_string(low) + ".." +
                         std::to_string(high) + ", not '" + str(text) + "'");
    return value;
}

std::vector<MappingVariant> parseVariants(const QString& text)
{
    if (text == "table4")
        return {MappingVariant::Baseline, MappingVariant::Aiba, MappingVariant::AibaMulCi,
                MappingVariant::SparseMap};
    if (text == "all")
        return {MappingVariant::Baseline, MappingVariant::NoTechniques, MappingVariant::Aiba,
                MappingVariant::AibaMulCi, MappingVariant::SparseMap};
    std::vector<MappingVariant> out;
    for (const auto& part : text.split(',', Qt::SkipEmptyParts)) {
        MappingVariant v;
        if (!parseVariant(str(part.trimmed()), v))
            throw UsageError(
                "--ablation: unknown variant '" + str(part) +
                "'; use sparsemap, aiba+mulci, aiba, none, baseline, or the sets table4 and all");
        out.push_back(v);
    }
    if (out.empty())
        throw UsageError("--ablation needs at least one variant");
    return out;
}

std::string fixed(double value, int decimals)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string pad(const std::string& s, std::size_t width)
{
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

struct Totals {
    int blocks = 0, atMii = 0, firstSuccess = 0, success = 0, cops = 0, mcids = 0;
    double speedup = 0;
};

} // namespace

int runCgra(const QStringList& args)
{
    return runGuarded("cgra", [&] {
        QCommandLineParser parser;
        const QCommandLineOption block("block", "Sparse block mask file (one 0/1 row per kernel).", "file");
        const QCommandLineOption random("random", "Random blocks; positionals: C K p seed (each weight zero "
                                                  "with probability p).");
        const QCommandLineOption spconv("spconv",
                                        "Cut a block from a SpConv workload's weight density; "
                                        "positionals: C K seed.",
                                        "workload");
        const QCommandLineOption paper("paper",
                                       "The paper's seven blocks (Table 2 features; masks are ours).");
        const QCommandLineOption count("count", "With --random: map N blocks, seeds seed..seed+N-1.", "N",
                                       "1");
        const QCommandLineOption ablation(
            "ablation",
            "Variants, comma-separated: sparsemap (default), aiba+mulci, aiba, none, baseline; or table4 "
            "(baseline,aiba,aiba+mulci,sparsemap) or all.",
            "variants", "sparsemap");
        const QCommandLineOption rows("rows", "PE rows N = output buses (default 4).", "N", "4");
        const QCommandLineOption cols("cols", "PE columns M = input buses (default 4).", "M", "4");
        const QCommandLineOption lrf("lrf", "LRF registers per PE (default 8).", "R", "8");
        const QCommandLineOption grf("grf", "GRF registers (default 8).", "R", "8");
        const QCommandLineOption noMulticast("no-multicast", "The crossbar cannot multicast inputs.");
        const QCommandLineOption printSchedule("schedule", "Print each final modulo schedule.");
        const QCommandLineOption printBinding("binding", "Print each binding (PE / bus per node).");
        const QCommandLineOption saveBlock("save-block", "Save the (last) block as a mask file.", "file");
        for (const auto& o : {block, random, spconv, paper, count, ablation, rows, cols, lrf, grf,
                              noMulticast, printSchedule, printBinding, saveBlock})
            parser.addOption(o);
        if (!parseCommandLine(parser, args,
                              "Map sparse CNN blocks onto a streaming CGRA (the CGRA SparseMap paper): "
                              "MII, II_0, COPs, MCIDs, final II and speed-up per block.",
                              {{"C", "channels (--random, --spconv)"},
                               {"K", "kernels (--random, --spconv)"},
                               {"p|seed", "zero probability (--random) or seed (--spconv)"},
                               {"seed", "seed (--random)"}},
                              0))
            return int(kOk);
        const int modes = int(parser.isSet(block)) + int(parser.isSet(random)) + int(parser.isSet(spconv)) +
                          int(parser.isSet(paper));
        if (modes != 1)
            throw UsageError("give exactly one of --block, --random, --spconv, --paper (see --help)");
        const auto pos = parser.positionalArguments();
        const auto expect = [&](int n, const char* form) {
            if (pos.size() != n)
                throw UsageError(std::string("expected ") + form + " after the options, got " +
                                 std::to_string(pos.size()) + " positional arguments");
        };

        CgraSpec cgra = paperCgra();
        cgra.rows = intArgument(parser.value(rows), "--rows", 1, kMaxCgraSide);
        cgra.cols = intArgument(parser.value(cols), "--cols", 1, kMaxCgraSide);
        cgra.lrfCapacity = intArgument(parser.value(lrf), "--lrf", 1, 1024);
        cgra.grfCapacity = intArgument(parser.value(grf), "--grf", 0, 1024);
        cgra.multicast = !parser.isSet(noMulticast);
        if (cgra.rows != 4 || cgra.cols != 4)
            cgra.name = std::to_string(cgra.rows) + "x" + std::to_string(cgra.cols);

        std::vector<SparseBlock> blocks;
        if (parser.isSet(block)) {
            expect(0, "nothing");
            blocks.push_back(loadBlockFile(str(parser.value(block))));
        } else if (parser.isSet(paper)) {
            expect(0, "nothing");
            blocks = paperBlocks();
        } else if (parser.isSet(random)) {
            expect(4, "C K p seed");
            const int c = intArgument(pos[0], "C", 1, kMaxBlockSide);
            const int k = intArgument(pos[1], "K", 1, kMaxBlockSide);
            bool ok = false;
            const double p = pos[2].toDouble(&ok);
            if (!ok || !(p >= 0 && p < 1)) // also rejects nan
                throw UsageError("p (zero probability) must be a number in [0, 1), not '" + str(pos[2]) +
                                 "'");
            const qulonglong seed = pos[3].toULongLong(&ok);
            if (!ok)
                throw UsageError("seed must be a non-negative integer, not '" + str(pos[3]) + "'");
            const int n = intArgument(parser.value(count), "--count", 1, 100000);
            for (int i = 0; i < n; ++i)
                blocks.push_back(randomBlock(c, k, p, seed + qulonglong(i)));
        } else {
            expect(3, "C K seed");
            const int c = intArgument(pos[0], "C", 1, kMaxBlockSide);
            const int k = intArgument(pos[1], "K", 1, kMaxBlockSide);
            bool ok = false;
            const qulonglong seed = pos[2].toULongLong(&ok);
            if (!ok)
                throw UsageError("seed must be a non-negative integer, not '" + str(pos[2]) + "'");
            blocks.push_back(blockFromWorkload(loadWorkloadFile(str(parser.value(spconv))), c, k, seed));
        }
        if (parser.isSet(count) && !parser.isSet(random))
            throw UsageError("--count only goes with --random");
        const auto variants = parseVariants(parser.value(ablation));
        validateCgra(cgra);
        if (parser.isSet(saveBlock))
            saveBlockFile(str(parser.value(saveBlock)), blocks.back());

        std::cout << "CGRA " << cgra.name << ": " << cgra.rows << " x " << cgra.cols << " PEs, "
                  << cgra.inputBuses() << " input buses, " << cgra.outputBuses() << " output buses, LRF "
                  << cgra.lrfCapacity << ", GRF " << cgra.grfCapacity << ", multicast "
                  << (cgra.multicast ? "on" : "off") << "\n\n";
        const bool terminal = isatty(fileno(stderr));
        std::map<MappingVariant, Totals> totals;
        bool checkerFailed = false;
        for (const auto& b : blocks) {
            const auto counts = countsOf(b);
            std::cout << "block " << b.name << ": C" << b.channels << "K" << b.kernels << ", nnz " << b.nnz()
                      << ", sparsity " << fixed(b.sparsity(), 2) << ", |V_OP| " << counts.ops << ", |V_R| "
                      << counts.reads << ", |V_W| " << counts.writes << ", MII " << minimumIi(counts, cgra)
                      << ", dense MII " << denseMinimumIi(b.channels, b.kernels, cgra) << "\n";
            std::cout << "  " << pad("variant", 12) << pad("II_0", 6) << pad("COPs", 6) << pad("MCIDs", 7)
                      << pad("mapped@II_0", 13) << pad("II", 5) << pad("speed-up", 10) << "\n";
            std::cout << std::flush; // each row as soon as it is known, also into a pipe
            for (auto v : variants) {
                MappingOptions options;
                options.variant = v;
                if (terminal) // a C32K32 block on a 16 x 16 CGRA takes about a minute per variant
                    options.progress = [&](const std::string& stage) {
                        std::cerr << "\r\x1b[K" << escapeControl(b.name) << " " << variantName(v) << ": "
                                  << stage << std::flush;
                    };
                const auto r = mapBlock(b, cgra, options);
                if (terminal)
                    std::cerr << "\r\x1b[K" << std::flush;
                std::cout << "  " << pad(variantName(v), 12) << pad(std::to_string(r.firstIi), 6)
                          << pad(std::to_string(r.firstCops), 6) << pad(std::to_string(r.firstMcids), 7)
                          << pad(r.firstSuccess ? "Y" : "N", 13)
                          << pad(r.success ? std::to_string(r.finalIi) : "Failed", 5)
                          << pad(r.success ? fixed(r.speedup, 2) : "-", 10) << "\n";
                if (!r.success)
                    std::cout << "    " << r.failure << "\n";
                std::cout << std::flush;
                for (const auto& problem : r.checkerProblems) {
                    std::cout << "    CHECKER: " << problem << "\n";
                    checkerFailed = true;
                }
                if (parser.isSet(printSchedule) && r.scheduled)
                    std::cout << scheduleText(r.finalSchedule, cgra);
                if (parser.isSet(printBinding) && r.scheduled) {
                    const auto& s = r.finalSchedule;
                    std::cout << "    binding (" << r.finalBinding.solver << ", conflict graph "
                              << r.finalBinding.conflictVertices << " vertices, "
                              << r.finalBinding.conflictEdges << " edges, GRF " << r.finalBinding.grfRegisters
                              << ", max LRF " << r.finalBinding.maxLrfRegisters << "):";
                    for (std::size_t n = 0; n < s.graph.nodes.size(); ++n) {
                        const int res = r.finalBinding.resource[n];
                        const auto kind = s.graph.nodes[n].kind;
                        std::string where = res < 0                  ? "unbound"
                                            : kind == NodeKind::Read ? "ibus" + std::to_string(res)
                                            : kind == NodeKind::Write
                                                ? "obus" + std::to_string(res)
                                                : "pe(" + std::to_string(res / cgra.cols) + "," +
                                                      std::to_string(res % cgra.cols) + ")";
                        std::cout << (n % 6 == 0 ? "\n      " : "  ") << s.graph.label(int(n)) << "@"
                                  << s.time[n] << "->" << where;
                    }
                    std::cout << "\n";
                }
                auto& t = totals[v];
                ++t.blocks;
                t.atMii += r.scheduled && r.firstIi == r.mii;
                t.firstSuccess += r.firstSuccess;
                t.success += r.success;
                t.cops += r.firstCops;
                t.mcids += r.firstMcids;
                t.speedup += r.success ? r.speedup : 0.0;
            }
            std::cout << "\n";
        }
        if (blocks.size() > 1) {
            std::cout << "totals over " << blocks.size()
                      << " blocks (COPs and MCIDs of the first attempts):\n  " << pad("variant", 12)
                      << pad("II_0=MII", 10) << pad("mapped@II_0", 13) << pad("mapped", 8) << pad("COPs", 7)
                      << pad("MCIDs", 7) << pad("mean speed-up (mapped)", 22) << "\n";
            for (auto v : variants) {
                const auto& t = totals[v];
                std::cout << "  " << pad(variantName(v), 12) << pad(std::to_string(t.atMii), 10)
                          << pad(std::to_string(t.firstSuccess), 13) << pad(std::to_string(t.success), 8)
                          << pad(std::to_string(t.cops), 7) << pad(std::to_string(t.mcids), 7)
                          << (t.success ? fixed(t.speedup / t.success, 2) : std::string("-")) << "\n";
            }
        }
        if (checkerFailed) {
            std::cerr << "sparsemap cgra: a schedule broke the paper's constraints (see CHECKER lines)\n";
            return int(kFailed);
        }
        return int(kOk);
    });
}

} // namespace sparsemap::cli
