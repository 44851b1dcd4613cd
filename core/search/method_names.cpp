#include "search/method_names.hpp"

#include <array>

namespace sparsemap::search {

namespace {

constexpr std::array kMethods{
    MethodName{"sparsemap", MethodGroup::Default,
               "SparseMap ES: spatial-first random draws, design-aware crossover and mutation on canonical "
               "genomes, local polish of the elite, restarts"},
    MethodName{"mapper", MethodGroup::Baseline,
               "Sparseloop-Mapper-like: random valid mappings under a fixed sparse strategy"},
    MethodName{"sage", MethodGroup::Baseline,
               "SAGE-like: a fixed output-stationary mapping, searching formats and S/G"},
    MethodName{
        "mindmappings", MethodGroup::Baseline,
        "Mind Mappings: an MLP surrogate trained on sampled designs (30% of the budget), then projected "
        "gradient search with annealed random injections"},
    MethodName{"sa", MethodGroup::Baseline, "simulated annealing (pagmo2)"},
    MethodName{"ga", MethodGroup::Baseline, "genetic algorithm (pagmo2 sga)"},
    MethodName{"pso", MethodGroup::Baseline, "particle swarm (pagmo2)"},
    MethodName{"cmaes", MethodGroup::Baseline, "CMA-ES (pagmo2)"},
    MethodName{"de", MethodGroup::Baseline, "differential evolution (pagmo2)"},
    MethodName{"mcts", MethodGroup::Baseline, "Monte Carlo tree search (UCT) over genes in genome order"},
    MethodName{"random", MethodGroup::Baseline, "uniform random genomes"},
    MethodName{"sparsemap-paper", MethodGroup::Paper,
               "the published SparseMap ES: calibration, hypercube initialization, annealing mutation, SAC"},
    MethodName{"es-pfce", MethodGroup::Paper,
               "standard ES on the prime-factor + Cantor genome, LHS initialization"},
    MethodName{"es-direct", MethodGroup::Paper,
               "standard ES on a direct encoding (tiling values as genes), LHS initialization"},
    MethodName{"sparsemap-random-perm", MethodGroup::Paper,
               "the published SparseMap ES with random instead of Cantor permutation codes"},
    MethodName{"es-pfce-random-perm", MethodGroup::Paper, "es-pfce with random permutation codes"},
    MethodName{"sparsemap-no-canonical", MethodGroup::Ablation,
               "sparsemap evaluating genomes as bred (no canonical form)"},
    MethodName{"sparsemap-no-polish", MethodGroup::Ablation,
               "sparsemap without the local polish of the elite"},
    MethodName{"sparsemap-no-restart", MethodGroup::Ablation, "sparsemap without restarts on stagnation"},
    MethodName{"sparsemap-sac", MethodGroup::Ablation,
               "sparsemap with the paper's sensitivity-aware crossover"},
    MethodName{"sparsemap-annealing", MethodGroup::Ablation, "sparsemap with the paper's annealing mutation"},
    MethodName{"sparsemap-hshi", MethodGroup::Ablation,
               "sparsemap starting as published: sensitivity calibration, then the hypercube "
               "initialization (HSHI) instead of a spatial-first random generation 0"},
    MethodName{"sparsemap-100", MethodGroup::Ablation, "sparsemap with the paper's (100 + 100) population"},
    MethodName{"sparsemap-steepest", MethodGroup::Ablation,
               "sparsemap polishing by steepest descent (the whole neighbourhood per step)"},
    MethodName{"sparsemap-no-pairs", MethodGroup::Ablation,
               "sparsemap polishing with single moves only (no format-gene pairs)"},
    MethodName{"sparsemap-no-exchanges", MethodGroup::Ablation,
               "sparsemap polishing without exchanges of two prime factors' levels"},
    MethodName{"sparsemap-no-refills", MethodGroup::Ablation,
               "sparsemap polishing without one-for-two factor exchanges at spatial levels"},
    MethodName{"sparsemap-no-resplits", MethodGroup::Ablation,
               "sparsemap polishing without re-splits of a dimension's spatial unrolling (three or "
               "more of its prime factors trading levels)"},
    MethodName{"sparsemap-no-block-moves", MethodGroup::Ablation,
               "sparsemap polishing without moves of blocks of equal prime factors (all of a "
               "dimension's factors p at one level to another level at once)"},
    MethodName{"sparsemap-no-block-exchanges", MethodGroup::Ablation,
               "sparsemap polishing without exchanges of blocks of equal prime factors between "
               "two dimensions"},
    MethodName{"sparsemap-no-inserts", MethodGroup::Ablation,
               "sparsemap polishing without moves that give a dim a new loop at a temporal level "
               "placed elsewhere among the level's loops"},
    MethodName{"sparsemap-no-early-restarts", MethodGroup::Ablation,
               "sparsemap restarting only after 20 generations without progress (not as soon as "
               "the segment's polished best is more than 10 % above the run's best)"},
    MethodName{"sparsemap-no-confined-segments", MethodGroup::Ablation,
               "sparsemap without segments confined to one dim at the innermost spatial level "
               "(every other segment's draws, children and first polish descent)"},
    MethodName{"sparsemap-unconfined-polish", MethodGroup::Ablation,
               "sparsemap whose confined segments polish without the confinement (their first "
               "descent not kept to one dim at the innermost spatial level)"},
    MethodName{"sparsemap-no-capacity-precheck", MethodGroup::Ablation,
               "sparsemap evaluating every genome (no pre-evaluation check that rules out, without an "
               "evaluation, genomes whose tiles' data overflow a buffer)"},
    MethodName{"sparsemap-charge-malformed", MethodGroup::Ablation,
               "sparsemap spending an evaluation on every malformed design (formats or S/G actions "
               "that cannot be built), which the default rules out without one"},
    MethodName{"sparsemap-charge-overflow", MethodGroup::Ablation,
               "sparsemap spending an evaluation on every design whose tiles overflow a buffer once "
               "their metadata is counted, which the default rules out without one"},
    MethodName{"sparsemap-no-repairs", MethodGroup::Ablation,
               "sparsemap polishing without repairs (an overflowing mapping move with a tensor "
               "made uncompressed)"},
    MethodName{"sparsemap-no-bound-orders", MethodGroup::Ablation,
               "sparsemap polishing without the orders of the unit loops a storage level binds "
               "its ranks to"},
    MethodName{"sparsemap-no-follow-ups", MethodGroup::Ablation,
               "sparsemap without follow-ups (near-miss mapping moves of the best local optimum "
               "with the sparse strategy of the ranks they change re-chosen)"},
    MethodName{"sparsemap-no-endgame-offsets", MethodGroup::Ablation,
               "sparsemap whose end game reorders carried formats Sparseloop cannot represent "
               "(instead of keeping a compressed rank carried above an uncompressed one as UOP)"},
    MethodName{"sparsemap-no-endgame-tiers", MethodGroup::Ablation,
               "sparsemap whose end game polishes without loop relocations and one-for-two "
               "exchanges between temporal levels"},
    MethodName{"sparsemap-no-endgame-repolish", MethodGroup::Ablation,
               "sparsemap whose end game polishes only the run's best with the extra tiers (not "
               "the other segments' local optima)"},
    MethodName{"sparsemap-no-resplit-kicks", MethodGroup::Ablation,
               "sparsemap whose end game kicks the run's best by random steps only (none of its "
               "moves that change the spatial unrolling)"},
    MethodName{"sparsemap-resplit-kicks", MethodGroup::Ablation,
               "sparsemap whose end game begins one mean segment before the end and draws half "
               "its kicks from the re-splits of the run's spatial unrolling (an earlier default end game)"},
    MethodName{"sparsemap-all-format-pairs", MethodGroup::Ablation,
               "sparsemap whose polish tries every pair of a tensor's format genes (not only the "
               "moves of its compression to another rank)"},
    MethodName{"sparsemap-skip-gate-first-tier", MethodGroup::Ablation,
               "sparsemap whose polish tries the changes of one S/G gene among its single moves "
               "(not in a tier of their own after them)"},
    MethodName{"sparsemap-narrow-follow-ups", MethodGroup::Ablation,
               "sparsemap whose follow-ups pair only format genes of which one formats a new rank "
               "and start from moves that score as the local optimum too"},
    MethodName{"sparsemap-no-move-memory", MethodGroup::Ablation,
               "sparsemap whose polish tries again, at each step of a descent, the moves that came "
               "out more than 50 % worse earlier in it"},
    MethodName{"sparsemap-move-memory-100", MethodGroup::Ablation,
               "sparsemap whose polish leaves out only the moves that came out more than twice as "
               "bad earlier in its descent (an earlier default)"},
    MethodName{"sparsemap-positional", MethodGroup::Ablation,
               "sparsemap whose mapping moves leave the format genes in place (formats not carried)"},
    MethodName{"sparsemap-unfiltered-offspring", MethodGroup::Ablation,
               "sparsemap evaluating bred offspring whose spatial fan-out cannot fit"},
    MethodName{"sparsemap-restart-keep-best", MethodGroup::Ablation,
               "sparsemap whose restarts keep the best member (they breed from it)"},
    MethodName{"sparsemap-uniform-crossover", MethodGroup::Ablation,
               "sparsemap crossing 30 % of the children gene by gene (an earlier default)"},
    MethodName{"sparsemap-pairs-first", MethodGroup::Ablation,
               "sparsemap polishing with format-gene pairs before factor exchanges"},
    MethodName{"sparsemap-no-endgame", MethodGroup::Ablation,
               "sparsemap restarting to the end (no iterated local search in the last segment)"},
    MethodName{"sparsemap-uniform-draws", MethodGroup::Ablation,
               "sparsemap whose fresh draws leave the spatial unrolling to the uniform tiling genes "
               "(no spatial-first draw)"},
    MethodName{"sparsemap-no-unrolling-niches", MethodGroup::Ablation,
               "sparsemap whose survival keeps the best members whatever their spatial unrolling"},
    MethodName{"sparsemap-strategy", MethodGroup::Variant,
               "sparsemap with a sub-search of the sparse strategy at the best before a restart (S/G "
               "combinations x tensors uncompressed, 300 evaluated, the best 3 polished)"},
    MethodName{"sparsemap-strategy-polish", MethodGroup::Variant,
               "sparsemap-strategy right after the best's polish instead of before a restart"},
    MethodName{"sparsemap-niches", MethodGroup::Variant,
               "sparsemap keeping at most 5 members per tiling in survival"},
    MethodName{"sparsemap-one-dim-draws", MethodGroup::Variant,
               "sparsemap whose spatial draws give each spatial level to one dim alone"},
    MethodName{"sparsemap-drop-inadmissible-cells", MethodGroup::Variant,
               "sparsemap whose HSHI gives up a hypercube after one round of draws that never pass "
               "the fan-out pre-check"},
    MethodName{"sparsemap-move-memory", MethodGroup::Variant,
               "sparsemap whose polish does not try again, within one descent, a move that came out "
               "more than 5 % worse (the default: more than 50 % worse)"},
};

// Lists show the groups in order, each group's methods together.
constexpr bool groupedInOrder()
{
    for (std::size_t i = 1; i < kMethods.size(); ++i)
        if (kMethods[i].group < kMethods[i - 1].group)
            return false;
    return kMethods[0].group == MethodGroup::Default;
}
static_assert(groupedInOrder(),
              "kMethods: the default first, then each MethodGroup's methods together, in order");

// sparsemap-random-init (a random generation 0) is now sparsemap's own start.
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

std::string_view methodGroupTitle(MethodGroup group)
{
    switch (group) {
    case MethodGroup::Default:
        return "default";
    case MethodGroup::Baseline:
        return "baselines";
    case MethodGroup::Paper:
        return "published SparseMap ES and its ablations (paper Fig. 18)";
    case MethodGroup::Ablation:
        return "ablations of sparsemap (one component each)";
    case MethodGroup::Variant:
        return "variants measured, not adopted";
    }
    return "other";
}

std::string methodNamesByGroup()
{
    std::string text;
    for (std::size_t i = 0; i < kMethods.size(); ++i) {
        const bool first = i == 0 || kMethods[i - 1].group != kMethods[i].group;
        if (first)
            text += (i == 0 ? "" : "; ") + std::string(methodGroupTitle(kMethods[i].group)) + ": ";
        else
            text += ", ";
        text += kMethods[i].name;
    }
    return text;
}

} // namespace sparsemap::search
