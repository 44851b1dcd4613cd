#include "search/sparsemap/sparsemap_es.hpp"

#include "genome/genome_codec.hpp"
#include "model/evaluator.hpp"
#include "search/genome_checks.hpp"

#include "search/sparsemap/sparsemap_operators.hpp"

#include <cmath>
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

HypercubeParameters hypercubeParameters(const SparseMapEsParameters& p)
{
    return {p.hypercubes, p.samplesPerHypercube, p.calibratedLowGenesShare, {}};
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

SparseMapEs::SparseMapEs(SparseMapEsParameters parameters) : m_parameters(parameters)
{
    validate(m_parameters);
}

std::string SparseMapEs::name() const
{
    return m_parameters.permutationEncoding == PermutationEncoding::Random ? "sparsemap-random-perm"
                                                                           : "sparsemap";
}

void SparseMapEs::run(SearchContext& context)
{
    m_report = {};
    if (context.done())
        return;
    const auto& p = m_parameters;
    auto& rng = context.rng();
    const GenomeProblem problem(context.layout(), p.permutationEncoding, rng());
    const auto& ranges = problem.ranges();
    GenomeSet seen; // every individual evaluated so far
    const BatchObjective objective = [&](std::span<const Genome> individuals, std::vector<double>& out) {
        const auto n = problem.evaluate(context, individuals, out);
        for (std::size_t i = 0; i < n; ++i)
            seen.insert(individuals[i]);
        return n;
    };

    // 0-1. Calibration and HSHI: generation 0.
    auto& report = m_report;
    const bool repair =
        p.repairFormats && context.modelOptions().formatSpace == model::FormatSpace::SparseloopDead;
    Admissible admissible;
    if (p.prefilterFanout || repair)
        admissible = [&layout = context.layout(), repair, fanout = p.prefilterFanout](Genome& g) {
            if (repair)
                orderFormatGenesForSparseloop(layout, g);
            return !fanout || spatialFanoutFits(layout, g);
        };
    auto plan = calibrationPlan(p, static_cast<int>(ranges.size()), context.settings().budget);
    plan.admissible = admissible;
    report.calibration = calibrateSensitivity(ranges, objective, plan, rng);
    const auto classes = sensitivityClasses(report.calibration.high);
    auto cubes = hypercubeParameters(p);
    cubes.admissible = admissible;
    auto init = hypercubeInitialization(ranges, report.calibration.high, report.calibration.valid, objective,
                                        cubes, rng);
    report.initializationEvaluations = report.calibration.evaluations + init.evaluations;
    Population population = std::move(init.population);
    if (population.size() == 0) // the budget ended in the calibration: its valid points are the population
        population = report.calibration.valid;
    keepBest(population, static_cast<std::size_t>(p.populationSize));
    report.initialPopulation = static_cast<int>(population.size());
    report.initialValid = static_cast<int>(population.validCount());
    if (report.initializationEvaluations > 0)
        context.endGeneration(population.objectives);

    // 2. Evolution.
    std::vector<MutationStep> steps(ranges.size(), MutationStep::Reset);
    const auto perm = context.layout().segment(GeneSegment::Permutation);
    for (int i = perm.begin; i < perm.end; ++i)
        steps[i] = MutationStep::Neighbour;
    report.plannedGenerations =
        static_cast<int>((context.remaining() + p.offspringPerGeneration - 1) / p.offspringPerGeneration);
    std::vector<Genome> offspring;
    std::vector<double> objectives;
    for (int g = 0; !context.done(); ++g) {
        const double pHigh = highMutationProbability(g, report.plannedGenerations, p.initialHighMutation);
        const auto pool = parentPoolSize(population, p.parentCount);
        offspring.clear();
        for (int i = 0; i < p.offspringPerGeneration; ++i) {
            if (pool == 0) { // nothing valid yet: sample afresh rather than breed the dead
                offspring.push_back(randomIndividual(ranges, rng, admissible));
                continue;
            }
            const auto [a, b] = pickParents(pool, rng);
            Genome child = uniform01(rng) < p.crossoverProbability
                               ? sensitivityAwareCrossover(population.genomes[a], population.genomes[b],
                                                           classes.cutPoints, rng)
                               : population.genomes[a];
            const auto mutate = [&] {
                annealingMutation(child, classes, ranges, steps, pHigh, p.neighbourStepShare, rng);
                if (repair)
                    orderFormatGenesForSparseloop(context.layout(), child);
            };
            if (uniform01(rng) < p.mutationProbability)
                mutate();
            else if (repair) // crossover alone can also put a compressed rank above an uncompressed one
                orderFormatGenesForSparseloop(context.layout(), child);
            for (int retry = 0; p.rejectDuplicates && retry < kDuplicateRetries && seen.contains(child);
                 ++retry)
                mutate();
            seen.insert(child); // also keeps this generation's offspring apart
            offspring.push_back(std::move(child));
        }
        const auto n = objective(offspring, objectives);
        if (n == 0)
            break;
        for (std::size_t i = 0; i < n; ++i)
            population.add(std::move(offspring[i]), objectives[i]);
        keepBest(population, static_cast<std::size_t>(p.populationSize));
        context.endGeneration(population.objectives);
    }
}

} // namespace sparsemap::search
