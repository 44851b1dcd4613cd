#include "analysis/operand_sampling.hpp"

#include "mapping/tile_shape.hpp"
#include "util/error.hpp"
#include "util/hash.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap::analysis {

namespace {

// A uniform draw in [0, 1) for one key.
double unitDraw(std::uint64_t seed, std::uint64_t key)
{
    return static_cast<double>(splitmix64(seed ^ splitmix64(key)) >> 11) * 0x1.0p-53;
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
            m_pattern = &m_spec.actualPattern(); // throws the file's error when it could not be read
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
            if (row >= m_pattern->rows || col >= m_pattern->columns)
                return false;
            return std::binary_search(m_pattern->nonzeros.begin(), m_pattern->nonzeros.end(),
                                      row * m_pattern->columns + col);
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
    const NonzeroPattern* m_pattern = nullptr; // Actual: owned by m_spec.data
};

OperandSampling::OperandSampling(const Workload& workload, std::uint64_t seed)
{
    std::vector<std::int64_t> fullDims;
    for (const auto& d : workload.dims)
        fullDims.push_back(d.size);
    for (const auto& tensor : workload.tensors)
        m_ranks.push_back(tensor.ranks);
    m_values.resize(workload.tensors.size());
    for (int t : workload.inputTensors())
        m_values[t] = std::make_unique<OperandValues>(
            workload.tensors[t], rankExtents(workload, t, fullDims),
            splitmix64(seed * 0x100000001b3ULL + static_cast<std::uint64_t>(t)));
}

OperandSampling::~OperandSampling() = default;
OperandSampling::OperandSampling(OperandSampling&&) noexcept = default;
OperandSampling& OperandSampling::operator=(OperandSampling&&) noexcept = default;

bool OperandSampling::nonzeroAt(int tensor, const std::vector<std::int64_t>& point) const
{
    if (tensor < 0 || tensor >= static_cast<int>(m_values.size()) || !m_values[tensor])
        return true; // the output (or an unknown tensor) is not an operand: treat as present
    const auto& ranks = m_ranks[tensor];
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

bool OperandSampling::tileEmpty(int tensor, const std::vector<std::int64_t>& dimBegin,
                                const std::vector<std::int64_t>& dimSize) const
{
    if (!m_values[tensor])
        return false;
    // Walk the tile's rank coordinates (not the dims: a sliding window touches each point once).
    const auto& ranks = m_ranks[tensor];
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

} // namespace sparsemap::analysis
