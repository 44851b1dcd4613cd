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

template <typename T> std::function<std::unique_ptr<Optimizer>(const GenomeLayout&)> plain()
{
    return [](const GenomeLayout&) -> std::unique_ptr<Optimizer> { return std::make_unique<T>(); };
}

std::unique_ptr<Optimizer> sparseMapRandomPerm(const GenomeLayout&)
{
    SparseMapEsParameters p;
    p.permutationEncoding = PermutationEncoding::Random;
    return std::make_unique<SparseMapEs>(p);
}

std::unique_ptr<Optimizer> pfceRandomPerm(const GenomeLayout&)
{
    StandardEsParameters p;
    p.permutationEncoding = PermutationEncoding::Random;
    return std::make_unique<EsPfce>(p);
}

} // namespace

const std::vector<MethodInfo>& searchMethods()
{
    static const std::vector<MethodInfo> kMethods{
        {"sparsemap", "SparseMap ES: calibration, hypercube initialization, annealing mutation, SAC",
         plain<SparseMapEs>()},
        {"es-pfce", "ablation: standard ES on the prime-factor + Cantor genome, LHS initialization",
         plain<EsPfce>()},
        {"es-direct",
         "ablation: standard ES on a direct encoding (tiling values as genes), LHS initialization",
         plain<EsDirect>()},
        {"sparsemap-random-perm", "ablation: SparseMap ES with random instead of Cantor permutation codes",
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

std::unique_ptr<Optimizer> makeOptimizer(const std::string& name, const GenomeLayout& layout)
{
    for (const auto& m : searchMethods())
        if (m.name == name)
            return m.make(layout);
    throw InputError("unknown search method '" + name + "'; known methods: " + methodNames());
}

} // namespace sparsemap::search
