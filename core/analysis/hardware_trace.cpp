#include "analysis/hardware_trace.hpp"

#include "mapping/mapping_checks.hpp"
#include "mapping/tile_shape.hpp"
#include "model/density/nonzero_pattern.hpp"
#include "util/error.hpp"
#include "util/rounding.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sparsemap::analysis {

std::string_view spatialCastName(SpatialCast cast)
{
    switch (cast) {
    case SpatialCast::None:
        return "single";
    case SpatialCast::Broadcast:
        return "broadcast";
    case SpatialCast::Multicast:
        return "multicast";
    case SpatialCast::Unicast:
        return "unicast";
    }
    return "?";
}

namespace {

std::uint64_t splitmix(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// A uniform draw in [0, 1) for one key.
double unitDraw(std::uint64_t seed, std::uint64_t key)
{
    return static_cast<double>(splitmix(seed ^ splitmix(key)) >> 11) * 0x1.0p-53;
}

// Width of a square-ish grid of n cells: the smallest divisor of n that is >= sqrt(n).
std::int64_t squareishWidth(std::int64_t n)
{
    if (n <= 1)
        return 1;
    auto w = static_cast<std::int64_t>(ceilCount(std::sqrt(static_cast<double>(n))));
    while (n % w != 0)
        ++w;
    return w;
}

} // namespace

// The nonzero pattern of one input tensor: read from an `actual` file, or one deterministic sample of
// the statistical density model (see the header).
class OperandValues {
public:
    OperandValues(const Tensor& tensor, std::vector<std::int64_t> extents, std::uint64_t seed)
        : m_spec(tensor.density), m_extents(std::move(extents)), m_seed(seed)
    {
        if (m_spec.model == DensityModelKind::Actual) {
            const std::string& file = m_spec.resolvedFile.empty() ? m_spec.file : m_spec.resolvedFile;
            if (file.empty())
                throw InputError("tensor " + tensor.name + ": actual density needs a file");
            if (m_extents.size() > 2)
                throw InputError("tensor " + tensor.name +
                                 ": actual density supports tensors of 1 or 2 ranks, this one has " +
                                 std::to_string(m_extents.size()));
            m_pattern = model::readNonzeroPattern(file);
        }
    }

    bool nonzero(const std::int64_t* coords) const
    {
        const std::size_t n = m_extents.size();
        std::int64_t linear = 0;
        for (std::size_t r = 0; r < n; ++r) {
            if (coords[r] < 0 || coords[r] >= m_extents[r])
                return false; // padding outside the tensor holds zeros
            linear = linear * m_extents[r] + coords[r];
        }
        switch (m_spec.model) {
        case DensityModelKind::Actual: {
            // A 1-rank tensor is one row of the file; 2 ranks are (row, column).
            const std::int64_t row = n == 2 ? coords[0] : 0;
            const std::int64_t col = n == 0 ? 0 : coords[n - 1];
            if (row >= m_pattern.rows || col >= m_pattern.columns)
                return false;
            return std::binary_search(m_pattern.nonzeros.begin(), m_pattern.nonzeros.end(),
                                      row * m_pattern.columns + col);
        }
        case DensityModelKind::FixedStructured:
            if (m_spec.structuredM > 0 && n > 0) {
                // N of every block of M along the innermost rank: the N positions with the smallest
                // draws of that block.
                const std::int64_t m = m_spec.structuredM;
                const std::int64_t inner = coords[n - 1];
                const std::int64_t blockStart = linear - inner % m;
                const double mine = unitDraw(m_seed, static_cast<std::uint64_t>(linear));
                std::int64_t smaller = 0;
                for (std::int64_t j = 0; j < m; ++j) {
                    const std::int64_t other = blockStart + j;
                    if (other == linear)
                        continue;
                    const double d = unitDraw(m_seed, static_cast<std::uint64_t>(other));
                    if (d < mine || (d == mine && other < linear))
                        ++smaller;
                }
                return smaller < m_spec.structuredN;
            }
            break;
        case DensityModelKind::Banded:
            if (n == 2) {
                const std::int64_t diff = coords[0] - coords[1];
                if (std::abs(diff) > m_spec.bandwidth)
                    return false;
            }
            break;
        case DensityModelKind::Uniform:
            break;
        }
        return m_spec.density >= 1.0 || unitDraw(m_seed, static_cast<std::uint64_t>(linear)) < m_spec.density;
    }

private:
    DensitySpec m_spec;
    std::vector<std::int64_t> m_extents;
    std::uint64_t m_seed;
    model::NonzeroPattern m_pattern;
};

HardwareTrace::HardwareTrace(const Workload& workload, const Architecture& arch, const Design& design,
                             std::uint64_t seed)
    : m_workload(workload), m_arch(arch), m_design(design)
{
    const int dims = static_cast<int>(workload.dims.size());
    const int levels = arch.levelCount();
    if (levels < 1)
        throw InputError("hardware view: the architecture has no storage level");
    // The model's pre-check (the workload as evaluated: for a genome, with its padded dims).
    if (const auto problem = mappingPreCheck(design.mapping, workload, arch); !problem.empty())
        throw InputError("hardware view: " + problem);

    for (int s = 0; s < levels; ++s)
        m_dimTiles.push_back(dimTileSizes(design.mapping, dims, s));
    buildLoops();
    buildFanouts();
    buildInstances();

    std::vector<std::int64_t> fullDims;
    for (const auto& d : workload.dims)
        fullDims.push_back(d.size);
    m_values.resize(workload.tensors.size());
    for (int t : workload.inputTensors())
        m_values[t] = std::make_unique<OperandValues>(
            workload.tensors[t], rankExtents(workload, t, fullDims),
            splitmix(seed * 0x100000001b3ULL + static_cast<std::uint64_t>(t)));
}

HardwareTrace::~HardwareTrace() = default;
HardwareTrace::HardwareTrace(HardwareTrace&&) noexcept = default;
HardwareTrace& HardwareTrace::operator=(HardwareTrace&&) noexcept = default;

void HardwareTrace::buildLoops()
{
    const auto& levels = m_design.mapping.levels;
    const int count = static_cast<int>(levels.size());
    for (int l = 0; l < count; ++l) {
        const auto& level = levels[l];
        const int n = static_cast<int>(level.order.size());
        for (int i = 0; i < n; ++i) {
            const int dim = level.order[i];
            const auto bound = level.bounds[dim];
            if (bound <= 1)
                continue;
            TraceLoop loop;
            loop.mappingLevel = l;
            loop.storageLevel = level.storageLevel;
            loop.dim = dim;
            loop.bound = bound;
            loop.spatial = level.kind == LoopKind::Spatial;
            loop.alongY = loop.spatial && level.spatialXLoops >= 0 && n - 1 - i >= level.spatialXLoops;
            for (int inner = l + 1; inner < count; ++inner)
                loop.stride *= levels[inner].bounds[dim];
            (loop.spatial ? m_spatial : m_temporal).push_back(loop);
        }
    }
    m_steps = 1;
    for (const auto& loop : m_temporal)
        m_steps *= loop.bound;
}

void HardwareTrace::buildFanouts()
{
    const int levels = m_arch.levelCount();
    auto meshWidth = [this, levels](int slot) {
        const bool compute = slot == levels;
        const std::int64_t instances = compute ? m_arch.compute.instances : m_arch.levels[slot].instances;
        const std::int64_t meshX = compute ? m_arch.compute.meshX : m_arch.levels[slot].meshX;
        return meshX > 0 && instances % meshX == 0 ? meshX : squareishWidth(instances);
    };
    for (int s = 0; s < levels; ++s) {
        Fanout f;
        f.parentLevel = s;
        f.childLevel = s + 1 < levels ? s + 1 : -1;
        f.childrenPerParent = m_arch.fanout(s);
        const std::int64_t parentW = meshWidth(s), childW = meshWidth(s + 1);
        f.gridWidth = childW % parentW == 0 && f.childrenPerParent % (childW / parentW) == 0
                          ? childW / parentW
                          : squareishWidth(f.childrenPerParent);
        f.gridWidth = std::max<std::int64_t>(1, std::min(f.gridWidth, f.childrenPerParent));
        bool any = false;
        for (const auto& loop : m_spatial)
            if (loop.storageLevel == s) {
                any = true;
                (loop.alongY ? f.usedY : f.usedX) *= loop.bound;
            }
        f.used = f.usedX * f.usedY;
        for (int t = 0; t < static_cast<int>(m_workload.tensors.size()); ++t) {
            int indexing = 0, total = 0;
            std::int64_t share = 1;
            for (const auto& loop : m_spatial)
                if (loop.storageLevel == s) {
                    ++total;
                    if (m_workload.indexes(t, loop.dim))
                        ++indexing;
                    else
                        share *= loop.bound;
                }
            f.cast.push_back(!any                ? SpatialCast::None
                             : indexing == 0     ? SpatialCast::Broadcast
                             : indexing == total ? SpatialCast::Unicast
                                                 : SpatialCast::Multicast);
            f.share.push_back(share);
        }
        m_fanouts.push_back(std::move(f));
    }
}

void HardwareTrace::buildInstances()
{
    const int levels = m_arch.levelCount();
    const std::size_t dims = m_workload.dims.size();
    m_used.assign(static_cast<std::size_t>(levels) + 1, {});
    m_usedLookup.assign(static_cast<std::size_t>(levels) + 1, {});
    auto slotInstances = [this, levels](int slot) {
        return slot == levels ? m_arch.compute.instances : m_arch.levels[slot].instances;
    };
    m_used[0].push_back(UsedInstance{0, std::vector<std::int64_t>(dims, 0), -1});
    for (int s = 0; s < levels; ++s) {
        const Fanout& f = m_fanouts[s];
        std::vector<const TraceLoop*> loops;
        for (const auto& loop : m_spatial)
            if (loop.storageLevel == s)
                loops.push_back(&loop);
        const bool split =
            std::any_of(loops.begin(), loops.end(), [](const TraceLoop* l) { return l->alongY; });
        std::vector<std::int64_t> idx(loops.size(), 0);
        for (std::size_t p = 0; p < m_used[s].size(); ++p) {
            const UsedInstance parent = m_used[s][p];
            std::fill(idx.begin(), idx.end(), 0);
            for (;;) {
                std::int64_t x = 0, y = 0, linear = 0;
                UsedInstance child{0, parent.offset, static_cast<std::int64_t>(p)};
                for (std::size_t i = 0; i < loops.size(); ++i) {
                    linear = linear * loops[i]->bound + idx[i];
                    if (loops[i]->alongY)
                        y = y * loops[i]->bound + idx[i];
                    else
                        x = x * loops[i]->bound + idx[i];
                    child.offset[loops[i]->dim] += idx[i] * loops[i]->stride;
                }
                // With an X/Y split the mesh position follows it; otherwise the children fill the
                // parent's grid row by row.
                const std::int64_t local =
                    split ? (f.usedX <= f.gridWidth ? y * f.gridWidth + x : y * f.usedX + x) : linear;
                child.global = parent.global * f.childrenPerParent + local;
                m_used[s + 1].push_back(std::move(child));
                // Next combination of the spatial indices (a mixed-radix counter).
                bool done = true;
                for (std::size_t i = loops.size(); i > 0; --i) {
                    if (++idx[i - 1] < loops[i - 1]->bound) {
                        done = false;
                        break;
                    }
                    idx[i - 1] = 0;
                }
                if (done)
                    break;
            }
        }
    }
    for (int slot = 0; slot <= levels; ++slot) {
        auto& lookup = m_usedLookup[slot];
        lookup.assign(static_cast<std::size_t>(std::max<std::int64_t>(1, slotInstances(slot))), -1);
        for (std::size_t i = 0; i < m_used[slot].size(); ++i) {
            const auto g = m_used[slot][i].global;
            if (g < 0 || g >= static_cast<std::int64_t>(lookup.size()))
                throw InputError("hardware view: the mapping's spatial loops below " +
                                 m_arch.levels[slot - 1].name + " do not fit the architecture's mesh");
            lookup[g] = static_cast<std::int64_t>(i);
        }
    }
}

std::vector<std::int64_t> HardwareTrace::loopIndices(std::int64_t step) const
{
    step = std::clamp<std::int64_t>(step, 0, m_steps - 1);
    std::vector<std::int64_t> out(m_temporal.size(), 0);
    for (std::size_t i = m_temporal.size(); i > 0; --i) {
        out[i - 1] = step % m_temporal[i - 1].bound;
        step /= m_temporal[i - 1].bound;
    }
    return out;
}

std::vector<std::int64_t> HardwareTrace::temporalOffsets(std::int64_t step, int aboveStorageLevel) const
{
    const auto idx = loopIndices(step);
    std::vector<std::int64_t> off(m_workload.dims.size(), 0);
    for (std::size_t i = 0; i < m_temporal.size(); ++i)
        if (m_temporal[i].storageLevel < aboveStorageLevel)
            off[m_temporal[i].dim] += idx[i] * m_temporal[i].stride;
    return off;
}

const HardwareTrace::UsedInstance* HardwareTrace::findUsed(int slot, std::int64_t global) const
{
    if (slot < 0 || slot >= static_cast<int>(m_usedLookup.size()))
        return nullptr;
    const auto& lookup = m_usedLookup[slot];
    if (global < 0 || global >= static_cast<std::int64_t>(lookup.size()) || lookup[global] < 0)
        return nullptr;
    return &m_used[slot][lookup[global]];
}

std::optional<std::vector<CoordRange>> HardwareTrace::tile(std::int64_t step, int storageLevel,
                                                           std::int64_t instance, int tensor) const
{
    if (storageLevel < 0 || storageLevel >= m_arch.levelCount() || tensor < 0 ||
        tensor >= static_cast<int>(m_workload.tensors.size()))
        return std::nullopt;
    const UsedInstance* used = findUsed(storageLevel, instance);
    if (!used)
        return std::nullopt;
    auto begin = temporalOffsets(step, storageLevel);
    for (std::size_t d = 0; d < begin.size(); ++d)
        begin[d] += used->offset[d];
    const auto& size = m_dimTiles[storageLevel];
    std::vector<CoordRange> out;
    for (const auto& rank : m_workload.tensors[tensor].ranks) {
        CoordRange r;
        std::int64_t extent = 1;
        for (const auto& term : rank) {
            r.begin += term.coefficient * begin[term.dim];
            extent += term.coefficient * (size[term.dim] - 1);
        }
        r.end = r.begin + extent;
        out.push_back(r);
    }
    return out;
}

std::string HardwareTrace::tileText(int tensor, const std::vector<CoordRange>& ranges) const
{
    std::string out = m_workload.tensors.at(tensor).name + "[";
    for (std::size_t r = 0; r < ranges.size(); ++r) {
        if (r)
            out += ',';
        out += std::to_string(ranges[r].begin);
        if (ranges[r].end - ranges[r].begin != 1)
            out += ':' + std::to_string(ranges[r].end);
    }
    return out + "]";
}

bool HardwareTrace::instanceUsed(int storageLevel, std::int64_t instance) const
{
    const int slot = storageLevel < 0 ? m_arch.levelCount() : storageLevel;
    return findUsed(slot, instance) != nullptr;
}

std::int64_t HardwareTrace::usedInstances(int storageLevel) const
{
    const int slot = storageLevel < 0 ? m_arch.levelCount() : storageLevel;
    return slot < static_cast<int>(m_used.size()) ? static_cast<std::int64_t>(m_used[slot].size()) : 0;
}

HardwareTrace::GridPos HardwareTrace::gridPosition(int storageLevel, std::int64_t instance) const
{
    const int slot = storageLevel < 0 ? m_arch.levelCount() : storageLevel;
    if (slot <= 0)
        return {0, 0};
    const Fanout& f = m_fanouts[slot - 1];
    const std::int64_t rowsPerParent = (f.childrenPerParent + f.gridWidth - 1) / f.gridWidth;
    const GridPos parent = gridPosition(slot - 1, instance / f.childrenPerParent);
    const std::int64_t local = instance % f.childrenPerParent;
    return {parent.column * f.gridWidth + local % f.gridWidth,
            parent.row * rowsPerParent + local / f.gridWidth};
}

std::int64_t HardwareTrace::gridColumns(int storageLevel) const
{
    const int slot = storageLevel < 0 ? m_arch.levelCount() : storageLevel;
    return slot <= 0 ? 1 : gridColumns(slot - 1) * m_fanouts[slot - 1].gridWidth;
}

std::int64_t HardwareTrace::gridRows(int storageLevel) const
{
    const int slot = storageLevel < 0 ? m_arch.levelCount() : storageLevel;
    if (slot <= 0)
        return 1;
    const Fanout& f = m_fanouts[slot - 1];
    return gridRows(slot - 1) * ((f.childrenPerParent + f.gridWidth - 1) / f.gridWidth);
}

bool HardwareTrace::nonzeroAt(int tensor, const std::vector<std::int64_t>& point) const
{
    if (tensor < 0 || tensor >= static_cast<int>(m_values.size()) || !m_values[tensor])
        return true; // the output (or an unknown tensor) is not an operand: treat as present
    const auto& ranks = m_workload.tensors[tensor].ranks;
    std::int64_t coords[8] = {};
    std::vector<std::int64_t> many;
    std::int64_t* c = coords;
    if (ranks.size() > 8) {
        many.resize(ranks.size());
        c = many.data();
    }
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        c[r] = 0;
        for (const auto& term : ranks[r])
            c[r] += term.coefficient * point[term.dim];
    }
    return m_values[tensor]->nonzero(c);
}

bool HardwareTrace::tileEmpty(int tensor, const std::vector<std::int64_t>& dimBegin,
                              const std::vector<std::int64_t>& dimSize) const
{
    if (!m_values[tensor])
        return false;
    // Walk the tile's rank coordinates (not the dims: a sliding window touches each point once).
    const auto& ranks = m_workload.tensors[tensor].ranks;
    const std::size_t n = ranks.size();
    std::vector<std::int64_t> begin(n), extent(n), c(n);
    for (std::size_t r = 0; r < n; ++r) {
        std::int64_t b = 0, e = 1;
        for (const auto& term : ranks[r]) {
            b += term.coefficient * dimBegin[term.dim];
            e += term.coefficient * (dimSize[term.dim] - 1);
        }
        begin[r] = b;
        extent[r] = e;
        c[r] = b;
    }
    for (;;) {
        if (m_values[tensor]->nonzero(c.data()))
            return false;
        std::size_t r = n;
        while (r > 0) {
            --r;
            if (++c[r] < begin[r] + extent[r])
                break;
            c[r] = begin[r];
            if (r == 0)
                return true;
        }
        if (n == 0)
            return true;
    }
}

std::vector<std::int64_t> HardwareTrace::macPoint(std::int64_t step, std::int64_t mac) const
{
    const int slot = m_arch.levelCount();
    const UsedInstance* used = findUsed(slot, mac);
    if (!used)
        return {};
    auto point = temporalOffsets(step, slot);
    for (std::size_t d = 0; d < point.size(); ++d)
        point[d] += used->offset[d];
    return point;
}

std::int64_t HardwareTrace::macSteps() const
{
    return m_steps * static_cast<std::int64_t>(m_used[static_cast<std::size_t>(m_arch.levelCount())].size());
}

void HardwareTrace::useModelCounts(std::int64_t actual, std::int64_t gated, std::int64_t skipped)
{
    ModelCounts m;
    m.total = std::max<std::int64_t>(1, macSteps());
    const auto clamp = [&](std::int64_t x) { return std::clamp<std::int64_t>(x, 0, m.total); };
    m.actual = clamp(actual);
    m.gated = clamp(m.actual + std::max<std::int64_t>(0, gated));
    m.skipped = clamp(m.gated + std::max<std::int64_t>(0, skipped));
    // K near D / golden ratio and coprime to D: n -> n K mod D is a bijection of 0 .. D-1.
    std::int64_t k =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(double(m.total) * 0.6180339887498949));
    while (std::gcd(k, m.total) != 1)
        ++k;
    m.multiplier = k;
    m_model = m;
}

MacCounts HardwareTrace::countAllSteps() const
{
    MacCounts total;
    std::vector<MacState> states;
    for (std::int64_t step = 0; step < m_steps; ++step) {
        macStates(step, states);
        const MacCounts c = countMacStates(states);
        total.active += c.active;
        total.gated += c.gated;
        total.skipped += c.skipped;
        total.empty += c.empty;
        total.idle += c.idle;
    }
    return total;
}

void HardwareTrace::macStates(std::int64_t step, std::vector<MacState>& out) const
{
    if (m_model) {
        out.assign(static_cast<std::size_t>(std::max<std::int64_t>(0, m_arch.compute.instances)),
                   MacState::Idle);
        const auto& macs = m_used[static_cast<std::size_t>(m_arch.levelCount())];
        const auto first =
            static_cast<unsigned __int128>(std::clamp<std::int64_t>(step, 0, m_steps - 1)) * macs.size();
        for (std::size_t i = 0; i < macs.size(); ++i) {
            const auto p =
                static_cast<std::int64_t>((first + i) * static_cast<unsigned __int128>(m_model->multiplier) %
                                          static_cast<unsigned __int128>(m_model->total));
            out[static_cast<std::size_t>(macs[i].global)] = p < m_model->actual    ? MacState::Active
                                                            : p < m_model->gated   ? MacState::Gated
                                                            : p < m_model->skipped ? MacState::Skipped
                                                                                   : MacState::Empty;
        }
        return;
    }

    const int levels = m_arch.levelCount();
    const int tensors = static_cast<int>(m_workload.tensors.size());
    out.assign(static_cast<std::size_t>(std::max<std::int64_t>(0, m_arch.compute.instances)), MacState::Idle);
    const auto inputs = m_workload.inputTensors();

    // Storage S/G whose target is an operand: they remove (skip) or idle (gate) computes below.
    struct StorageSaf {
        int level;
        bool gate;
        std::vector<int> leaders;
        std::vector<signed char> emptyCache; // per used instance of the child level: -1 unknown
    };
    std::vector<StorageSaf> storage;
    bool gate = false, skip = false;
    bool checked[2] = {false, false};
    for (const auto& site : m_design.sparse.sites) {
        for (const auto& a : site.actions) {
            if (site.storageLevel == kComputeSite) {
                (a.kind == SgKind::Gate ? gate : skip) = true;
                for (std::size_t i = 0; i < inputs.size() && i < 2; ++i)
                    if (a.conditionOn.empty() || std::find(a.conditionOn.begin(), a.conditionOn.end(),
                                                           inputs[i]) != a.conditionOn.end())
                        checked[i] = true;
                continue;
            }
            if (site.storageLevel < 0 || site.storageLevel >= levels || a.target < 0 || a.target >= tensors ||
                m_workload.tensors[a.target].isOutput)
                continue; // output targets never reduce compute
            StorageSaf saf{site.storageLevel,
                           a.kind == SgKind::Gate,
                           a.conditionOn.empty() ? std::vector<int>{a.target} : a.conditionOn,
                           {}};
            if (site.storageLevel + 1 < levels)
                saf.emptyCache.assign(m_used[site.storageLevel + 1].size(), -1);
            storage.push_back(std::move(saf));
        }
    }
    // Operand presence of zeros: absent when compressed at the innermost level that keeps it.
    bool compressed[2] = {false, false};
    for (std::size_t i = 0; i < inputs.size() && i < 2; ++i)
        for (int l = levels - 1; l >= 0; --l)
            if (m_design.mapping.keeps(l, inputs[i])) {
                const auto& f = m_design.sparse.formats;
                compressed[i] = l < static_cast<int>(f.size()) && inputs[i] < static_cast<int>(f[l].size()) &&
                                f[l][inputs[i]].compressed();
                break;
            }

    const auto tOff = temporalOffsets(step, levels);
    std::vector<std::vector<std::int64_t>> levelOffsets(static_cast<std::size_t>(levels));
    for (int s = 0; s < levels; ++s)
        levelOffsets[s] = temporalOffsets(step, s);
    std::vector<std::int64_t> point(m_workload.dims.size());
    std::vector<std::int64_t> dimBegin(m_workload.dims.size());
    const bool twoOperands = inputs.size() == 2;

    for (const auto& mac : m_used[levels]) {
        for (std::size_t d = 0; d < point.size(); ++d)
            point[d] = tOff[d] + mac.offset[d];
        MacState state = MacState::Active;
        bool removed = false, gatedAbove = false;
        for (auto& saf : storage) {
            bool empty = true;
            if (saf.level + 1 >= levels) {
                for (int leader : saf.leaders)
                    empty = empty && !nonzeroAt(leader, point);
            } else {
                // The MAC's ancestor at the child level of the site.
                const int child = saf.level + 1;
                std::int64_t idx = mac.parent;
                for (int slot = levels - 1; slot > child; --slot)
                    idx = m_used[slot][idx].parent;
                signed char& cached = saf.emptyCache[idx];
                if (cached < 0) {
                    const auto& inst = m_used[child][idx];
                    for (std::size_t d = 0; d < dimBegin.size(); ++d)
                        dimBegin[d] = levelOffsets[child][d] + inst.offset[d];
                    bool allEmpty = true;
                    for (int leader : saf.leaders)
                        allEmpty = allEmpty && tileEmpty(leader, dimBegin, m_dimTiles[child]);
                    cached = allEmpty ? 1 : 0;
                }
                empty = cached == 1;
            }
            if (empty)
                (saf.gate ? gatedAbove : removed) = true;
        }
        if (removed) {
            state = MacState::Skipped;
        } else if (twoOperands) {
            // 0 nonzero, 1 present zero, 2 absent.
            int st[2];
            for (int i = 0; i < 2; ++i)
                st[i] = nonzeroAt(inputs[i], point) ? 0 : (compressed[i] ? 2 : 1);
            if (st[0] == 2 && st[1] == 2) {
                state = MacState::Empty;
            } else if (st[0] == 2 || st[1] == 2) {
                state = skip ? MacState::Skipped : gate ? MacState::Gated : MacState::Active;
            } else if (st[0] == 1 || st[1] == 1) {
                const bool seen = (st[0] == 1 && checked[0]) || (st[1] == 1 && checked[1]);
                state = gate && seen ? MacState::Gated : skip && seen ? MacState::Skipped : MacState::Active;
            }
            if (state == MacState::Active && gatedAbove)
                state = MacState::Gated;
        } else if (gatedAbove) {
            state = MacState::Gated;
        }
        out[static_cast<std::size_t>(mac.global)] = state;
    }
}

MacCounts countMacStates(std::span<const MacState> states)
{
    MacCounts c;
    for (auto s : states) {
        switch (s) {
        case MacState::Idle:
            ++c.idle;
            break;
        case MacState::Active:
            ++c.active;
            break;
        case MacState::Gated:
            ++c.gated;
            break;
        case MacState::Skipped:
            ++c.skipped;
            break;
        case MacState::Empty:
            ++c.empty;
            break;
        }
    }
    return c;
}

MacCounts HardwareTrace::countStep(std::int64_t step) const
{
    std::vector<MacState> states;
    macStates(step, states);
    return countMacStates(states);
}

} // namespace sparsemap::analysis
