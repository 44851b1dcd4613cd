#include "search/sparsemap/sparsemap_es.hpp"

#include "genome/genome_codec.hpp"
#include "model/evaluator.hpp"
#include "search/genome_checks.hpp"

#include "search/es/evolution_loop.hpp"
#include "search/sparsemap/design_moves.hpp"
#include "search/sparsemap/sparsemap_operators.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace sparsemap::search {

namespace {

// Mutations tried on an offspring that was already evaluated before it is evaluated anyway (a
// converged population may have no unseen neighbour left within reach).
constexpr int kDuplicateRetries = 10;

void require(bool ok, const std::string& message)
{
    if (!ok)
        throw std::invalid_argument("SparseMap ES: " + message);
}

bool inUnit(double x)
{
    return x >= 0 && x <= 1;
}

} // namespace

void validate(const SparseMapEsParameters& p)
{
    auto count = [](const char* name, int value) {
        require(value >= 1, std::string(name) + " must be at least 1 (got " + std::to_string(value) + ")");
    };
    auto share = [](const char* name, double value) {
        require(inUnit(value), std::string(name) + " must be in [0, 1] (got " + std::to_string(value) + ")");
    };
    count("calibrationTrials", p.calibrationTrials);
    count("samplesPerGene", p.samplesPerGene);
    count("maxBaseSamples", p.maxBaseSamples);
    share("maxCalibrationShare", p.maxCalibrationShare);
    require(p.thresholdFraction >= 0 && p.thresholdFraction < 1,
            "thresholdFraction must be in [0, 1) (got " + std::to_string(p.thresholdFraction) + ")");
    count("hypercubes", p.hypercubes);
    require(p.hypercubes <= 1000000, "hypercubes must be at most 1000000");
    count("samplesPerHypercube", p.samplesPerHypercube);
    share("calibratedLowGenesShare", p.calibratedLowGenesShare);
    count("populationSize", p.populationSize);
    count("offspringPerGeneration", p.offspringPerGeneration);
    count("parentCount", p.parentCount);
    share("crossoverProbability", p.crossoverProbability);
    share("mutationProbability", p.mutationProbability);
    share("initialHighMutation", p.initialHighMutation);
    share("neighbourStepShare", p.neighbourStepShare);
    require(p.extraStepShare >= 0 && p.extraStepShare < 1,
            "extraStepShare must be in [0, 1) (got " + std::to_string(p.extraStepShare) + ")");
    require(p.calibrate || (p.crossover == EsCrossover::Blocks && p.mutationGene == EsMutationGene::Uniform),
            "without calibration the crossover must be Blocks and the mutation gene Uniform (they need the "
            "sensitivity classes)");
    share("outerTilingShare", p.outerTilingShare);
    share("spatialDrawShare", p.spatialDrawShare);
    share("spatialOneDimShare", p.spatialOneDimShare);
    require(p.innerOneDimSegments >= 0, "innerOneDimSegments must be >= 0 (0 = no confined segments; got " +
                                            std::to_string(p.innerOneDimSegments) + ")");
    require(p.polishAfterStagnation >= 0, "polishAfterStagnation must be >= 0 (0 = never)");
    require(p.restartAfterStagnation >= 0, "restartAfterStagnation must be >= 0 (0 = never)");
    require(p.restartElite >= 0, "restartElite must be >= 0");
    require(p.restartMargin >= 0 && std::isfinite(p.restartMargin),
            "restartMargin must be a finite share >= 0 (0 = no early restarts; got " +
                std::to_string(p.restartMargin) + ")");
    require(p.endgameKickSteps == 0 || p.endgameKickSteps >= 2,
            "endgameKickSteps must be 0 (no end game) or >= 2 (got " + std::to_string(p.endgameKickSteps) +
                ")");
    share("endgameNeighbourKicks", p.endgameNeighbourKicks);
    require(p.endgameSegments > 0 && std::isfinite(p.endgameSegments),
            "endgameSegments must be a positive number (got " + std::to_string(p.endgameSegments) + ")");
    share("uniformCrossoverShare", p.uniformCrossoverShare);
    require(p.polishBatch >= 0, "polishBatch must be >= 0 (0 = the whole neighbourhood per step)");
    require(p.strategyCandidates >= 0, "strategyCandidates must be >= 0 (0 = no sub-search of the strategy)");
    count("strategySamples", p.strategySamples);
    require(p.nicheSize >= 0, "nicheSize must be >= 0 (0 = no niches)");
    require(p.followUpValidStarts >= 0 && p.followUpInvalidStarts >= 0,
            "followUpValidStarts and followUpInvalidStarts must be >= 0");
    count("followUpSteps", p.followUpSteps);
    require(p.followUpWithin >= 0 && std::isfinite(p.followUpWithin),
            "followUpWithin must be a finite share >= 0");
    share("followUpShare", p.followUpShare);
    require(p.unrollingNicheSize >= 0, "unrollingNicheSize must be >= 0 (0 = no unrolling niches)");
    require(std::isfinite(p.endgameRepolishWithin),
            "endgameRepolishWithin must be a finite share (negative = no re-polish; got " +
                std::to_string(p.endgameRepolishWithin) + ")");
    require(std::isfinite(p.polishMoveMemory),
            "polishMoveMemory must be a finite share (negative = no move memory; got " +
                std::to_string(p.polishMoveMemory) + ")");
}

CalibrationParameters calibrationPlan(const SparseMapEsParameters& p, int genes, std::int64_t budget)
{
    CalibrationParameters c{p.calibrationTrials, p.samplesPerGene, p.maxBaseSamples, p.thresholdFraction, {}};
    const double cap = p.maxCalibrationShare * static_cast<double>(budget);
    auto planned = [&] { return static_cast<double>(c.trials) * genes * c.samplesPerGene; };
    while (planned() > cap && c.samplesPerGene > 1)
        --c.samplesPerGene;
    while (planned() > cap && c.trials > 1)
        --c.trials;
    return c;
}

namespace {
// Whether the end game polishes the segments' local optima again (endgameRepolishWithin; only with
// the extra tiers).
bool endgameRepolishes(const SparseMapEsParameters& p)
{
    return p.endgameExtraTiers && p.endgameRepolishWithin >= 0;
}
} // namespace

SparseMapEsParameters sparseMapPaperParameters()
{
    SparseMapEsParameters p;
    p.populationSize = 100;
    p.offspringPerGeneration = 100;
    p.parentCount = 50;
    p.extraStepShare = 0;
    p.outerTilingShare = 0;
    p.spatialDrawShare = 0;
    p.innerOneDimSegments = 0;
    p.confinedPolish = false;
    p.capacityPrecheck = false;
    p.freeMalformed = false;
    p.freeOverflowing = false;
    p.calibrate = true;
    p.initialization = EsInitialization::Hypercube;
    p.crossover = EsCrossover::SensitivityAware;
    p.uniformCrossoverShare = 0;
    p.mutationGene = EsMutationGene::Annealing;
    p.mutationStep = EsMutationStep::Paper;
    p.canonicalize = false;
    p.prefilterOffspring = false;
    p.polishAfterStagnation = 0;
    p.restartAfterStagnation = 0;
    p.restartMargin = 0;
    p.endgameKickSteps = 0;
    p.mappingMoveFormats = DesignMoves::Formats::Positional;
    p.unrollingNicheSize = 0;
    p.followUpShare = 0;
    p.polishMoveMemory = -1;
    p.endgameOffsetFormats = false;
    p.endgameExtraTiers = false;
    p.endgameRepolishWithin = -1;
    p.endgameNeighbourKicks = 0;
    return p;
}

SparseMapEs::SparseMapEs(SparseMapEsParameters parameters, std::string name)
    : m_parameters(parameters), m_name(std::move(name))
{
    validate(m_parameters);
}

std::string SparseMapEs::name() const
{
    if (!m_name.empty())
        return m_name;
    return m_parameters.permutationEncoding == PermutationEncoding::Random ? "sparsemap-random-perm"
                                                                           : "sparsemap";
}

namespace {

// One run's state: the problem, the operators and what the run has evaluated.
class EsRun {
public:
    EsRun(const SparseMapEsParameters& p, SearchContext& context, SparseMapEsReport& report)
        : m_p(p), m_context(context), m_layout(context.layout()), m_rng(context.rng()),
          m_problem(m_layout, p.permutationEncoding, m_rng()), m_moves(m_layout, p.mappingMoveFormats),
          m_canonical(p.canonicalize && p.permutationEncoding == PermutationEncoding::Cantor),
          m_repair(p.repairFormats &&
                   context.modelOptions().formatSpace == model::FormatSpace::SparseloopDead),
          m_report(report), m_precheckOn(p.capacityPrecheckApplies())
    {
        m_objective = [this](std::span<const Genome> individuals, std::vector<double>& out) {
            const auto n = m_precheckOn ? evaluatePrechecked(individuals, out)
                                        : m_problem.evaluate(m_context, individuals, out);
            for (std::size_t i = 0; i < n; ++i)
                if (m_canonical && !m_normalized) // calibration probes and hypercube samples
                    m_seen.insert(canonicalGenome(m_layout, individuals[i]), out[i]);
                else
                    m_seen.insert(individuals[i], out[i]);
            return n;
        };
        if (p.prefilterFanout || m_repair)
            m_admissible = [this](Genome& g) {
                if (m_repair)
                    orderFormatGenesForSparseloop(m_layout, g);
                return !m_p.prefilterFanout || spatialFanoutFits(m_layout, g);
            };
        const auto perm = m_layout.segment(GeneSegment::Permutation);
        m_steps.assign(m_problem.ranges().size(), MutationStep::Reset);
        for (int i = perm.begin; i < perm.end; ++i)
            m_steps[i] = MutationStep::Neighbour;
    }

    void run();

private:
    // SearchContext::evaluateFitting: the genomes that fail the capacity pre-check, with freeMalformed
    // those whose design is malformed and with freeOverflowing those that overflow with their metadata, are
    // invalid (+inf) without an evaluation, up to the budget's worth of them over the run (then every
    // genome is evaluated and charged). Returns how many of `individuals` got an objective, in order, like
    // evaluate().
    std::size_t evaluatePrechecked(std::span<const Genome> individuals, std::vector<double>& out)
    {
        SearchContext::FreeCounts counts;
        const auto n = m_context.evaluateFitting(individuals, out,
                                                 {m_context.settings().budget - m_report.precheckRejections,
                                                  m_p.freeMalformed, m_p.freeOverflowing},
                                                 counts);
        m_report.precheckRejections += counts.rejected;
        m_report.malformedRejections += counts.malformed;
        m_report.overflowRejections += counts.overflowing;
        return n;
    }

    // Repair, then the canonical form: what every bred or drawn genome becomes before evaluation.
    void normalize(Genome& g) const
    {
        if (m_repair)
            orderFormatGenesForSparseloop(m_layout, g);
        if (m_canonical)
            canonicalizeGenome(m_layout, g);
    }
    Genome fresh()
    {
        Genome g = draw();
        for (int n = 1; m_admissible && n < kAdmissibleDraws && !m_admissible(g); ++n)
            g = draw();
        normalize(g);
        return g;
    }
    // A random genome; with outerTilingShare, half of the draws keep each prime factor at the
    // outermost mapping level with that probability (small inner tiles fit small buffers); with
    // spatialDrawShare, that share of the draws has its spatial unrolling drawn afresh.
    Genome draw()
    {
        Genome g = randomIndividual(m_problem.ranges(), m_rng);
        if (m_p.outerTilingShare > 0 && uniform01(m_rng) < 0.5) {
            const auto tiling = m_layout.segment(GeneSegment::Tiling);
            for (int i = tiling.begin; i < tiling.end; ++i)
                if (uniform01(m_rng) < m_p.outerTilingShare)
                    g[i] = 1;
        }
        if (m_p.spatialDrawShare > 0 && uniform01(m_rng) < m_p.spatialDrawShare)
            m_moves.drawSpatialUnrolling(g, m_rng, m_p.spatialOneDimShare, confined());
        return g;
    }
    // Whether the current segment is confined to one dim at the innermost spatial level
    // (innerOneDimSegments: with 2 the segments after restart 1, 3, 5, ...; with 1 every segment).
    bool confined() const
    {
        const int period = m_p.innerOneDimSegments;
        return period > 0 && m_report.restarts % period == period - 1;
    }
    void mutate(Genome& child)
    {
        int gene = -1;
        if (m_p.mutationGene == EsMutationGene::Annealing) {
            if (m_p.mutationStep == EsMutationStep::Paper) {
                annealingMutation(child, m_classes, m_problem.ranges(), m_steps, m_pHigh,
                                  m_p.neighbourStepShare, m_rng);
            } else if ((gene = annealingGene(m_classes, m_pHigh, m_rng)) < 0 ||
                       !m_moves.step(child, gene, m_rng)) {
                m_moves.stepAny(child, m_rng);
            }
        } else if (m_p.mutationStep == EsMutationStep::Design) {
            m_moves.stepAny(child, m_rng);
            while (m_p.extraStepShare > 0 && uniform01(m_rng) < m_p.extraStepShare &&
                   m_moves.stepAny(child, m_rng)) {
            }
        } else {
            gene = uniformInt(0, static_cast<int>(child.size()) - 1, m_rng);
            child[gene] = resetGene(child[gene], m_problem.ranges()[gene], m_rng);
        }
        normalize(child);
    }
    Genome breed(const Genome& a, const Genome& b)
    {
        Genome child = a;
        if (uniform01(m_rng) < m_p.crossoverProbability)
            child = m_p.crossover == EsCrossover::Blocks
                        ? (m_p.uniformCrossoverShare > 0 && uniform01(m_rng) < m_p.uniformCrossoverShare
                               ? uniformCrossover(a, b, m_rng)
                               : m_moves.blockCrossover(a, b, m_rng))
                        : sensitivityAwareCrossover(a, b, m_classes.cutPoints, m_rng);
        if (uniform01(m_rng) < m_p.mutationProbability)
            mutate(child);
        else // crossover alone can also put a compressed rank above an uncompressed one
            normalize(child);
        return child;
    }
    bool known(const Genome& g) const { return m_seen.contains(g); }
    // `count` fresh draws, those already evaluated or drawn twice left out.
    std::vector<Genome> freshBatch(int count)
    {
        std::vector<Genome> batch;
        GenomeSet drawn;
        for (int i = 0; i < count; ++i) {
            Genome g = fresh();
            if (known(g) || drawn.contains(g))
                continue;
            drawn.insert(g);
            batch.push_back(std::move(g));
        }
        return batch;
    }
    Population initialize();
    Population randomInitialization();
    void afterSurvival(Population& population);
    bool polish(Population& population);
    // The first-tier mapping moves of a local optimum the follow-ups start from: the valid ones within
    // followUpWithin of it (with their objectives) and the invalid ones.
    struct FollowUpStarts {
        std::vector<std::pair<double, Genome>> valid;
        std::vector<Genome> invalid;
    };
    // Descends from `current` (valued `value`) to a local optimum; improvements join `population`.
    // With `followUps`, `current` is a local optimum whose follow-ups start from them: the descent
    // begins with the follow-ups instead of the tiers.
    void descendFrom(Genome& current, double& value, Population& population,
                     const FollowUpStarts* followUps = nullptr);
    // The follow-ups of the best local optimum the polish has ended on (if it has not had them), then a
    // descent from what they find. True when that beats the run's best.
    bool runFollowUps(Population& population);
    // runFollowUps, once, as soon as the budget left is at most followUpShare of the budget; then
    // repolishOptima with the run's best.
    void finalFollowUps(Population& population);
    // Whether the end game polishes the segments' local optima again (endgameRepolishWithin).
    bool repolishesOptima() const { return endgameRepolishes(m_p); }
    // A descent from the run's best (from the end game on, with the extra tiers), taken if better.
    void repolishRunBest(Population& population)
    {
        Genome g = m_runBest;
        double value = m_runBestValue;
        descendFrom(g, value, population);
        offerRunBest(g, value);
    }
    // endgameRepolishWithin: the run's best (withRunBest) and the segments' local optima within the
    // share above it, best first, each polished again with the extra tiers unless it was already.
    void repolishOptima(Population& population, bool withRunBest);
    bool strategySearch(Population& population);
    void restart(Population& population);
    // Whether the restart due now would get less budget than the end game's rule allows.
    bool endgameDue() const;
    // The end game: kicks of the run's best, each polished, until the budget ends (or no kick is new).
    void iteratedLocalSearch(Population& population);
    // A neighbour of the run's best from endgameKickPool not in `kicked`, drawn uniformly; empty when
    // none is left.
    Genome neighbourKick(const GenomeSet& kicked);
    // What changes from the end game (or the final follow-ups) on: endgameOffsetFormats, where the
    // format repair runs (in a format space that keeps unrepresentable formats, carried ones stay).
    void enterEndgame()
    {
        m_endgame = true;
        if (m_p.endgameOffsetFormats && m_repair)
            m_moves.setCarriedFormatRepair(FormatRepair::Offsets);
    }
    void survive(Population& population) const;
    // Takes `g` as the run's best when `value` beats it; true when it does.
    bool offerRunBest(const Genome& g, double value)
    {
        if (!(value < m_runBestValue))
            return false;
        m_runBestValue = value;
        m_runBest = g;
        return true;
    }

    const SparseMapEsParameters& m_p;
    SearchContext& m_context;
    const GenomeLayout& m_layout;
    std::mt19937_64& m_rng;
    const GenomeProblem m_problem;
    DesignMoves m_moves;    // its carried repair changes once, in the end game (enterEndgame)
    bool m_endgame = false; // the end game (or the final follow-ups) has begun
    const bool m_canonical;
    const bool m_repair;
    SparseMapEsReport& m_report;
    BatchObjective m_objective;
    // SparseMapEsParameters::capacityPrecheckApplies
    const bool m_precheckOn;
    Admissible m_admissible;
    std::vector<char> m_candidateFits; // the polish's candidates that pass the fan-out pre-filter
    GenomeSet m_seen;                  // every genome evaluated (its canonical genome when canonicalizing)
    bool m_normalized = false;    // from the first bred generation on, every genome evaluated is normalized
    GenomeSet m_polished;         // local optima already polished
    GenomeSet m_strategySearched; // bests whose sparse strategy was sub-searched
    std::vector<MutationStep> m_steps;
    SensitivityClasses m_classes;
    double m_pHigh = 0;
    double m_best = std::numeric_limits<double>::infinity();
    int m_stagnant = 0; // generations since the best improved
    Genome m_runBest;   // the best of the run, restarts included (the end game's centre)
    double m_runBestValue = std::numeric_limits<double>::infinity();
    std::int64_t m_evolutionStart = 0; // evaluations used when the first generation was bred
    bool m_confinedDescent = false;    // a confined polish's first descent (confinedPolish)
    bool m_endgameExhausted = false;   // the end game found no new kick: restarts again
    // The best local optimum the polish has ended on, with its follow-up starts (kept for
    // runFollowUps; m_followUpOrigin is empty once they ran, m_followUpValue stays).
    Genome m_followUpOrigin;
    double m_followUpValue = std::numeric_limits<double>::infinity();
    FollowUpStarts m_followUpStarts;
    bool m_followUpsDone = false;
    // The local optimum of every polish (endgameRepolishWithin), and those repolishOptima has polished.
    std::vector<std::pair<double, Genome>> m_segmentOptima;
    GenomeSet m_repolished;
    // neighbourKick's pool and the run's best it was built from.
    Genome m_kickPoolCentre;
    std::vector<Genome> m_kickPool;
};

Population EsRun::randomInitialization()
{
    // Feasibility first: admissible random draws, a population's worth at a time, until half a
    // population is valid or a tenth of the budget is spent.
    Population population;
    const auto cap =
        static_cast<std::int64_t>(m_p.maxCalibrationShare * static_cast<double>(m_context.settings().budget));
    std::vector<Genome> batch;
    std::vector<double> objectives;
    std::int64_t spent = 0;
    while (!m_context.done() &&
           (population.size() == 0 ||
            (population.validCount() * 2 < static_cast<std::size_t>(m_p.populationSize) && spent < cap))) {
        batch = freshBatch(m_p.populationSize);
        if (batch.empty())
            break;
        const auto n = m_objective(batch, objectives);
        spent += static_cast<std::int64_t>(n);
        for (std::size_t i = 0; i < n; ++i)
            population.add(std::move(batch[i]), objectives[i]);
        if (n < batch.size())
            break;
    }
    return population;
}

Population EsRun::initialize()
{
    auto& report = m_report;
    Population population;
    // The evaluations charged (the log's points): the genomes the pre-checks rule out cost none.
    const auto start = m_context.used();
    if (m_p.calibrate) {
        auto plan =
            calibrationPlan(m_p, static_cast<int>(m_problem.ranges().size()), m_context.settings().budget);
        plan.admissible = m_admissible;
        report.calibration = calibrateSensitivity(m_problem.ranges(), m_objective, plan, m_rng);
        report.calibration.evaluations = m_context.used() - start;
        m_classes = sensitivityClasses(report.calibration.high);
    } else {
        m_classes = sensitivityClasses(std::vector<bool>(m_problem.ranges().size(), false));
    }
    if (m_p.initialization == EsInitialization::Hypercube) {
        auto cubes =
            HypercubeParameters{m_p.hypercubes, m_p.samplesPerHypercube, m_p.calibratedLowGenesShare, {}};
        cubes.admissible = m_admissible;
        cubes.dropInadmissibleCells = m_p.dropInadmissibleCells;
        auto init = hypercubeInitialization(m_problem.ranges(),
                                            report.calibration.high.empty()
                                                ? std::vector<bool>(m_problem.ranges().size())
                                                : report.calibration.high,
                                            report.calibration.valid, m_objective, cubes, m_rng);
        population = std::move(init.population);
    } else {
        population = randomInitialization();
    }
    report.initializationEvaluations = m_context.used() - start;
    if (population.size() == 0) // the budget ended in the calibration: its valid points are the population
        population = report.calibration.valid;
    survive(population);
    return population;
}

bool EsRun::polish(Population& population)
{
    ++m_report.polishes;
    const auto spentBefore = m_context.used();
    Genome current = population.genomes.front();
    double value = population.objectives.front();
    const double start = value;
    if (m_p.confinedPolish && confined()) { // first among the designs of the segment's family
        if (m_report.firstConfinedPolish < 0)
            m_report.firstConfinedPolish = spentBefore;
        ++m_report.confinedPolishes;
        m_confinedDescent = true;
        descendFrom(current, value, population);
        m_confinedDescent = false;
        m_report.confinedEvaluations += m_context.used() - spentBefore;
    }
    if (!m_context.done())
        descendFrom(current, value, population);
    survive(population);
    m_report.polishEvaluations += m_context.used() - spentBefore;
    if (repolishesOptima())
        m_segmentOptima.emplace_back(value, current);
    return value < start;
}

void EsRun::descendFrom(Genome& current, double& value, Population& population,
                        const FollowUpStarts* followUps)
{
    std::vector<Genome> candidates, batch, invalidMappingMoves;
    std::vector<double> objectives;
    FollowUpStarts starts; // of the first tier's moves (with follow-ups on)
    const bool collect = m_p.followUpShare > 0;
    const auto mapping = m_layout.mappingGenes();
    auto movesMapping = [&](const Genome& g) {
        return !std::equal(g.begin() + mapping.begin, g.begin() + mapping.end,
                           current.begin() + mapping.begin);
    };
    // The best improving neighbour among `candidates` (first improvement by batches with polishBatch);
    // false when none improves. With `invalid`, the evaluated candidates that move the mapping and
    // came out invalid are appended to it. With `moves`, the candidates that move the mapping (and
    // those evaluated before, by their recorded objective) are appended to its starts.
    // The move memory (polishMoveMemory): the moves tried in this descent that came out more than that
    // share worse than the design they were tried on (`current` does not change while a batch is
    // evaluated). Only those: a move left out is never tried again, and one that was not is evaluated
    // again and recorded then if it has turned that bad.
    std::set<std::vector<int>> memory;
    auto descend = [&](std::vector<Genome>* invalid = nullptr, FollowUpStarts* moves = nullptr,
                       bool useMemory = false) {
        const bool remember = useMemory && m_p.polishMoveMemory >= 0;
        batch.clear();
        GenomeSet drawn;
        // A follow-up start: within followUpWithin above `value` (strictly above with followUpStrictStarts).
        const double within = value * (1 + m_p.followUpWithin);
        auto isStart = [&](double o) {
            return o <= within && (m_p.followUpStrictStarts ? o > value : o >= value);
        };
        // The candidates' canonical forms and fan-out checks on the search's threads (pure per
        // candidate), the bookkeeping below in order.
        m_candidateFits.resize(candidates.size());
        m_context.parallelFor(candidates.size(), [&](std::size_t i) {
            normalize(candidates[i]);
            m_candidateFits[i] = !m_p.prefilterFanout || spatialFanoutFits(m_layout, candidates[i]);
        });
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            auto& c = candidates[i];
            if (!m_candidateFits[i] || drawn.contains(c) ||
                (m_confinedDescent && !m_moves.innerSpatialOneDim(c)))
                continue;
            if (known(c)) {
                if (moves && movesMapping(c)) {
                    drawn.insert(c);
                    const double o = m_seen.objective(c);
                    if (std::isinf(o))
                        moves->invalid.push_back(c);
                    else if (isStart(o))
                        moves->valid.emplace_back(o, c);
                }
                continue;
            }
            if (remember && memory.contains(geneChanges(current, c))) {
                ++m_report.moveMemorySkips;
                continue;
            }
            drawn.insert(c);
            batch.push_back(std::move(c));
        }
        if (m_p.polishBatch > 0)
            std::shuffle(batch.begin(), batch.end(), m_rng);
        const std::size_t chunk = m_p.polishBatch > 0 ? static_cast<std::size_t>(m_p.polishBatch)
                                                      : std::max<std::size_t>(batch.size(), 1);
        for (std::size_t from = 0; from < batch.size() && !m_context.done(); from += chunk) {
            const auto count = std::min(chunk, batch.size() - from);
            const auto n = m_objective(std::span<const Genome>(batch.data() + from, count), objectives);
            std::size_t best = n;
            for (std::size_t i = 0; i < n; ++i) {
                if (objectives[i] < value && (best == n || objectives[i] < objectives[best]))
                    best = i;
                if (invalid && !std::isfinite(objectives[i]) && movesMapping(batch[from + i]))
                    invalid->push_back(batch[from + i]);
                if (moves && isStart(objectives[i]) && movesMapping(batch[from + i]))
                    moves->valid.emplace_back(objectives[i], batch[from + i]);
                if (remember && std::isfinite(objectives[i]) &&
                    objectives[i] / value > 1 + m_p.polishMoveMemory)
                    memory.insert(geneChanges(current, batch[from + i]));
            }
            if (best == n)
                continue;
            current = batch[from + best];
            value = objectives[best];
            population.add(current, value);
            ++m_report.polishImprovements;
            return true;
        }
        return false;
    };
    // The second tier: the changes of one S/G gene (with polishSkipGateLate; the first tier has them
    // otherwise), the orders of bound unit loops (a few candidates), then format pairs and factor
    // exchanges in the order of the parameters, the one-for-two exchanges right after the exchanges and
    // the re-splits of spatial unrollings right after them; the exchanges of blocks, then the moves that
    // place a new loop; from the end game on (endgameExtraTiers) loop relocations and one-for-two
    // exchanges between temporal levels, last.
    enum class Tier {
        BoundOrders,
        Pairs,
        Exchanges,
        Refills,
        BlockExchanges,
        Inserts,
        Relocations,
        TemporalRefills,
        Resplits,
        SkipGate
    };
    std::vector<Tier> second;
    if (m_p.polishFormatPairs)
        second.push_back(Tier::Pairs);
    if (m_p.polishFactorExchanges)
        second.insert(m_p.polishExchangesBeforePairs ? second.begin() : second.end(), Tier::Exchanges);
    if (m_p.polishBoundLoopOrders)
        second.insert(second.begin(), Tier::BoundOrders);
    if (m_p.polishRefills) {
        const auto exchanges = std::find(second.begin(), second.end(), Tier::Exchanges);
        second.insert(exchanges == second.end() ? second.end() : exchanges + 1, Tier::Refills);
    }
    if (m_p.polishResplits) {
        const auto after = std::find(second.begin(), second.end(), Tier::Refills);
        second.insert(after == second.end() ? second.end() : after + 1, Tier::Resplits);
    }
    if (m_p.polishBlockExchanges)
        second.push_back(Tier::BlockExchanges);
    if (m_p.polishSkipGateLate)
        second.insert(second.begin(), Tier::SkipGate);
    if (m_p.polishFactorInserts)
        second.push_back(Tier::Inserts);
    if (m_p.endgameExtraTiers && m_endgame) {
        second.push_back(Tier::Relocations);
        second.push_back(Tier::TemporalRefills);
    }
    // The follow-ups of `origin`: the best `followUpValidStarts` valid starts and `followUpInvalidStarts`
    // invalid ones drawn at random, each followed by a step of first improvement over the sparse
    // strategy it changed (DesignMoves::followUpNeighbours) and, once below `origin`, up to
    // followUpSteps - 1 more. `current` ends on the first that beats `origin`; true when one does.
    auto followUp = [&](FollowUpStarts from) {
        const auto spentBefore = m_context.used();
        std::sort(from.valid.begin(), from.valid.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        if (from.valid.size() > static_cast<std::size_t>(m_p.followUpValidStarts))
            from.valid.resize(static_cast<std::size_t>(m_p.followUpValidStarts));
        std::shuffle(from.invalid.begin(), from.invalid.end(), m_rng);
        for (std::size_t k = 0;
             k < from.invalid.size() && k < static_cast<std::size_t>(m_p.followUpInvalidStarts); ++k)
            from.valid.emplace_back(std::numeric_limits<double>::infinity(), from.invalid[k]);
        const Genome origin = current;
        const double originValue = value;
        bool improved = false;
        for (std::size_t k = 0; k < from.valid.size() && !improved && !m_context.done(); ++k) {
            current = from.valid[k].second;
            value = from.valid[k].first;
            for (int step = 0; step < m_p.followUpSteps; ++step) {
                candidates.clear();
                m_moves.followUpNeighbours(origin, current, candidates, m_p.followUpCompressionMoves);
                if (!descend() || value >= originValue)
                    break;
            }
            improved = value < originValue;
            if (!improved) {
                current = origin;
                value = originValue;
            }
        }
        m_report.followUpEvaluations += m_context.used() - spentBefore;
        m_report.followUpImprovements += improved ? 1 : 0;
        return improved;
    };
    if (followUps && !m_context.done() && followUp(*followUps)) // then the polish goes on from there
        followUps = nullptr;
    else if (followUps)
        return;
    while (!m_context.done()) {
        candidates.clear();
        if (m_p.polishSkipGateLate)
            m_moves.neighboursWithoutSkipGate(current, candidates);
        else
            m_moves.neighbours(current, candidates);
        if (m_p.polishBlockMoves)
            m_moves.factorBlockNeighbours(current, candidates);
        invalidMappingMoves.clear();
        starts = {};
        bool improved = descend(m_p.polishRepairs || collect ? &invalidMappingMoves : nullptr,
                                collect ? &starts : nullptr, true);
        for (std::size_t t = 0; t < second.size() && !improved; ++t) {
            candidates.clear();
            if (second[t] == Tier::SkipGate)
                m_moves.skipGateNeighbours(current, candidates);
            else if (second[t] == Tier::BoundOrders)
                m_moves.boundLoopOrderNeighbours(current, candidates);
            else if (second[t] == Tier::Pairs && m_p.polishCompressionMovesOnly)
                m_moves.compressionMoveNeighbours(current, candidates);
            else if (second[t] == Tier::Pairs)
                m_moves.formatPairNeighbours(current, candidates);
            else if (second[t] == Tier::Refills)
                m_moves.factorRefillNeighbours(current, candidates);
            else if (second[t] == Tier::Relocations)
                m_moves.loopRelocationNeighbours(current, candidates);
            else if (second[t] == Tier::TemporalRefills)
                m_moves.temporalRefillNeighbours(current, candidates);
            else if (second[t] == Tier::Resplits)
                m_moves.spatialResplitNeighbours(current, candidates);
            else if (second[t] == Tier::BlockExchanges)
                m_moves.factorBlockExchangeNeighbours(current, candidates);
            else if (second[t] == Tier::Inserts)
                m_moves.factorInsertNeighbours(current, candidates);
            else
                m_moves.factorExchangeNeighbours(current, candidates);
            improved = descend(nullptr, nullptr, true);
        }
        if (!improved && !invalidMappingMoves.empty() && m_p.polishRepairs) { // the repair tier
            candidates.clear();
            for (const auto& move : invalidMappingMoves)
                m_moves.uncompressedVariants(move, candidates);
            const auto spentBefore = m_context.used();
            improved = descend();
            m_report.repairEvaluations += m_context.used() - spentBefore;
            m_report.repairImprovements += improved ? 1 : 0;
        }
        if (!improved && collect && value < m_followUpValue &&
            (!starts.valid.empty() || !invalidMappingMoves.empty() || !starts.invalid.empty())) {
            // The best local optimum so far: its follow-ups wait for the end game (finalFollowUps).
            m_followUpOrigin = current;
            m_followUpValue = value;
            invalidMappingMoves.insert(invalidMappingMoves.end(), starts.invalid.begin(),
                                       starts.invalid.end());
            starts.invalid = std::move(invalidMappingMoves);
            m_followUpStarts = std::move(starts);
        }
        if (!improved)
            break;
    }
    m_polished.insert(current);
}

bool EsRun::runFollowUps(Population& population)
{
    if (m_followUpOrigin.empty())
        return false;
    Genome g = std::move(m_followUpOrigin);
    double value = m_followUpValue;
    m_followUpOrigin.clear();
    const FollowUpStarts starts = std::move(m_followUpStarts);
    m_followUpStarts = {};
    descendFrom(g, value, population, &starts);
    survive(population);
    return offerRunBest(g, value);
}

void EsRun::finalFollowUps(Population& population)
{
    if (m_p.followUpShare <= 0 || m_followUpsDone || m_followUpOrigin.empty() ||
        static_cast<double>(m_context.remaining()) >
            m_p.followUpShare * static_cast<double>(m_context.settings().budget))
        return;
    m_followUpsDone = true;
    enterEndgame();
    runFollowUps(population);
    if (repolishesOptima()) {
        repolishOptima(population, true);
        survive(population);
    }
}

void EsRun::repolishOptima(Population& population, bool withRunBest)
{
    if (!repolishesOptima())
        return;
    if (withRunBest && !m_runBest.empty() && !m_repolished.contains(m_runBest)) {
        m_repolished.insert(m_runBest);
        repolishRunBest(population);
    }
    auto optima = m_segmentOptima;
    std::stable_sort(optima.begin(), optima.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [start, optimum] : optima) {
        if (m_context.done() || !(start <= m_runBestValue * (1 + m_p.endgameRepolishWithin)))
            break;
        if (optimum == m_runBest || m_repolished.contains(optimum))
            continue;
        m_repolished.insert(optimum);
        ++m_report.repolishedOptima;
        const auto spentBefore = m_context.used();
        Genome g = optimum;
        double value = start;
        descendFrom(g, value, population);
        m_report.repolishImprovements += offerRunBest(g, value) ? 1 : 0;
        m_report.repolishEvaluations += m_context.used() - spentBefore;
    }
}

bool EsRun::strategySearch(Population& population)
{
    ++m_report.strategySearches;
    const auto spentBefore = m_context.used();
    const Genome best = population.genomes.front();
    const double bestValue = population.objectives.front();
    m_strategySearched.insert(best);
    std::vector<Genome> candidates, batch;
    m_moves.strategyNeighbours(best, candidates);
    GenomeSet drawn;
    for (auto& c : candidates) {
        normalize(c);
        if (known(c) || drawn.contains(c))
            continue;
        drawn.insert(c);
        batch.push_back(std::move(c));
    }
    std::shuffle(batch.begin(), batch.end(), m_rng);
    if (batch.size() > static_cast<std::size_t>(m_p.strategySamples))
        batch.resize(static_cast<std::size_t>(m_p.strategySamples));
    std::vector<double> objectives;
    const auto n = m_objective(batch, objectives);
    // The most promising strategies at this mapping, best first (ties: the earlier draw).
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < n; ++i)
        if (std::isfinite(objectives[i]))
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return objectives[a] < objectives[b]; });
    if (order.size() > static_cast<std::size_t>(m_p.strategyCandidates))
        order.resize(static_cast<std::size_t>(m_p.strategyCandidates));
    double found = bestValue;
    for (auto i : order) {
        if (m_context.done())
            break;
        Genome current = batch[i];
        double value = objectives[i];
        population.add(current, value);
        descendFrom(current, value, population);
        found = std::min(found, value);
    }
    survive(population);
    m_report.strategyEvaluations += m_context.used() - spentBefore;
    if (found < bestValue)
        ++m_report.strategyImprovements;
    return found < bestValue;
}

void EsRun::survive(Population& population) const
{
    const auto size = static_cast<std::size_t>(m_p.populationSize);
    if (m_p.nicheSize > 0)
        keepBestByNiche(population, size, m_p.nicheSize, m_layout.segment(GeneSegment::Tiling));
    else if (m_p.unrollingNicheSize > 0)
        keepBestByNiche(population, size, m_p.unrollingNicheSize,
                        [this](const Genome& g) { return m_moves.spatialUnrolling(g); });
    else
        keepBest(population, size);
}

void EsRun::restart(Population& population)
{
    ++m_report.restarts;
    keepBest(population, static_cast<std::size_t>(std::max(m_p.restartElite, 0)));
    std::vector<Genome> batch = freshBatch(m_p.populationSize - static_cast<int>(population.size()));
    std::vector<double> objectives;
    const auto n = m_objective(batch, objectives);
    for (std::size_t i = 0; i < n; ++i)
        population.add(std::move(batch[i]), objectives[i]);
    survive(population);
    if (!population.objectives.empty())
        m_best = population.objectives.front(); // stagnation counts from the restart's own best
}

void EsRun::afterSurvival(Population& population)
{
    finalFollowUps(population);
    const double best = population.objectives.empty() ? std::numeric_limits<double>::infinity()
                                                      : population.objectives.front();
    if (best < m_runBestValue) // (no front() of an empty population)
        offerRunBest(population.genomes.front(), best);
    if (best < m_best) {
        m_best = best;
        m_stagnant = 0;
        return;
    }
    ++m_stagnant;
    if (!std::isfinite(best))
        return;
    if (m_p.polishAfterStagnation > 0 && m_stagnant >= m_p.polishAfterStagnation &&
        !m_polished.contains(population.genomes.front())) {
        if (polish(population)) {
            m_best = population.objectives.front();
            m_stagnant = 0;
            return;
        }
    }
    if (m_p.strategyCandidates > 0 &&
        (m_p.strategyAfterPolish || m_p.restartAfterStagnation == 0 ||
         m_stagnant >= m_p.restartAfterStagnation) &&
        m_polished.contains(population.genomes.front()) &&
        !m_strategySearched.contains(population.genomes.front())) {
        if (strategySearch(population)) {
            m_best = population.objectives.front();
            m_stagnant = 0;
            return;
        }
    }
    // Early: a polished segment best far above the run's best, which the rest of the window would not
    // lift past it.
    const bool early = m_p.restartMargin > 0 && m_stagnant < m_p.restartAfterStagnation &&
                       m_stagnant >= m_p.polishAfterStagnation &&
                       m_polished.contains(population.genomes.front()) &&
                       best > m_runBestValue * (1 + m_p.restartMargin);
    if (m_p.restartAfterStagnation > 0 && (m_stagnant >= m_p.restartAfterStagnation || early)) {
        if (early && m_report.firstEarlyRestart < 0)
            m_report.firstEarlyRestart = m_context.used();
        m_report.earlyRestarts += early ? 1 : 0;
        if (endgameDue()) {
            iteratedLocalSearch(population);
            if (m_context.done())
                return;
            m_endgameExhausted = true;
        }
        restart(population);
        m_stagnant = 0;
    }
}

bool EsRun::endgameDue() const
{
    if (m_p.endgameKickSteps == 0 || m_endgameExhausted || m_runBest.empty())
        return false;
    const double segments = m_report.restarts + 1; // the one ending now included
    const double meanSegment = static_cast<double>(m_context.used() - m_evolutionStart) / segments;
    return static_cast<double>(m_context.remaining()) < m_p.endgameSegments * meanSegment;
}

void EsRun::iteratedLocalSearch(Population& population)
{
    m_report.endgameStart = m_context.used();
    enterEndgame();
    if (m_p.followUpShare > 0)
        runFollowUps(population);
    if (m_p.endgameExtraTiers && !m_runBest.empty()) // the run's best, polished with the extra tiers
        repolishRunBest(population);
    repolishOptima(population, false);
    std::vector<Genome> kick(1);
    std::vector<double> objectives;
    GenomeSet kicked; // the neighbours kicked from
    for (int misses = 0; !m_context.done() && misses < kAdmissibleDraws;) {
        finalFollowUps(population);
        if (m_context.done())
            break;
        // A neighbour of the run's best (endgameNeighbourKicks; the polish may have evaluated it), or
        // random steps away from it (new ones only).
        Genome g;
        if (m_p.endgameNeighbourKicks > 0 && uniform01(m_rng) < m_p.endgameNeighbourKicks)
            g = neighbourKick(kicked);
        const bool neighbour = !g.empty();
        if (neighbour) {
            kicked.insert(g);
        } else {
            g = m_runBest;
            const int steps = uniformInt(2, m_p.endgameKickSteps, m_rng);
            for (int s = 0; s < steps; ++s)
                m_moves.stepAny(g, m_rng);
            normalize(g);
            if ((m_p.prefilterFanout && !spatialFanoutFits(m_layout, g)) || known(g)) {
                ++misses;
                continue;
            }
        }
        double value;
        if (known(g)) {
            value = m_seen.objective(g);
        } else {
            kick[0] = g;
            if (m_objective(kick, objectives) == 0)
                break;
            value = objectives[0];
            population.add(g, value);
        }
        ++m_report.endgameKicks;
        m_report.endgameNeighbourKicks += neighbour ? 1 : 0;
        if (std::isfinite(value))
            descendFrom(g, value, population);
        offerRunBest(g, value);
    }
    survive(population);
    m_report.endgameEvaluations += m_context.used() - m_report.endgameStart;
}

Genome EsRun::neighbourKick(const GenomeSet& kicked)
{
    if (m_kickPoolCentre != m_runBest) {
        // The pool of this centre, built once: the moves of endgameKickPool that fit the fan-out and
        // change the spatial unrolling, each once, in the order the generators give them.
        m_kickPoolCentre = m_runBest;
        m_kickPool.clear();
        std::vector<Genome> all;
        if (m_p.endgameKickPool == EndgameKickPool::UnrollingMoves) {
            m_moves.factorExchangeNeighbours(m_runBest, all);
            m_moves.factorRefillNeighbours(m_runBest, all);
        }
        m_moves.spatialResplitNeighbours(m_runBest, all);
        if (m_p.endgameKickPool == EndgameKickPool::UnrollingMoves) {
            m_moves.factorBlockExchangeNeighbours(m_runBest, all);
            m_moves.factorInsertNeighbours(m_runBest, all);
        }
        const auto unrolling = m_moves.spatialUnrolling(m_runBest);
        GenomeSet pooled;
        for (auto& c : all) {
            normalize(c);
            if (!spatialFanoutFits(m_layout, c) || m_moves.spatialUnrolling(c) == unrolling ||
                pooled.contains(c))
                continue;
            pooled.insert(c);
            m_kickPool.push_back(std::move(c));
        }
    }
    std::vector<std::size_t> left;
    for (std::size_t i = 0; i < m_kickPool.size(); ++i)
        if (!kicked.contains(m_kickPool[i]))
            left.push_back(i);
    if (left.empty())
        return {};
    return m_kickPool[left[static_cast<std::size_t>(
        uniformInt(0, static_cast<int>(left.size()) - 1, m_rng))]];
}

void EsRun::run()
{
    // 0-1. Calibration and initialization: generation 0.
    Population population = initialize();
    m_report.initialPopulation = static_cast<int>(population.size());
    m_report.initialValid = static_cast<int>(population.validCount());
    if (m_report.initializationEvaluations > 0)
        m_context.endGeneration(population.objectives);
    if (!population.objectives.empty())
        m_best = population.objectives.front();

    // 2. Evolution.
    const int offspring = m_p.offspringPerGeneration;
    m_report.plannedGenerations = static_cast<int>((m_context.remaining() + offspring - 1) / offspring);
    m_normalized = true;
    m_evolutionStart = m_context.used();
    EvolutionOperators operators;
    operators.breed = [this](const Genome& a, const Genome& b, int generation) {
        m_pHigh = highMutationProbability(generation, m_report.plannedGenerations, m_p.initialHighMutation);
        return breed(a, b);
    };
    operators.remutate = [this](Genome& child) { mutate(child); };
    operators.fresh = [this] { return fresh(); };
    if (m_p.nicheSize > 0 || m_p.unrollingNicheSize > 0)
        operators.survive = [this](Population& p) { survive(p); };
    const bool prefilter = m_p.prefilterFanout && m_p.prefilterOffspring;
    if (prefilter || m_p.innerOneDimSegments > 0)
        operators.admissible = [this, prefilter](const Genome& g) {
            return (!prefilter || spatialFanoutFits(m_layout, g)) &&
                   (!confined() || m_moves.innerSpatialOneDim(g));
        };
    if (m_p.polishAfterStagnation > 0 || m_p.restartAfterStagnation > 0)
        operators.afterSurvival = [this](Population& p, int) { afterSurvival(p); };
    if (m_precheckOn) // each child's evaluation starts while the rest of the generation is bred
        operators.bred = [this](const Genome& child) { m_context.prefetchFitting(child); };
    EvolutionSettings settings;
    settings.populationSize = m_p.populationSize;
    settings.offspringPerGeneration = offspring;
    settings.parentCount = m_p.parentCount;
    settings.duplicateRetries = m_p.rejectDuplicates || m_canonical ? kDuplicateRetries : 0;
    settings.neverReevaluate = m_canonical;
    evolve(m_context, settings, population, m_seen, m_objective, operators);
}

} // namespace

std::vector<std::string> SparseMapEs::summary() const
{
    const auto& r = m_report;
    auto n = [](std::int64_t v) { return std::to_string(v); };
    auto percent = [](double share) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", share * 100);
        return std::string(text);
    };
    std::vector<std::string> lines;
    if (m_parameters.calibrate) {
        const auto high = std::count(r.calibration.high.begin(), r.calibration.high.end(), true);
        lines.push_back("calibration: " + n(r.calibration.evaluations) + " evaluations, " +
                        n(r.calibration.trials) + " trials, " + n(high) + " of " +
                        n(static_cast<std::int64_t>(r.calibration.high.size())) + " genes high-sensitivity");
    }
    lines.push_back("initialization: " + n(r.initializationEvaluations - r.calibration.evaluations) +
                    " evaluations, generation 0 of " + n(r.initialPopulation) + " (" + n(r.initialValid) +
                    " valid)");
    if (m_parameters.capacityPrecheckApplies())
        lines.push_back(
            "capacity pre-check: " + n(r.precheckRejections - r.malformedRejections - r.overflowRejections) +
            " genomes ruled out without an evaluation (their tiles' data overflow a buffer)" +
            (m_parameters.freeOverflowing
                 ? ", " + n(r.overflowRejections) + " overflowing with their metadata"
                 : std::string()) +
            (m_parameters.freeMalformed
                 ? ", " + n(r.malformedRejections) + " malformed (formats or S/G that cannot be built)"
                 : std::string()));
    if (m_parameters.polishAfterStagnation > 0)
        lines.push_back("polish: " + n(r.polishes) + " polishes, " + n(r.polishEvaluations) +
                        " evaluations, " + n(r.polishImprovements) + " improving steps");
    if (m_parameters.polishAfterStagnation > 0 && m_parameters.polishRepairs)
        lines.push_back("repairs: " + n(r.repairEvaluations) + " evaluations (polishes and end game), " +
                        n(r.repairImprovements) + " improving steps");
    if (m_parameters.polishAfterStagnation > 0 && m_parameters.polishMoveMemory >= 0)
        lines.push_back("move memory: " + n(r.moveMemorySkips) +
                        " polish candidates left out (moves more than " +
                        percent(m_parameters.polishMoveMemory) + " % worse earlier in their descent)");
    if (m_parameters.polishAfterStagnation > 0 && m_parameters.followUpShare > 0)
        lines.push_back("follow-ups: " + n(r.followUpEvaluations) + " evaluations, " +
                        n(r.followUpImprovements) + " beat their local optimum");
    if (m_parameters.strategyCandidates > 0)
        lines.push_back("strategy sub-search: " + n(r.strategySearches) + " searches, " +
                        n(r.strategyEvaluations) + " evaluations, " + n(r.strategyImprovements) +
                        " found a better design");
    if (m_parameters.polishAfterStagnation > 0 && m_parameters.innerOneDimSegments > 0 &&
        m_parameters.confinedPolish)
        lines.push_back("confined polishes: " + n(r.confinedPolishes) + ", " + n(r.confinedEvaluations) +
                        " evaluations before they went on unconfined");
    if (m_parameters.restartAfterStagnation > 0)
        lines.push_back("restarts: " + n(r.restarts) +
                        (m_parameters.restartMargin > 0
                             ? " (" + n(r.earlyRestarts) + " early: the segment's polished best more than " +
                                   percent(m_parameters.restartMargin) + " % above the run's best)"
                             : std::string()));
    if (m_parameters.polishAfterStagnation > 0 && endgameRepolishes(m_parameters))
        lines.push_back("re-polished optima: " + n(r.repolishedOptima) +
                        " segments' local optima besides the run's best, " + n(r.repolishEvaluations) +
                        " evaluations, " + n(r.repolishImprovements) + " beat the run's best");
    if (m_parameters.endgameKickSteps > 0)
        lines.push_back(r.endgameStart < 0
                            ? std::string("end game: not reached")
                            : "end game: from evaluation " + n(r.endgameStart) + ", " + n(r.endgameKicks) +
                                  " kicks (" + n(r.endgameNeighbourKicks) +
                                  (m_parameters.endgameKickPool == EndgameKickPool::Resplits
                                       ? " re-splits), "
                                       : " moves that change the spatial unrolling), ") +
                                  n(r.endgameEvaluations) + " evaluations (their polishes included)");
    return lines;
}

void SparseMapEs::run(SearchContext& context)
{
    m_report = {};
    if (context.done())
        return;
    EsRun(m_parameters, context, m_report).run();
}

} // namespace sparsemap::search
