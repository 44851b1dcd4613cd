#include "model/evaluator.hpp"
#include "model/padded_workload.hpp"

#include "mapping/mapping_checks.hpp"
#include "mapping/spatial_split.hpp"
#include "sparse/sparseloop_formats.hpp"

#include "model/microarch/level_costs.hpp"
#include "model/microarch/validity.hpp"
#include "model/sparse/gating_skipping.hpp"
#include "model/sparse/sparse_analysis.hpp"
#include "util/error.hpp"
#include "util/limits.hpp"
#include "workload/workload_factory.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap::model {

Workload paddedWorkload(const Workload& w, const std::vector<std::int64_t>& padded)
{
    if (padded.empty())
        return w;
    Workload out = w;
    for (std::size_t d = 0; d < out.dims.size() && d < padded.size(); ++d)
        out.dims[d].size = std::max(out.dims[d].size, padded[d]);
    auto volume = [](const Workload& wl, const Tensor& t) {
        const auto points = tensorPoints(wl, t);
        if (!points || *points > kMaxVolume)
            throw InputError("padding the dimensions gives tensor " + t.name + " more than 2^53 points (" +
                             "the largest tensor the model represents); use --padding none or smaller sizes");
        return static_cast<double>(*points);
    };
    for (std::size_t t = 0; t < out.tensors.size(); ++t) {
        auto& density = out.tensors[t].density;
        if (out.tensors[t].isOutput || density.model != DensityModelKind::Uniform)
            continue;
        density.density *= volume(w, w.tensors[t]) / volume(out, out.tensors[t]);
    }
    return out;
}

namespace {

// The options for formats bound by Sparseloop's rule from our export, which writes no
// rank-application-order: Sparseloop's default, outer to inner.
ModelOptions declaredFormatOptions(ModelOptions options)
{
    options.bindRanksInnerToOuter = false;
    return options;
}

} // namespace

namespace {

// The model's arrays and arithmetic rely on the limits every reader enforces; a workload or
// architecture built in code gets the same checks here instead of undefined behaviour later.
const Workload& checkedWorkload(const Workload& workload, const Architecture& arch)
{
    throwIfProblems("workload " + workload.name, workloadProblems(workload));
    throwIfProblems("architecture " + arch.name, architectureProblems(arch));
    return workload;
}

} // namespace

Evaluator::Evaluator(Workload workload, Architecture arch, ModelOptions options)
    : m_workload(paddedWorkload(checkedWorkload(workload, arch), options.paddedSizes)),
      m_arch(std::move(arch)), m_options(std::move(options)),
      m_declaredOptions(declaredFormatOptions(m_options)), m_sparse(std::make_unique<SparseScratch>())
{
    m_density = makeTensorDensityModels(m_workload);
    for (const auto& level : m_arch.levels)
        m_levelCosts.push_back(resolveLevelEnergy(level));
    m_computeCosts = resolveComputeEnergy(m_arch.compute);
    m_beyondSparseloop = beyondSparseloopText(m_options);
}

Evaluator::Evaluator(const Evaluator& other)
    : m_workload(other.m_workload), m_arch(other.m_arch), m_options(other.m_options),
      m_declaredOptions(other.m_declaredOptions), m_density(other.m_density),
      m_levelCosts(other.m_levelCosts), m_computeCosts(other.m_computeCosts),
      m_sparse(std::make_unique<SparseScratch>()), m_beyondSparseloop(other.m_beyondSparseloop)
{
}

Evaluator::~Evaluator() = default;

std::string beyondSparseloopText(const ModelOptions& options)
{
    std::string text;
    if (options.occupancyConfidence < 1)
        text = "capacity checked at the " + std::to_string(options.occupancyConfidence).substr(0, 6) +
               " occupancy quantile, not at the worst case";
    if (options.formatSpace != FormatSpace::SparseloopDead)
        text +=
            (text.empty() ? "" : "; ") +
            std::string(
                options.formatSpace == FormatSpace::Unrestricted
                    ? "formats Sparseloop cannot represent are evaluated as given"
                    : "formats Sparseloop cannot represent are evaluated as the nearest representable one");
    return text;
}

std::string_view formatSpaceName(FormatSpace space)
{
    switch (space) {
    case FormatSpace::SparseloopDead:
        return "dead";
    case FormatSpace::SparseloopNearest:
        return "nearest";
    case FormatSpace::Unrestricted:
        return "unrestricted";
    }
    return "dead";
}

std::optional<FormatSpace> parseFormatSpace(std::string_view name)
{
    for (auto space :
         {FormatSpace::SparseloopDead, FormatSpace::SparseloopNearest, FormatSpace::Unrestricted})
        if (name == formatSpaceName(space))
            return space;
    return std::nullopt;
}

void Evaluator::invalidate(std::string reason)
{
    m_result.valid = false;
    m_result.reason = std::move(reason);
    m_result.cycles = m_result.energyPj = m_result.edp = m_result.utilization = 0;
}

bool Evaluator::checkStructure(const Design& design)
{
    const auto& mapping = design.mapping;
    const int dims = static_cast<int>(m_workload.dims.size());
    // The shared structure check; the spatial fan-out is validity's, after spatial skipping.
    if (auto problem = mappingStructureProblem(mapping, m_workload, m_arch); !problem.empty()) {
        invalidate(std::move(problem));
        return false;
    }
    // Nearest: the genome path has already rewritten the design; any design still unrepresentable here
    // (a loaded one) is dead as well.
    if (m_options.formatSpace != FormatSpace::Unrestricted)
        if (const auto site = firstUnrepresentableFormat(design.sparse); site.storageLevel >= 0) {
            const auto& format = design.sparse.formats[site.storageLevel][site.tensor];
            std::vector<std::string> rankNames;
            for (const auto& r : format.ranks)
                rankNames.push_back(
                    r.dim < 0 || r.dim >= dims ? std::string()
                    : r.mappingLevel < 0 || r.mappingLevel >= static_cast<int>(mapping.levels.size())
                        ? m_workload.dims[r.dim].name
                        : m_workload.dims[r.dim].name + "@" + mapping.levels[r.mappingLevel].name);
            invalidate(
                "the format of " + m_workload.tensors[site.tensor].name + " at " +
                m_arch.levels[site.storageLevel].name +
                " (ranks outer to inner: " + formatRanksText(format, rankNames) +
                ") has a compressed rank above an uncompressed one, which Sparseloop cannot represent");
            return false;
        }
    return true;
}

// Dense counts into the result: every algorithmic access is an actual one until the sparse step
// says otherwise.
void Evaluator::fillDenseResult()
{
    const int levels = m_arch.levelCount();
    m_result.levels.resize(static_cast<std::size_t>(levels));
    for (int s = 0; s < levels; ++s) {
        const auto& dense = m_dense.levels[s];
        auto& level = m_result.levels[s];
        level.name = m_arch.levels[s].name;
        level.instances = level.maxInstances = dense.instances;
        level.tensors.resize(dense.tensors.size());
        for (std::size_t t = 0; t < dense.tensors.size(); ++t) {
            const auto& d = dense.tensors[t];
            auto& r = level.tensors[t];
            r = TensorLevelResult{};
            r.kept = d.kept;
            r.streamed = d.streamed;
            r.tile = d.tile;
            r.partition = d.partition;
            r.maxDataWords = d.kept ? d.tile : 0;
            r.reads.actual = r.algorithmicReads = d.reads;
            r.fills.actual = r.algorithmicFills = d.fills;
            r.updates.actual = r.algorithmicUpdates = d.updates;
            r.instances = dense.instances;
        }
    }
    auto& c = m_result.compute;
    c = ComputeResult{};
    c.algorithmic = c.actual = m_dense.algorithmicComputes;
    c.instances = c.maxInstances = m_dense.spatialInstances;
}

void Evaluator::noteSparseloopArtefacts()
{
    auto& note = m_result.sparseloopArtefact; // cleared by evaluate()
    for (const auto& level : m_result.levels)
        for (std::size_t t = 0; t < level.tensors.size(); ++t)
            if (level.tensors[t].sparseloopSeesNoOccupancy)
                note += (note.empty() ? "" : ", ") + m_workload.tensors[t].name + " at " + level.name;
    if (!note.empty())
        note = "Sparseloop sees no occupancy for " + note +
               " (its minimum occupancy of a near-dense tile wraps around 2^64): no data, metadata or "
               "accesses there, as Sparseloop counts them, not as hardware would";
}

void Evaluator::finishCosts()
{
    auto& c = m_result.compute;
    c.cycles = c.instances > 0 ? std::ceil((c.actual + c.gated) / c.instances) : 0;
    computeComputeEnergy(m_computeCosts, c);
    double cycles = c.cycles, energy = c.energyPj;
    for (int s = 0; s < m_arch.levelCount(); ++s) {
        auto& level = m_result.levels[s];
        computeLevelEnergy(m_arch.levels[s], m_levelCosts[s], level);
        computeLevelCycles(m_arch.levels[s], c.cycles, level);
        cycles = std::max(cycles, level.cycles);
        energy += level.energyPj;
    }
    m_result.cycles = cycles;
    m_result.energyPj = energy;
    m_result.edp = cycles * energy;
    const double macs = static_cast<double>(m_arch.compute.instances);
    m_result.utilization = cycles > 0 && macs > 0 ? c.actual / (cycles * macs) : 0;
}

namespace {

// Whether Timeloop's X/Y split reorders the spatial loops of some level of `mapping` (`split` =
// withSpatialSplits of it): the split puts each level's Y loops, and its trivial ones, outermost,
// and the model's numbers follow the new order (the leader tile of a gated or skipped read walks
// the spatial loops in order; a level stored without pre-tiling binds its ranks to its own loops,
// the child's extents folded into the first loop of each dim, trivial or not).
bool splitReorders(const Mapping& mapping, const Mapping& split)
{
    for (std::size_t l = 0; l < mapping.levels.size(); ++l)
        if (mapping.levels[l].kind == LoopKind::Spatial && mapping.levels[l].order != split.levels[l].order)
            return true;
    return false;
}

// Some spatial level without a split has a trivial loop inside a non-trivial one: the export's
// split moves it outermost.
bool trivialInsideSpatial(const Mapping& mapping)
{
    for (const auto& level : mapping.levels) {
        if (level.kind != LoopKind::Spatial || level.spatialXLoops >= 0)
            continue;
        bool nonTrivialAbove = false;
        for (int d : level.order) { // outer to inner
            if (level.bounds[static_cast<std::size_t>(d)] > 1)
                nonTrivialAbove = true;
            else if (nonTrivialAbove)
                return true;
        }
    }
    return false;
}

// Whether some rank of some format is bound to a loop (a genome's design, or one saved from it).
bool boundToLoops(const SparseStrategy& sparse)
{
    for (const auto& level : sparse.formats)
        for (const auto& format : level)
            for (const auto& rank : format.ranks)
                if (rank.mappingLevel >= 0)
                    return true;
    return false;
}

// Cheap pre-check: some spatial level without a split has two or more non-trivial loops, and
// placing every spatial loop along X does not fit (then the split keeps every loop along X, in order).
bool mayReorder(const Mapping& mapping, const Architecture& arch)
{
    if (spatialLoopsFitAlongX(arch, mapping))
        return false;
    for (const auto& level : mapping.levels) {
        if (level.kind != LoopKind::Spatial || level.spatialXLoops >= 0)
            continue;
        int moving = 0;
        for (auto b : level.bounds)
            moving += b > 1;
        if (moving >= 2)
            return true;
    }
    return false;
}

} // namespace

bool Evaluator::dataFitsCapacity(const Design& design)
{
    return model::dataFitsCapacity(m_workload, m_arch, design.mapping, design.sparse.formats, m_density,
                                   m_options.occupancyConfidence);
}

bool Evaluator::scoredAsSparseloopBinds(const Design& design) const
{
    return m_options.formatSpace != FormatSpace::Unrestricted && boundToLoops(design.sparse);
}

bool Evaluator::skipsHaveLeaderMetadata(const Design& design) const
{
    const int levels = m_arch.levelCount();
    const int tensors = static_cast<int>(m_workload.tensors.size());
    const auto& keep = design.mapping.keep;
    if (!keep.empty() && (static_cast<int>(keep.size()) < levels ||
                          std::any_of(keep.begin(), keep.end(), [&](const auto& row) {
                              return static_cast<int>(row.size()) < tensors;
                          })))
        return true;
    // evaluate() scores a genome's formats as Sparseloop binds them: with metadata when compressed.
    const bool sparseloopBound = scoredAsSparseloopBinds(design);
    const auto& formats = design.sparse.formats;
    const auto kept = [&](int l, int t) { return design.mapping.holds(l, t); };
    const auto withFormat = [&](int l, int t) {
        if (l >= static_cast<int>(formats.size()) || t >= static_cast<int>(formats[l].size()))
            return false;
        const auto& f = formats[l][t];
        return sparseloopBound ? f.compressed() : f.hasMetadata();
    };
    for (const auto& site : design.sparse.sites) {
        if (site.storageLevel < 0 || site.storageLevel >= levels)
            continue;
        for (const auto& a : site.actions) {
            if (!skipNeedsLeaderMetadata(m_options, a) || a.conditionOn.empty() ||
                std::any_of(a.conditionOn.begin(), a.conditionOn.end(),
                            [&](int cnd) { return cnd < 0 || cnd >= tensors; }))
                continue;
            if (std::none_of(a.conditionOn.begin(), a.conditionOn.end(), [&](int cnd) {
                    return leaderHasMetadata(levels, site.storageLevel, cnd, kept, withFormat);
                }))
                return false;
        }
    }
    return true;
}

const EvaluationResult& Evaluator::evaluate(const Design& given)
{
    m_result.valid = true;
    m_result.malformed = false;
    m_result.overflows = false;
    m_result.reason.clear();
    m_result.beyondSparseloop = m_beyondSparseloop;
    m_result.sparseloopArtefact.clear();
    if (!checkStructure(given)) {
        m_result.malformed = true;
        return m_result;
    }
    // A design without an X/Y split (a genome's) is evaluated as it is exported: with the split
    // Timeloop checks, which may reorder a level's spatial loops. No split fitting is reported by
    // the validity check below.
    const Design* laidOut = &given;
    const bool trivialInside = trivialInsideSpatial(given.mapping);
    if (mayReorder(given.mapping, m_arch) ||
        (trivialInside && !spatialLoopsFitAlongX(m_arch, given.mapping))) {
        if (withSpatialSplitsInto(m_arch, given.mapping, m_laidOut.mapping) &&
            splitReorders(given.mapping, m_laidOut.mapping)) {
            m_laidOut.sparse.sites = given.sparse.sites;
            laidOut = &m_laidOut;
        }
    } else if (trivialInside) {
        // Every spatial loop fits along X (or the level is split already): the split keeps the
        // non-trivial loops in order and moves the trivial ones outermost.
        m_laidOut.mapping = given.mapping;
        splitAllAlongX(m_laidOut.mapping);
        m_laidOut.sparse.sites = given.sparse.sites;
        laidOut = &m_laidOut;
    }
    // Formats bound to the genome's loops are scored as Sparseloop reads them from our export: in
    // its names and widths, each rank bound again by Sparseloop's own rule (pre-tiled by the child's
    // ranks when compressed, then this level's loops, outer to inner). Unrestricted formats are
    // beyond Sparseloop and keep the genome's binding.
    const ModelOptions* options = &m_options;
    const std::vector<std::vector<TensorFormat>>* formats = &given.sparse.formats;
    if (scoredAsSparseloopBinds(given)) {
        sparseloopFormatsInto(m_workload, m_arch, given, m_sparseloopFormats);
        for (auto& level : m_sparseloopFormats)
            for (auto& format : level)
                for (auto& rank : format.ranks)
                    rank.mappingLevel = -1;
        formats = &m_sparseloopFormats;
        options = &m_declaredOptions;
    }
    const Design& design = *laidOut;
    analyzeDataflow(m_workload, m_arch, design.mapping, m_dense, m_scratch);
    fillDenseResult();
    SparseContext context{m_workload, m_arch, design, m_dense, m_density, *options, *formats};
    if (auto problem = analyzeSparse(context, m_result, *m_sparse); !problem.empty()) {
        invalidate(std::move(problem));
        m_result.malformed = true;
        return m_result;
    }
    if (auto problem = fanoutProblem(context, m_result); !problem.empty()) {
        invalidate(std::move(problem));
        return m_result;
    }
    if (auto problem = capacityProblem(m_arch, m_result); !problem.empty()) {
        invalidate(std::move(problem));
        m_result.overflows = true;
        return m_result;
    }
    finishCosts();
    noteSparseloopArtefacts();
    if (!std::isfinite(m_result.energyPj) || !std::isfinite(m_result.cycles))
        invalidate("the model produced a non-finite result (please report this design)");
    else if (m_result.cycles < 1 && m_result.energyPj > 0)
        // Every level's cycles cover its traffic (computeLevelCycles): a design that spends energy moves
        // data or computes, and that takes time. Never report such a design valid with 0 cycles.
        invalidate("the model produced 0 cycles for a design that spends energy (please report this design)");
    else if (!std::isfinite(m_result.edp))
        invalidate("cycles x energy (" + std::to_string(m_result.cycles) + " x " +
                   std::to_string(m_result.energyPj) + " pJ) exceeds the largest representable EDP");
    return m_result;
}

} // namespace sparsemap::model
