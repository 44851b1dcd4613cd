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
#include "search/method_names.hpp"
#include "util/error.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace sparsemap::search {

namespace {

// A method whose optimizer names itself (the registry's name is passed to every factory).
template <typename T> std::function<std::unique_ptr<Optimizer>(std::string)> plain()
{
    return [](std::string) -> std::unique_ptr<Optimizer> { return std::make_unique<T>(); };
}

// The product's SparseMap ES with one issue-13 component switched back (the ablations of
// docs/results/search-quality.md).
// Named after the registry entry, so that a run's method (SearchResult::method, the session's runs,
// the Compare view) says which variant ran.
template <void (*Change)(SparseMapEsParameters&)>
std::unique_ptr<Optimizer> sparseMapWithout(std::string name)
{
    SparseMapEsParameters p;
    Change(p);
    return std::make_unique<SparseMapEs>(p, std::move(name));
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
// The paper's crossover and mutation need the calibration's sensitivity classes.
void paperCrossover(SparseMapEsParameters& p)
{
    p.calibrate = true;
    p.crossover = EsCrossover::SensitivityAware;
}
void paperMutation(SparseMapEsParameters& p)
{
    p.calibrate = true;
    p.mutationGene = EsMutationGene::Annealing;
    p.mutationStep = EsMutationStep::Paper;
}
void paperInitialization(SparseMapEsParameters& p)
{
    p.calibrate = true;
    p.initialization = EsInitialization::Hypercube;
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
void noRefills(SparseMapEsParameters& p)
{
    p.polishRefills = false;
}
void noResplits(SparseMapEsParameters& p)
{
    p.polishResplits = false;
}
void noRepairs(SparseMapEsParameters& p)
{
    p.polishRepairs = false;
}
void noBlockMoves(SparseMapEsParameters& p)
{
    p.polishBlockMoves = false;
}
void noBlockExchanges(SparseMapEsParameters& p)
{
    p.polishBlockExchanges = false;
}
void noEarlyRestarts(SparseMapEsParameters& p)
{
    p.restartMargin = 0;
}
void noConfinedSegments(SparseMapEsParameters& p)
{
    p.innerOneDimSegments = 0;
}
void unconfinedPolish(SparseMapEsParameters& p)
{
    p.confinedPolish = false;
}
void noCapacityPrecheck(SparseMapEsParameters& p)
{
    p.capacityPrecheck = false;
}
void chargeMalformed(SparseMapEsParameters& p)
{
    p.freeMalformed = false;
}
void chargeOverflow(SparseMapEsParameters& p)
{
    p.freeOverflowing = false;
}
void noFactorInserts(SparseMapEsParameters& p)
{
    p.polishFactorInserts = false;
}
void noBoundLoopOrders(SparseMapEsParameters& p)
{
    p.polishBoundLoopOrders = false;
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
void uniformCrossoverToo(SparseMapEsParameters& p)
{
    p.uniformCrossoverShare = 0.3;
}
void pairsFirst(SparseMapEsParameters& p)
{
    p.polishExchangesBeforePairs = false;
}
void noEndgame(SparseMapEsParameters& p)
{
    p.endgameKickSteps = 0;
}
void uniformDraws(SparseMapEsParameters& p)
{
    p.spatialDrawShare = 0;
}
void noUnrollingNiches(SparseMapEsParameters& p)
{
    p.unrollingNicheSize = 0;
}
void oneDimDraws(SparseMapEsParameters& p)
{
    p.spatialOneDimShare = 1;
}
void noFollowUps(SparseMapEsParameters& p)
{
    p.followUpShare = 0;
}
void noEndgameOffsets(SparseMapEsParameters& p)
{
    p.endgameOffsetFormats = false;
}
void noEndgameTiers(SparseMapEsParameters& p)
{
    p.endgameExtraTiers = false;
}
void noEndgameRepolish(SparseMapEsParameters& p)
{
    p.endgameRepolishWithin = -1;
}
void noResplitKicks(SparseMapEsParameters& p)
{
    p.endgameNeighbourKicks = 0;
}
void resplitKicks(SparseMapEsParameters& p) // session 46's end game
{
    p.endgameSegments = 1;
    p.endgameNeighbourKicks = 0.5;
    p.endgameKickPool = EndgameKickPool::Resplits;
}
void allFormatPairs(SparseMapEsParameters& p)
{
    p.polishCompressionMovesOnly = false;
}
void narrowFollowUps(SparseMapEsParameters& p)
{
    p.followUpCompressionMoves = false;
    p.followUpStrictStarts = false;
}
void skipGateFirstTier(SparseMapEsParameters& p)
{
    p.polishSkipGateLate = false;
}
void moveMemory(SparseMapEsParameters& p)
{
    p.polishMoveMemory = 0.05;
}
void moveMemoryTwiceAsBad(SparseMapEsParameters& p) // session 47's default
{
    p.polishMoveMemory = 1;
}
void noMoveMemory(SparseMapEsParameters& p)
{
    p.polishMoveMemory = -1;
}
void restartKeepsBest(SparseMapEsParameters& p)
{
    p.restartElite = 1;
}
void unfilteredOffspring(SparseMapEsParameters& p)
{
    p.prefilterOffspring = false;
}
void dropInadmissibleCells(SparseMapEsParameters& p)
{
    p.dropInadmissibleCells = true;
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

std::unique_ptr<Optimizer> sparseMapPaper(std::string name)
{
    return std::make_unique<SparseMapEs>(sparseMapPaperParameters(), std::move(name));
}

std::unique_ptr<Optimizer> sparseMapRandomPerm(std::string name)
{
    SparseMapEsParameters p = sparseMapPaperParameters();
    p.permutationEncoding = PermutationEncoding::Random;
    return std::make_unique<SparseMapEs>(p, std::move(name));
}

std::unique_ptr<Optimizer> pfceRandomPerm(std::string)
{
    StandardEsParameters p;
    p.permutationEncoding = PermutationEncoding::Random;
    return std::make_unique<EsPfce>(p);
}

} // namespace

const std::vector<MethodInfo>& searchMethods()
{
    // One factory per name of method_names.cpp; a name without one (or a factory without a name) is a
    // programming error, caught the first time the registry is built (every optimizer test builds it).
    using Factory = std::function<std::unique_ptr<Optimizer>(std::string name)>;
    static const std::vector<MethodInfo> kMethods = [] {
        const std::vector<std::pair<std::string_view, Factory>> factories{
            {"sparsemap", plain<SparseMapEs>()},
            {"sparsemap-paper", sparseMapPaper},
            {"es-pfce", plain<EsPfce>()},
            {"es-direct", plain<EsDirect>()},
            {"sparsemap-no-canonical", sparseMapWithout<noCanonical>},
            {"sparsemap-no-polish", sparseMapWithout<noPolish>},
            {"sparsemap-no-restart", sparseMapWithout<noRestart>},
            {"sparsemap-sac", sparseMapWithout<paperCrossover>},
            {"sparsemap-annealing", sparseMapWithout<paperMutation>},
            {"sparsemap-hshi", sparseMapWithout<paperInitialization>},
            {"sparsemap-100", sparseMapWithout<paperPopulation>},
            {"sparsemap-steepest", sparseMapWithout<steepestPolish>},
            {"sparsemap-no-pairs", sparseMapWithout<noFormatPairs>},
            {"sparsemap-no-exchanges", sparseMapWithout<noFactorExchanges>},
            {"sparsemap-no-refills", sparseMapWithout<noRefills>},
            {"sparsemap-no-resplits", sparseMapWithout<noResplits>},
            {"sparsemap-no-block-moves", sparseMapWithout<noBlockMoves>},
            {"sparsemap-no-block-exchanges", sparseMapWithout<noBlockExchanges>},
            {"sparsemap-no-inserts", sparseMapWithout<noFactorInserts>},
            {"sparsemap-no-early-restarts", sparseMapWithout<noEarlyRestarts>},
            {"sparsemap-no-confined-segments", sparseMapWithout<noConfinedSegments>},
            {"sparsemap-unconfined-polish", sparseMapWithout<unconfinedPolish>},
            {"sparsemap-no-capacity-precheck", sparseMapWithout<noCapacityPrecheck>},
            {"sparsemap-charge-malformed", sparseMapWithout<chargeMalformed>},
            {"sparsemap-charge-overflow", sparseMapWithout<chargeOverflow>},
            {"sparsemap-no-repairs", sparseMapWithout<noRepairs>},
            {"sparsemap-no-bound-orders", sparseMapWithout<noBoundLoopOrders>},
            {"sparsemap-no-follow-ups", sparseMapWithout<noFollowUps>},
            {"sparsemap-no-endgame-offsets", sparseMapWithout<noEndgameOffsets>},
            {"sparsemap-no-endgame-tiers", sparseMapWithout<noEndgameTiers>},
            {"sparsemap-no-endgame-repolish", sparseMapWithout<noEndgameRepolish>},
            {"sparsemap-no-resplit-kicks", sparseMapWithout<noResplitKicks>},
            {"sparsemap-resplit-kicks", sparseMapWithout<resplitKicks>},
            {"sparsemap-all-format-pairs", sparseMapWithout<allFormatPairs>},
            {"sparsemap-skip-gate-first-tier", sparseMapWithout<skipGateFirstTier>},
            {"sparsemap-narrow-follow-ups", sparseMapWithout<narrowFollowUps>},
            {"sparsemap-no-move-memory", sparseMapWithout<noMoveMemory>},
            {"sparsemap-move-memory-100", sparseMapWithout<moveMemoryTwiceAsBad>},
            {"sparsemap-positional", sparseMapWithout<positionalFormats>},
            {"sparsemap-strategy", sparseMapWithout<strategySearch>},
            {"sparsemap-strategy-polish", sparseMapWithout<strategyAfterPolish>},
            {"sparsemap-niches", sparseMapWithout<niches>},
            {"sparsemap-unfiltered-offspring", sparseMapWithout<unfilteredOffspring>},
            {"sparsemap-restart-keep-best", sparseMapWithout<restartKeepsBest>},
            {"sparsemap-uniform-crossover", sparseMapWithout<uniformCrossoverToo>},
            {"sparsemap-pairs-first", sparseMapWithout<pairsFirst>},
            {"sparsemap-no-endgame", sparseMapWithout<noEndgame>},
            {"sparsemap-uniform-draws", sparseMapWithout<uniformDraws>},
            {"sparsemap-no-unrolling-niches", sparseMapWithout<noUnrollingNiches>},
            {"sparsemap-one-dim-draws", sparseMapWithout<oneDimDraws>},
            {"sparsemap-drop-inadmissible-cells", sparseMapWithout<dropInadmissibleCells>},
            {"sparsemap-move-memory", sparseMapWithout<moveMemory>},
            {"sparsemap-random-perm", sparseMapRandomPerm},
            {"es-pfce-random-perm", pfceRandomPerm},
            {"mapper", plain<MapperSearch>()},
            {"sage", plain<SageSearch>()},
            {"pso", plain<PsoSearch>()},
            {"sa", plain<AnnealingSearch>()},
            {"ga", plain<GaSearch>()},
            {"cmaes", plain<CmaesSearch>()},
            {"de", plain<DeSearch>()},
            {"mcts", plain<MctsSearch>()},
            {"random", plain<RandomSearch>()},
            {"mindmappings", plain<MindMappingsSearch>()},
        };
        // Built in methodList()'s order (grouped for users), each name's factory found by name.
        const auto names = methodList();
        if (names.size() != factories.size())
            throw std::logic_error("method_registry: " + std::to_string(factories.size()) +
                                   " factories for " + std::to_string(names.size()) + " method names");
        std::vector<MethodInfo> methods;
        for (const auto& method : names) {
            const auto factory = std::find_if(factories.begin(), factories.end(),
                                              [&](const auto& f) { return f.first == method.name; });
            if (factory == factories.end())
                throw std::logic_error("method_registry: no factory for method '" + std::string(method.name) +
                                       "'");
            std::string name(method.name);
            methods.push_back({name, std::string(method.summary), method.group,
                               [make = factory->second, name] { return make(name); }});
        }
        return methods;
    }();
    return kMethods;
}

std::unique_ptr<Optimizer> makeOptimizer(const std::string& name)
{
    for (const auto& m : searchMethods())
        if (m.name == name)
            return m.make();
    throw InputError("unknown search method '" + name + "'; known methods: " + methodNames());
}

} // namespace sparsemap::search
