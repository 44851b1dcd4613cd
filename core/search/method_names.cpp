#include "search/method_names.hpp"

#include <array>

namespace sparsemap::search {

namespace {

constexpr std::array kMethods{
    MethodName{"sparsemap",
               "SparseMap ES: spatial-first random draws, design-aware crossover and mutation on canonical "
               "genomes, local polish of the elite, restarts"},
    MethodName{"sparsemap-paper",
               "the published SparseMap ES: calibration, hypercube initialization, annealing mutation, SAC"},
    MethodName{"es-pfce", "ablation: standard ES on the prime-factor + Cantor genome, LHS initialization"},
    MethodName{"es-direct",
               "ablation: standard ES on a direct encoding (tiling values as genes), LHS initialization"},
    MethodName{"sparsemap-no-canonical",
               "ablation: sparsemap evaluating genomes as bred (no canonical form)"},
    MethodName{"sparsemap-no-polish", "ablation: sparsemap without the local polish of the elite"},
    MethodName{"sparsemap-no-restart", "ablation: sparsemap without restarts on stagnation"},
    MethodName{"sparsemap-sac", "ablation: sparsemap with the paper's sensitivity-aware crossover"},
    MethodName{"sparsemap-annealing", "ablation: sparsemap with the paper's annealing mutation"},
    MethodName{"sparsemap-hshi",
               "ablation: sparsemap starting as published: sensitivity calibration, then the hypercube "
               "initialization (HSHI) instead of a spatial-first random generation 0"},
    MethodName{"sparsemap-100", "ablation: sparsemap with the paper's (100 + 100) population"},
    MethodName{"sparsemap-steepest",
               "ablation: sparsemap polishing by steepest descent (the whole neighbourhood per step)"},
    MethodName{"sparsemap-no-pairs",
               "ablation: sparsemap polishing with single moves only (no format-gene pairs)"},
    MethodName{"sparsemap-no-exchanges",
               "ablation: sparsemap polishing without exchanges of two prime factors' levels"},
    MethodName{"sparsemap-no-refills",
               "ablation: sparsemap polishing without one-for-two factor exchanges at spatial levels"},
    MethodName{"sparsemap-no-resplits",
               "ablation: sparsemap polishing without re-splits of a dimension's spatial unrolling (three or "
               "more of its prime factors trading levels)"},
    MethodName{"sparsemap-no-block-moves",
               "ablation: sparsemap polishing without moves of blocks of equal prime factors (all of a "
               "dimension's factors p at one level to another level at once)"},
    MethodName{"sparsemap-no-block-exchanges",
               "ablation: sparsemap polishing without exchanges of blocks of equal prime factors between "
               "two dimensions"},
    MethodName{"sparsemap-no-inserts",
               "ablation: sparsemap polishing without moves that give a dim a new loop at a temporal level "
               "placed elsewhere among the level's loops"},
    MethodName{"sparsemap-no-early-restarts",
               "ablation: sparsemap restarting only after 20 generations without progress (not as soon as "
               "the segment's polished best is more than 10 % above the run's best)"},
    MethodName{"sparsemap-no-confined-segments",
               "ablation: sparsemap without segments confined to one dim at the innermost spatial level "
               "(every other segment's draws, children and first polish descent)"},
    MethodName{"sparsemap-unconfined-polish",
               "ablation: sparsemap whose confined segments polish without the confinement (their first "
               "descent not kept to one dim at the innermost spatial level)"},
    MethodName{
        "sparsemap-no-capacity-precheck",
        "ablation: sparsemap evaluating every genome (no pre-evaluation check that rules out, without an "
        "evaluation, genomes whose tiles' data overflow a buffer)"},
    MethodName{"sparsemap-charge-malformed",
               "ablation: sparsemap spending an evaluation on every malformed design (formats or S/G actions "
               "that cannot be built), which the default rules out without one"},
    MethodName{
        "sparsemap-charge-overflow",
        "ablation: sparsemap spending an evaluation on every design whose tiles overflow a buffer once "
        "their metadata is counted, which the default rules out without one"},
    MethodName{"sparsemap-no-repairs",
               "ablation: sparsemap polishing without repairs (an overflowing mapping move with a tensor "
               "made uncompressed)"},
    MethodName{"sparsemap-no-bound-orders",
               "ablation: sparsemap polishing without the orders of the unit loops a storage level binds "
               "its ranks to"},
    MethodName{"sparsemap-no-follow-ups",
               "ablation: sparsemap without follow-ups (near-miss mapping moves of the best local optimum "
               "with the sparse strategy of the ranks they change re-chosen)"},
    MethodName{"sparsemap-no-endgame-offsets",
               "ablation: sparsemap whose end game reorders carried formats Sparseloop cannot represent "
               "(instead of keeping a compressed rank carried above an uncompressed one as UOP)"},
    MethodName{"sparsemap-no-endgame-tiers",
               "ablation: sparsemap whose end game polishes without loop relocations and one-for-two "
               "exchanges between temporal levels"},
    MethodName{"sparsemap-no-endgame-repolish",
               "ablation: sparsemap whose end game polishes only the run's best with the extra tiers (not "
               "the other segments' local optima)"},
    MethodName{"sparsemap-no-resplit-kicks",
               "ablation: sparsemap whose end game kicks the run's best by random steps only (none of its "
               "moves that change the spatial unrolling)"},
    MethodName{"sparsemap-resplit-kicks",
               "ablation: sparsemap whose end game begins one mean segment before the end and draws half "
               "its kicks from the re-splits of the run's spatial unrolling (session 46's end game)"},
    MethodName{"sparsemap-all-format-pairs",
               "ablation: sparsemap whose polish tries every pair of a tensor's format genes (not only the "
               "moves of its compression to another rank)"},
    MethodName{"sparsemap-skip-gate-first-tier",
               "ablation: sparsemap whose polish tries the changes of one S/G gene among its single moves "
               "(not in a tier of their own after them)"},
    MethodName{"sparsemap-narrow-follow-ups",
               "ablation: sparsemap whose follow-ups pair only format genes of which one formats a new rank "
               "and start from moves that score as the local optimum too"},
    MethodName{"sparsemap-no-move-memory",
               "ablation: sparsemap whose polish tries again, at each step of a descent, the moves that came "
               "out more than 50 % worse earlier in it"},
    MethodName{"sparsemap-move-memory-100",
               "ablation: sparsemap whose polish leaves out only the moves that came out more than twice as "
               "bad earlier in its descent (session 47's move memory)"},
    MethodName{
        "sparsemap-positional",
        "ablation: sparsemap whose mapping moves leave the format genes in place (formats not carried)"},
    MethodName{
        "sparsemap-strategy",
        "variant: sparsemap with a sub-search of the sparse strategy at the best before a restart (S/G "
        "combinations x tensors uncompressed, 300 evaluated, the best 3 polished)"},
    MethodName{"sparsemap-strategy-polish",
               "variant: sparsemap-strategy right after the best's polish instead of before a restart"},
    MethodName{"sparsemap-niches", "variant: sparsemap keeping at most 5 members per tiling in survival"},
    MethodName{"sparsemap-unfiltered-offspring",
               "ablation: sparsemap evaluating bred offspring whose spatial fan-out cannot fit"},
    MethodName{"sparsemap-restart-keep-best",
               "ablation: sparsemap whose restarts keep the best member (they breed from it)"},
    MethodName{"sparsemap-uniform-crossover",
               "ablation: sparsemap crossing 30 % of the children gene by gene (session 17's default)"},
    MethodName{"sparsemap-pairs-first",
               "ablation: sparsemap polishing with format-gene pairs before factor exchanges"},
    MethodName{"sparsemap-no-endgame",
               "ablation: sparsemap restarting to the end (no iterated local search in the last segment)"},
    MethodName{
        "sparsemap-uniform-draws",
        "ablation: sparsemap whose fresh draws leave the spatial unrolling to the uniform tiling genes "
        "(no spatial-first draw)"},
    MethodName{"sparsemap-no-unrolling-niches",
               "ablation: sparsemap whose survival keeps the best members whatever their spatial unrolling"},
    MethodName{"sparsemap-one-dim-draws",
               "variant: sparsemap whose spatial draws give each spatial level to one dim alone"},
    MethodName{"sparsemap-drop-inadmissible-cells",
               "variant: sparsemap whose HSHI gives up a hypercube after one round of draws that never pass "
               "the fan-out pre-check"},
    MethodName{"sparsemap-move-memory",
               "variant: sparsemap whose polish does not try again, within one descent, a move that came out "
               "more than 5 % worse (the default: more than 50 % worse)"},
    MethodName{"sparsemap-random-perm",
               "ablation: the published SparseMap ES with random instead of Cantor permutation codes"},
    MethodName{"es-pfce-random-perm", "ablation: es-pfce with random permutation codes"},
    MethodName{"mapper", "Sparseloop-Mapper-like: random valid mappings under a fixed sparse strategy"},
    MethodName{"sage", "SAGE-like: a fixed output-stationary mapping, searching formats and S/G"},
    MethodName{"pso", "particle swarm (pagmo2)"},
    MethodName{"sa", "simulated annealing (pagmo2)"},
    MethodName{"ga", "genetic algorithm (pagmo2 sga)"},
    MethodName{"cmaes", "CMA-ES (pagmo2)"},
    MethodName{"de", "differential evolution (pagmo2)"},
    MethodName{"mcts", "Monte Carlo tree search (UCT) over genes in genome order"},
    MethodName{"random", "uniform random genomes"},
    MethodName{
        "mindmappings",
        "Mind Mappings: an MLP surrogate trained on sampled designs (30% of the budget), then projected "
        "gradient search with annealed random injections"},
};

// sparsemap-random-init (a random generation 0): sparsemap's own start since session 26.
constexpr std::array<std::string_view, 1> kRetired{"sparsemap-random-init"};

} // namespace

std::span<const MethodName> methodList()
{
    return kMethods;
}

bool isMethodName(std::string_view name)
{
    for (const auto& m : kMethods)
        if (m.name == name)
            return true;
    return false;
}

std::span<const std::string_view> retiredMethodNames()
{
    return kRetired;
}

std::string methodNames()
{
    std::string names;
    for (const auto& m : kMethods)
        names += (names.empty() ? "" : ", ") + std::string(m.name);
    return names;
}

} // namespace sparsemap::search
