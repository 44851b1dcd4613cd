#include "search/baselines/pagmo_bridge.hpp"

#include "genome/genome_codec.hpp"

#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/threading.hpp>

#include <algorithm>
#include <cmath>

namespace sparsemap::search::detail {

namespace {

struct StopSearch {}; // thrown through pagmo's evolve() once the context is done

// What the problem (copied freely inside pagmo) shares with the run: the context and the objectives
// of the evaluations since the last closed generation.
struct Bridge {
    SearchContext* context = nullptr;
    int reportEvery = 0;
    std::vector<double> pending;
    double restartBest = std::numeric_limits<double>::infinity();
    std::int64_t improvedAt = 0; // context->used() when restartBest last improved

    void record(double objective)
    {
        pending.push_back(objective);
        if (objective < restartBest) {
            restartBest = objective;
            improvedAt = context->used();
        }
        if (reportEvery > 0 && static_cast<int>(pending.size()) >= reportEvery)
            flush();
    }
    void flush()
    {
        if (!pending.empty())
            context->endGeneration(pending);
        pending.clear();
    }
};

class GenomeProblem {
public:
    GenomeProblem() = default; // pagmo requires it; never evaluated
    GenomeProblem(Bridge* bridge, bool integer) : m_bridge(bridge), m_integer(integer) {}

    pagmo::vector_double fitness(const pagmo::vector_double& x) const
    {
        const auto& layout = m_bridge->context->layout();
        Genome genome(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            const auto& gene = layout.gene(static_cast<int>(i));
            const double v = std::isfinite(x[i]) ? std::round(x[i]) : gene.lower;
            genome[i] = static_cast<int>(std::clamp(v, double(gene.lower), double(gene.upper)));
        }
        if (m_bridge->context->done())
            throw StopSearch{};
        const double objective = m_bridge->context->evaluate(genome);
        m_bridge->record(objective);
        return {fitnessOf(objective)};
    }

    std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const
    {
        const auto& layout = m_bridge->context->layout();
        const double pad = m_integer ? 0 : 0.5;
        pagmo::vector_double lower, upper;
        for (const auto& gene : layout.genes()) {
            lower.push_back(gene.lower - pad);
            upper.push_back(gene.upper + pad);
        }
        return {lower, upper};
    }
    pagmo::vector_double::size_type get_nix() const
    {
        return m_integer ? static_cast<pagmo::vector_double::size_type>(m_bridge->context->layout().size())
                         : 0;
    }
    std::string get_name() const { return "SparseMap genome"; }
    pagmo::thread_safety get_thread_safety() const { return pagmo::thread_safety::none; }

private:
    Bridge* m_bridge = nullptr;
    bool m_integer = false;
};

} // namespace

double fitnessOf(double objective)
{
    if (!std::isfinite(objective))
        return kInvalidFitness;
    return std::log10(std::max(objective, std::numeric_limits<double>::min()));
}

void runPagmo(SearchContext& context, const PagmoRun& run,
              const std::function<pagmo::algorithm(unsigned seed)>& makeAlgorithm)
{
    Bridge bridge;
    bridge.context = &context;
    bridge.reportEvery = run.reportEvery;
    const pagmo::problem problem{GenomeProblem{&bridge, run.integerGenes}};
    std::vector<Genome> genomes;
    std::vector<double> objectives;
    while (!context.done()) {
        genomes.clear();
        const auto wanted = std::min<std::int64_t>(run.populationSize, context.remaining());
        for (std::int64_t i = 0; i < wanted; ++i)
            genomes.push_back(randomGenome(context.layout(), context.rng()));
        const std::size_t n = context.evaluate(genomes, objectives);
        if (n == 0)
            break; // cancelled
        context.endGeneration(objectives);
        if (static_cast<int>(n) < run.populationSize)
            break; // the budget is spent: too few for a population
        pagmo::population population{problem, 0u, static_cast<unsigned>(context.rng()())};
        for (std::size_t i = 0; i < n; ++i)
            population.push_back(pagmo::vector_double(genomes[i].begin(), genomes[i].end()),
                                 pagmo::vector_double{fitnessOf(objectives[i])});
        bridge.restartBest = *std::min_element(objectives.begin(), objectives.end());
        bridge.improvedAt = context.used();

        const pagmo::algorithm algorithm = makeAlgorithm(static_cast<unsigned>(context.rng()()));
        while (!context.done()) {
            const auto before = context.used();
            try {
                population = algorithm.evolve(population);
            } catch (const StopSearch&) {
                // the budget is spent or the run was cancelled: the context has every point
            }
            bridge.flush();
            if (context.used() == before)
                break; // the algorithm declared convergence: restart
            if (run.stallEvaluations > 0 && context.used() - bridge.improvedAt >= run.stallEvaluations)
                break;
        }
    }
}

} // namespace sparsemap::search::detail
