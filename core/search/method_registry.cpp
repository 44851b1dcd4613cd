#include "search/method_registry.hpp"

#include "search/baselines/annealing_search.hpp"
#include "search/baselines/cmaes_search.hpp"
#include "search/baselines/de_search.hpp"
#include "search/baselines/ga_search.hpp"
#include "search/baselines/mapper_search.hpp"
#include "search/baselines/mcts_search.hpp"
#include "search/baselines/pso_search.hpp"
#include "search/baselines/random_search.hpp"
#include "search/baselines/sage_search.hpp"
#include "search/es/standard_es.hpp"
#include "search/mindmappings/mindmappings_search.hpp"
#include "search/sparsemap/sparsemap_es.hpp"
#include "util/error.hpp"

namespace sparsemap::search {

namespace {

template <typename T> std::function<std::unique_ptr<Optimizer>()> plain()
{
    return []() -> std::unique_ptr<Optimizer> { return std::make_unique<T>(); };
}

// The product's SparseMap ES with one issue-13 component switched back (the ablations of
// docs/results/search-quality.md).
template <void (*Change)(SparseMapEsParameters&)> std::unique_ptr<Optimizer> sparseMapWithout()
{
    SparseMapEsParameters p;
    Change(p);
    return std::make_unique<SparseMapEs>(p);
}

void noCanonical(SparseMapEsParameters& p)
{
    p.canonicalize = false;
}
void noPolish(SparseMapEsParameters& p)
{
    p.polishAfterStagnation = 0;
}
void noRestart(SparseMapEsParameters& p)
{
    p.restartAfterStagnation = 0;
}
void paperCrossover(SparseMapEsParameters& p)
{
    p.crossover = EsCrossover::SensitivityAware;
}
void paperMutation(SparseMapEsParameters& p)
{
    p.mutationGene = EsMutationGene::Annealing;
    p.mutationStep = EsMutationStep::Paper;
}
void randomInitialization(SparseMapEsParameters& p)
{
    p.calibrate = false;
    p.initialization = EsInitialization::Random;
}
void steepestPolish(SparseMapEsParameters& p)
{
    p.polishBatch = 0;
}
void noFormatPairs(SparseMapEsParameters& p)
{
    p.polishFormatPairs = false;
}
void noFactorExchanges(SparseMapEsParameters& p)
{
    p.polishFactorExchanges = false;
}
void positionalFormats(SparseMapEsParameters& p)
{
    p.mappingMoveFormats = DesignMoves::Formats::Positional;
}
void strategySearch(SparseMapEsParameters& p)
{
    p.strategyCandidates = 3;
}
void strategyAfterPolish(SparseMapEsParameters& p)
{
    p.strategyCandidates = 3;
    p.strategyAfterPolish = true;
}
void niches(SparseMapEsParameters& p)
{
    p.nicheSize = 5;
}
void paperPopulation(SparseMapEsParameters& p)
{
    p.populationSize = 100;
    p.offspringPerGeneration = 100;
    p.parentCount = 50;
}

std::unique_ptr<Optimizer> sparseMapPaper()
{
    return std::make_unique<SparseMapEs>(sparseMapPaperParameters(), "sparsemap-paper");
}

std::unique_ptr<Optimizer> sparseMapRandomPerm()
{
    SparseMapEsParameters p = sparseMapPaperParameters();
    p.permutationEncoding = PermutationEncoding::Random;
    return std::make_unique<SparseMapEs>(p);
}

std::unique_ptr<Optimizer> pfceRandomPerm()
{
    StandardEsParameters p;
    p.permutationEncoding = PermutationEncoding::Random;
    return std::make_unique<EsPfce>(p);
}

} // namespace

const std::vector<MethodInfo>& searchMethods()
{
    static const std::vector<MethodInfo> kMethods{
        {"sparsemap",
         "SparseMap ES: calibration, hypercube initialization, design-aware crossover and mutation on "
         "canonical genomes, local polish of the elite",
         plain<SparseMapEs>()},
        {"sparsemap-paper",
         "the published SparseMap ES: calibration, hypercube initialization, annealing mutation, SAC",
         sparseMapPaper},
        {"es-pfce", "ablation: standard ES on the prime-factor + Cantor genome, LHS initialization",
         plain<EsPfce>()},
        {"es-direct",
         "ablation: standard ES on a direct encoding (tiling values as genes), LHS initialization",
         plain<EsDirect>()},
        {"sparsemap-no-canonical", "ablation: sparsemap evaluating genomes as bred (no canonical form)",
         sparseMapWithout<noCanonical>},
        {"sparsemap-no-polish", "ablation: sparsemap without the local polish of the elite",
         sparseMapWithout<noPolish>},
        {"sparsemap-no-restart", "ablation: sparsemap without restarts on stagnation",
         sparseMapWithout<noRestart>},
        {"sparsemap-sac", "ablation: sparsemap with the paper's sensitivity-aware crossover",
         sparseMapWithout<paperCrossover>},
        {"sparsemap-annealing", "ablation: sparsemap with the paper's annealing mutation",
         sparseMapWithout<paperMutation>},
        {"sparsemap-random-init",
         "ablation: sparsemap with a random feasible start (no calibration, no hypercube initialization)",
         sparseMapWithout<randomInitialization>},
        {"sparsemap-100", "ablation: sparsemap with the paper's (100 + 100) population",
         sparseMapWithout<paperPopulation>},
        {"sparsemap-steepest",
         "ablation: sparsemap polishing by steepest descent (the whole neighbourhood per step)",
         sparseMapWithout<steepestPolish>},
        {"sparsemap-no-pairs", "ablation: sparsemap polishing with single moves only (no format-gene pairs)",
         sparseMapWithout<noFormatPairs>},
        {"sparsemap-no-exchanges",
         "ablation: sparsemap polishing without exchanges of two prime factors' levels",
         sparseMapWithout<noFactorExchanges>},
        {"sparsemap-positional",
         "ablation: sparsemap whose mapping moves leave the format genes in place (formats not carried)",
         sparseMapWithout<positionalFormats>},
        {"sparsemap-strategy",
         "variant: sparsemap with a sub-search of the sparse strategy at the best before a restart (S/G "
         "combinations x tensors uncompressed, 300 evaluated, the best 3 polished)",
         sparseMapWithout<strategySearch>},
        {"sparsemap-strategy-polish",
         "variant: sparsemap-strategy right after the best's polish instead of before a restart",
         sparseMapWithout<strategyAfterPolish>},
        {"sparsemap-niches", "variant: sparsemap keeping at most 5 members per tiling in survival",
         sparseMapWithout<niches>},
        {"sparsemap-random-perm",
         "ablation: the published SparseMap ES with random instead of Cantor permutation codes",
         sparseMapRandomPerm},
        {"es-pfce-random-perm", "ablation: es-pfce with random permutation codes", pfceRandomPerm},
        {"mapper", "Sparseloop-Mapper-like: random valid mappings under a fixed sparse strategy",
         plain<MapperSearch>()},
        {"sage", "SAGE-like: a fixed output-stationary mapping, searching formats and S/G",
         plain<SageSearch>()},
        {"pso", "particle swarm (pagmo2)", plain<PsoSearch>()},
        {"sa", "simulated annealing (pagmo2)", plain<AnnealingSearch>()},
        {"ga", "genetic algorithm (pagmo2 sga)", plain<GaSearch>()},
        {"cmaes", "CMA-ES (pagmo2)", plain<CmaesSearch>()},
        {"de", "differential evolution (pagmo2)", plain<DeSearch>()},
        {"mcts", "Monte Carlo tree search (UCT) over genes in genome order", plain<MctsSearch>()},
        {"random", "uniform random genomes", plain<RandomSearch>()},
        {"mindmappings",
         "Mind Mappings: an MLP surrogate trained on sampled designs (30% of the budget), then projected "
         "gradient search with annealed random injections",
         plain<MindMappingsSearch>()},
    };
    return kMethods;
}

std::string methodNames()
{
    std::string names;
    for (const auto& m : searchMethods())
        names += (names.empty() ? "" : ", ") + m.name;
    return names;
}

std::unique_ptr<Optimizer> makeOptimizer(const std::string& name)
{
    for (const auto& m : searchMethods())
        if (m.name == name)
            return m.make();
    throw InputError("unknown search method '" + name + "'; known methods: " + methodNames());
}

} // namespace sparsemap::search
