#include "search/mapping_optimum.hpp"

#include "genome/cantor.hpp"
#include "genome/genome_codec.hpp"
#include "model/genome_evaluator.hpp"
#include "search/genome_checks.hpp"
#include "util/background_arena.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <bit>
#include <map>
#include <mutex>
#include <tuple>

namespace sparsemap::search {
namespace {

// The equal prime factors of one dim: consecutive tiling genes that canonicalizeGenome sorts, so
// their levels are a multiset - every non-decreasing sequence of levels once.
struct FactorGroup {
    int firstGene = 0;
    int size = 0;
    std::vector<std::vector<int>> choices; // the non-decreasing level sequences
};

void nonDecreasing(int lower, int upper, int size, std::vector<int>& prefix,
                   std::vector<std::vector<int>>& out)
{
    if (static_cast<int>(prefix.size()) == size) {
        out.push_back(prefix);
        return;
    }
    for (int level = prefix.empty() ? lower : prefix.back(); level <= upper; ++level) {
        prefix.push_back(level);
        nonDecreasing(lower, upper, size, prefix, out);
        prefix.pop_back();
    }
}

// C(n + k - 1, k) as a double: the multisets of size k over n levels.
double multisets(int n, int k)
{
    double c = 1;
    for (int i = 1; i <= k; ++i)
        c = c * (n + i - 1) / i;
    return std::round(c);
}

struct Groups {
    std::vector<FactorGroup> groups;
    double tilings = 1;
};

Groups factorGroups(const GenomeLayout& layout, bool withChoices)
{
    Groups out;
    const auto tiling = layout.segment(GeneSegment::Tiling);
    for (int i = tiling.begin; i < tiling.end;) {
        int j = i + 1;
        while (j < tiling.end && layout.gene(j).dim == layout.gene(i).dim &&
               layout.gene(j).factor == layout.gene(i).factor)
            ++j;
        FactorGroup g;
        g.firstGene = i;
        g.size = j - i;
        const int lower = layout.gene(i).lower, upper = layout.gene(i).upper;
        out.tilings *= multisets(upper - lower + 1, g.size);
        if (withChoices) {
            std::vector<int> prefix;
            nonDecreasing(lower, upper, g.size, prefix, g.choices);
        }
        out.groups.push_back(std::move(g));
        i = j;
    }
    return out;
}

// Writes tiling number `index` (mixed radix over the groups, the first group fastest) into `genome`.
void setTiling(const std::vector<FactorGroup>& groups, std::int64_t index, Genome& genome)
{
    for (const auto& g : groups) {
        const auto n = static_cast<std::int64_t>(g.choices.size());
        const auto& choice = g.choices[static_cast<std::size_t>(index % n)];
        index /= n;
        std::copy(choice.begin(), choice.end(), genome.begin() + g.firstGene);
    }
}

// The canonical Cantor codes of a level whose ordered loops (orderedLoopMasks) are `mask`: the other
// dims outermost in dim order, then every order of the ordered ones.
std::vector<int> canonicalOrders(std::uint32_t mask, int dims)
{
    std::vector<int> free, ordered;
    for (int d = 0; d < dims; ++d)
        ((mask >> d) & 1u ? ordered : free).push_back(d);
    std::vector<int> codes;
    std::vector<int> order(static_cast<std::size_t>(dims));
    do {
        std::copy(free.begin(), free.end(), order.begin());
        std::copy(ordered.begin(), ordered.end(), order.begin() + static_cast<std::ptrdiff_t>(free.size()));
        codes.push_back(static_cast<int>(cantorEncode(order)));
    } while (std::next_permutation(ordered.begin(), ordered.end()));
    return codes;
}

struct Best {
    double objective = std::numeric_limits<double>::infinity();
    std::int64_t tiling = -1;
    std::int64_t order = -1;
    Genome genome;
    bool before(double o, std::int64_t t, std::int64_t r) const
    {
        return std::tie(o, t, r) < std::tie(objective, tiling, order);
    }
};

struct Worker {
    Worker(const GenomeLayout& layout, const model::ModelOptions& options) : evaluator(layout, options) {}
    model::GenomeEvaluator evaluator;
    std::map<std::uint32_t, std::vector<int>> orders; // canonicalOrders by mask
    Genome genome;
    std::vector<std::uint32_t> masks;
    Best best;
    std::int64_t mappings = 0, rejected = 0, evaluated = 0, valid = 0;
};

} // namespace

MappingSpaceSize canonicalMappingSpaceSize(const GenomeLayout& layout, double countLimit,
                                           std::span<const int> held)
{
    if (!held.empty())
        layout.validate(held);
    const bool count = factorGroups(layout, false).tilings <= countLimit;
    const Groups g = factorGroups(layout, count);
    MappingSpaceSize size;
    size.tilings = g.tilings;
    if (!count)
        return size;
    const auto perm = layout.segment(GeneSegment::Permutation);
    Genome genome(static_cast<std::size_t>(layout.size()), 1); // format genes 1 (B): metadata
    if (!held.empty())
        genome.assign(held.begin(), held.end());
    std::vector<std::uint32_t> masks(layout.mappingLevels().size());
    double mappings = 0;
    for (std::int64_t t = 0; t < static_cast<std::int64_t>(g.tilings); ++t) {
        setTiling(g.groups, t, genome);
        orderedLoopMasks(layout, genome, masks);
        double orders = 1;
        for (int i = perm.begin; i < perm.end; ++i)
            orders *= static_cast<double>(factorial(std::popcount(masks[layout.gene(i).mappingLevel])));
        mappings += orders;
    }
    size.mappings = mappings;
    return size;
}

MappingOptimum exhaustiveMappingOptimum(const GenomeLayout& layout, std::span<const int> fixedGenome,
                                        const MappingOptimumSettings& settings)
{
    layout.validate(fixedGenome);
    const Groups g = factorGroups(layout, true);
    const auto tilings = static_cast<std::int64_t>(g.tilings);
    const auto perm = layout.segment(GeneSegment::Permutation);
    const int dims = static_cast<int>(layout.workload().dims.size());
    const model::ModelOptions& options = settings.modelOptions;

    tbb::task_arena arena(settings.threads > 0 ? settings.threads : tbb::task_arena::automatic);
    const util::BackgroundArena background(arena); // in the workbench: below its GUI thread
    tbb::enumerable_thread_specific<std::unique_ptr<Worker>> workers(
        [&] { return std::make_unique<Worker>(layout, options); });
    std::atomic<std::int64_t> done{0};
    std::atomic<bool> stopped{false};
    std::mutex progressMutex;

    auto visitTiling = [&](Worker& w, std::int64_t t) {
        w.genome.assign(fixedGenome.begin(), fixedGenome.end());
        setTiling(g.groups, t, w.genome);
        // The canonical form's format and S/G genes depend on the tiling only (unused ranks U, S/G
        // synonyms), and the loop orders below are canonical already: once per tiling.
        canonicalizeGenome(layout, w.genome);
        w.masks.resize(layout.mappingLevels().size());
        orderedLoopMasks(layout, w.genome, w.masks);
        // The loop orders of every level with a permutation gene, as an odometer over the levels.
        std::vector<const std::vector<int>*> levelOrders;
        for (int i = perm.begin; i < perm.end; ++i) {
            const std::uint32_t mask = w.masks[static_cast<std::size_t>(layout.gene(i).mappingLevel)];
            auto it = w.orders.find(mask);
            if (it == w.orders.end())
                it = w.orders.emplace(mask, canonicalOrders(mask, dims)).first;
            levelOrders.push_back(&it->second);
        }
        std::vector<std::size_t> digit(levelOrders.size(), 0);
        for (std::int64_t order = 0;; ++order) {
            for (std::size_t k = 0; k < digit.size(); ++k)
                w.genome[static_cast<std::size_t>(perm.begin) + k] = (*levelOrders[k])[digit[k]];
            ++w.mappings;
            if (!spatialFanoutFits(layout, w.genome)) {
                ++w.rejected;
            } else {
                const auto& result = w.evaluator.evaluate(w.genome);
                ++w.evaluated;
                if (result.valid) {
                    ++w.valid;
                    const double objective = model::objectiveValue(result, settings.objective);
                    if (w.best.before(objective, t, order)) {
                        w.best.objective = objective;
                        w.best.tiling = t;
                        w.best.order = order;
                        w.best.genome = w.genome;
                    }
                }
            }
            std::size_t k = 0;
            while (k < digit.size() && ++digit[k] == levelOrders[k]->size())
                digit[k++] = 0;
            if (k == digit.size())
                break;
        }
    };

    arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, tilings, 16), [&](const auto& range) {
            auto& slot = workers.local();
            for (std::int64_t t = range.begin(); t != range.end(); ++t) {
                if (stopped.load(std::memory_order_relaxed))
                    return;
                if (settings.cancel && settings.cancel->cancelled()) {
                    stopped.store(true, std::memory_order_relaxed);
                    return;
                }
                visitTiling(*slot, t);
                const std::int64_t n = done.fetch_add(1, std::memory_order_relaxed) + 1;
                if (settings.progress && (n % 4096 == 0 || n == tilings)) {
                    std::lock_guard lock(progressMutex);
                    settings.progress(n, tilings);
                }
            }
        });
    });

    MappingOptimum out;
    out.tilings = done.load();
    out.cancelled = stopped.load();
    Best best;
    for (const auto& w : workers) {
        out.mappings += w->mappings;
        out.fanoutRejected += w->rejected;
        out.evaluated += w->evaluated;
        out.valid += w->valid;
        if (w->best.tiling >= 0 && best.before(w->best.objective, w->best.tiling, w->best.order))
            best = w->best;
    }
    out.bestObjective = best.objective;
    out.best = best.genome;
    return out;
}

} // namespace sparsemap::search
