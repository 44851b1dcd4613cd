#include "search/point_log.hpp"

#include "search/search_types.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <unordered_set>

namespace sparsemap::search {

int PointLog::readGene(const std::byte* at, int width)
{
    if (width == 1)
        return static_cast<int>(std::to_integer<std::uint8_t>(*at));
    if (width == 2) {
        std::int16_t v = 0;
        std::memcpy(&v, at, 2);
        return v;
    }
    std::int32_t v = 0;
    std::memcpy(&v, at, 4);
    return v;
}

void PointLog::writeGene(std::byte* at, int width, int value)
{
    if (width == 1) {
        *at = static_cast<std::byte>(value);
    } else if (width == 2) {
        const auto v = static_cast<std::int16_t>(value);
        std::memcpy(at, &v, 2);
    } else {
        const auto v = static_cast<std::int32_t>(value);
        std::memcpy(at, &v, 4);
    }
}

int GenomeView::operator[](std::size_t g) const
{
    return PointLog::readGene(m_data + g * static_cast<std::size_t>(m_width), m_width);
}

Genome GenomeView::toGenome() const
{
    Genome genome(m_size);
    for (std::size_t g = 0; g < m_size; ++g)
        genome[g] = (*this)[g];
    return genome;
}

namespace {

template <typename Genes> bool sameGenes(const GenomeView& a, const Genes& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t g = 0; g < a.size(); ++g)
        if (a[g] != b[g])
            return false;
    return true;
}

} // namespace

bool operator==(const GenomeView& a, const GenomeView& b)
{
    return sameGenes(a, b);
}

bool operator==(const GenomeView& a, const Genome& b)
{
    return sameGenes(a, b);
}

EvaluatedPoint PointView::toPoint() const
{
    EvaluatedPoint p;
    p.genome = genome.toGenome();
    p.valid = valid;
    p.reason = reason;
    p.cycles = cycles;
    p.energyPj = energyPj;
    p.edp = edp;
    p.objective = objective;
    p.generation = generation;
    return p;
}

PointLog::PointLog(std::initializer_list<EvaluatedPoint> points)
{
    for (const auto& p : points)
        push_back(p);
}

const PointLog::Data& PointLog::emptyData()
{
    static const Data empty;
    return empty;
}

PointLog::Data& PointLog::mut()
{
    // use_count() is exact enough here: when it is 1 no other copy exists that another thread could be
    // copying from (that would already race with changing this log); when other copies exist, they
    // keep the columns they share and this log takes its own.
    if (!m_d)
        m_d = std::make_shared<Data>();
    else if (m_d.use_count() > 1)
        m_d = std::make_shared<Data>(*m_d);
    return *m_d;
}

void PointLog::clear()
{
    *this = PointLog();
}

void PointLog::reserve(std::size_t points, std::size_t genomeLength)
{
    Data& d = mut();
    for (auto* column : {&d.m_objective, &d.m_cycles, &d.m_energyPj, &d.m_edp})
        column->reserve(points);
    d.m_generation.reserve(points);
    d.m_valid.reserve(points);
    d.m_reason.reserve(points);
    d.m_genes.reserve(points * genomeLength * static_cast<std::size_t>(d.m_geneWidth));
}

void PointLog::widen(int width)
{
    Data& d = mut();
    if (width <= d.m_geneWidth)
        return;
    const std::size_t count = d.m_genes.size() / static_cast<std::size_t>(d.m_geneWidth);
    std::vector<std::byte> wider(count * static_cast<std::size_t>(width));
    wider.reserve(d.m_genes.capacity() / static_cast<std::size_t>(d.m_geneWidth) *
                  static_cast<std::size_t>(width));
    for (std::size_t g = 0; g < count; ++g)
        writeGene(wider.data() + g * static_cast<std::size_t>(width), width,
                  readGene(d.m_genes.data() + g * static_cast<std::size_t>(d.m_geneWidth), d.m_geneWidth));
    d.m_genes = std::move(wider);
    d.m_geneWidth = width;
}

std::byte* PointLog::growGenes(std::size_t length, int width)
{
    Data& d = mut();
    const std::size_t n = size();
    if (n == 0) {
        d.m_genomeLength = static_cast<std::uint32_t>(length);
        d.m_starts.clear();
    } else if (d.m_genomeLength != kVaryingLength && length != d.m_genomeLength) {
        d.m_starts.resize(n + 1);
        for (std::size_t i = 0; i <= n; ++i)
            d.m_starts[i] = i * d.m_genomeLength;
        d.m_genomeLength = kVaryingLength;
    }
    widen(width);
    const std::size_t at = d.m_genes.size();
    d.m_genes.resize(at + length * static_cast<std::size_t>(d.m_geneWidth));
    if (d.m_genomeLength == kVaryingLength)
        d.m_starts.push_back(d.m_starts.back() + length);
    return d.m_genes.data() + at;
}

void PointLog::pushScalars(int generation)
{
    Data& d = mut();
    d.m_generation.push_back(generation);
    d.m_valid.push_back(0);
    d.m_objective.push_back(std::numeric_limits<double>::infinity());
    d.m_cycles.push_back(0);
    d.m_energyPj.push_back(0);
    d.m_edp.push_back(0);
    d.m_reason.push_back(0);
}

void PointLog::append(std::span<const int> genome, int generation)
{
    Data& d = mut();
    int width = 1;
    if (!genome.empty()) {
        const auto [low, high] = std::minmax_element(genome.begin(), genome.end());
        width = widthFor(*low, *high);
    }
    std::byte* at = growGenes(genome.size(), width);
    for (int gene : genome) {
        writeGene(at, d.m_geneWidth, gene);
        at += d.m_geneWidth;
    }
    pushScalars(generation);
}

void PointLog::push_back(const EvaluatedPoint& p)
{
    append(p.genome, p.generation);
    const std::size_t i = size() - 1;
    setResult(i, p.valid, p.cycles, p.energyPj, p.edp, p.objective);
    setReason(i, p.reason);
}

void PointLog::append(const PointLog& other, std::size_t first, std::size_t last)
{
    Data& d = mut();
    const Data& od = other.data();
    last = std::min(last, other.size());
    if (first >= last)
        return;
    constexpr std::uint32_t kUnmapped = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> reasonMap(od.m_reasonTable.size() + 1, kUnmapped); // theirs -> ours
    reasonMap[0] = 0;
    for (std::size_t i = first; i < last; ++i) {
        const GenomeView g = other.genome(i);
        std::byte* at = growGenes(g.size(), od.m_geneWidth);
        if (od.m_geneWidth == d.m_geneWidth && !g.empty())
            std::memcpy(at,
                        od.m_genes.data() + other.genomeStart(i) * static_cast<std::size_t>(d.m_geneWidth),
                        g.size() * static_cast<std::size_t>(d.m_geneWidth));
        else
            for (std::size_t k = 0; k < g.size(); ++k)
                writeGene(at + k * static_cast<std::size_t>(d.m_geneWidth), d.m_geneWidth, g[k]);
        std::uint32_t& reason = reasonMap[od.m_reason[i]];
        if (reason == kUnmapped)
            reason = intern(od.m_reasonTable[od.m_reason[i] - 1]);
        d.m_reason.push_back(reason);
    }
    const auto copy = [&](auto& mine, const auto& theirs) {
        mine.insert(mine.end(), theirs.begin() + std::ptrdiff_t(first),
                    theirs.begin() + std::ptrdiff_t(last));
    };
    copy(d.m_generation, od.m_generation);
    copy(d.m_valid, od.m_valid);
    copy(d.m_objective, od.m_objective);
    copy(d.m_cycles, od.m_cycles);
    copy(d.m_energyPj, od.m_energyPj);
    copy(d.m_edp, od.m_edp);
}

std::size_t PointLog::genomeStart(std::size_t i) const
{
    const Data& d = data();
    return d.m_genomeLength == kVaryingLength ? d.m_starts[i] : i * d.m_genomeLength;
}

void PointLog::setResult(std::size_t i, bool valid, double cycles, double energyPj, double edp,
                         double objective)
{
    Data& d = mut();
    d.m_valid[i] = valid ? 1 : 0;
    d.m_cycles[i] = cycles;
    d.m_energyPj[i] = energyPj;
    d.m_edp[i] = edp;
    d.m_objective[i] = objective;
}

std::uint32_t PointLog::intern(std::string_view reason)
{
    Data& d = mut();
    if (reason.empty())
        return 0;
    if (const auto it = d.m_reasonIndex.find(reason); it != d.m_reasonIndex.end())
        return it->second;
    d.m_reasonTable.emplace_back(reason);
    const auto index = static_cast<std::uint32_t>(d.m_reasonTable.size());
    d.m_reasonIndex.emplace(d.m_reasonTable.back(), index);
    return index;
}

void PointLog::setReason(std::size_t i, std::string_view reason)
{
    Data& d = mut();
    d.m_reason[i] = intern(reason);
}

GenomeView PointLog::genome(std::size_t i) const
{
    const Data& d = data();
    const std::size_t start = genomeStart(i);
    const std::size_t length =
        d.m_genomeLength == kVaryingLength ? d.m_starts[i + 1] - start : d.m_genomeLength;
    return {d.m_genes.data() + start * static_cast<std::size_t>(d.m_geneWidth), length, d.m_geneWidth};
}

int PointLog::gene(std::size_t i, std::size_t g) const
{
    const Data& d = data();
    return readGene(d.m_genes.data() + (i * d.m_genomeLength + g) * static_cast<std::size_t>(d.m_geneWidth),
                    d.m_geneWidth);
}

PointView PointLog::operator[](std::size_t i) const
{
    const Data& d = data();
    PointView p;
    p.genome = genome(i);
    p.valid = d.m_valid[i] != 0;
    if (const std::uint32_t r = d.m_reason[i])
        p.reason = d.m_reasonTable[r - 1];
    p.cycles = d.m_cycles[i];
    p.energyPj = d.m_energyPj[i];
    p.edp = d.m_edp[i];
    p.objective = d.m_objective[i];
    p.generation = d.m_generation[i];
    return p;
}

PointView PointLog::at(std::size_t i) const
{
    if (i >= size())
        throw std::out_of_range("point " + std::to_string(i) + " of a log of " + std::to_string(size()));
    return (*this)[i];
}

namespace {

template <typename T>
void boundsOf(const std::byte* bytes, std::size_t n, std::size_t length, std::vector<int>& low,
              std::vector<int>& high)
{
    for (std::size_t i = 0; i < n; ++i, bytes += length * sizeof(T))
        for (std::size_t g = 0; g < length; ++g) {
            T gene;
            std::memcpy(&gene, bytes + g * sizeof(T), sizeof(T)); // a plain load, without aliasing doubts
            low[g] = std::min<int>(low[g], gene);
            high[g] = std::max<int>(high[g], gene);
        }
}

} // namespace

void PointLog::geneBounds(std::vector<int>& low, std::vector<int>& high) const
{
    const Data& d = data();
    const std::size_t length = d.m_genomeLength == kVaryingLength ? 0 : d.m_genomeLength;
    low.assign(length, std::numeric_limits<int>::max());
    high.assign(length, std::numeric_limits<int>::min());
    if (d.m_geneWidth == 1)
        boundsOf<std::uint8_t>(d.m_genes.data(), size(), length, low, high);
    else if (d.m_geneWidth == 2)
        boundsOf<std::int16_t>(d.m_genes.data(), size(), length, low, high);
    else
        boundsOf<std::int32_t>(d.m_genes.data(), size(), length, low, high);
}

std::int64_t PointLog::validCount() const
{
    const Data& d = data();
    std::int64_t n = 0;
    for (const std::uint8_t v : d.m_valid)
        n += v;
    return n;
}

std::int64_t PointLog::repeatedObjectiveCount() const
{
    const Data& d = data();
    std::unordered_set<double> seen;
    seen.reserve(d.m_valid.size());
    std::int64_t n = 0;
    for (std::size_t i = 0; i < d.m_valid.size(); ++i)
        if (d.m_valid[i] && !seen.insert(d.m_objective[i]).second)
            ++n;
    return n;
}

std::size_t PointLog::memoryBytes() const
{
    const Data& d = data();
    std::size_t bytes =
        d.m_generation.capacity() * sizeof(std::int32_t) + d.m_valid.capacity() +
        (d.m_objective.capacity() + d.m_cycles.capacity() + d.m_energyPj.capacity() + d.m_edp.capacity()) *
            sizeof(double) +
        d.m_reason.capacity() * sizeof(std::uint32_t) + d.m_starts.capacity() * sizeof(std::uint64_t) +
        d.m_genes.capacity();
    for (const auto& text : d.m_reasonTable)
        bytes += sizeof(std::string) + text.capacity() + 2 * sizeof(void*) + sizeof(std::string);
    return bytes;
}

PointLog PointLog::fromColumns(Columns c)
{
    const std::size_t n = c.generation.size();
    const auto fail = [](const std::string& what) {
        throw std::invalid_argument("point log columns: " + what);
    };
    for (const std::size_t size : {c.valid.size(), c.objective.size(), c.cycles.size(), c.energyPj.size(),
                                   c.edp.size(), c.reason.size()})
        if (size != n)
            fail("columns of different lengths");
    if (c.geneWidth != 1 && c.geneWidth != 2 && c.geneWidth != 4)
        fail("a gene width of " + std::to_string(c.geneWidth) + " bytes (1, 2 or 4 are allowed)");
    const auto width = static_cast<std::size_t>(c.geneWidth);
    if (c.genomeLength == kVaryingLength) {
        if (c.starts.size() != n + 1 || c.starts[0] != 0 || c.starts.back() * width != c.genes.size() ||
            !std::is_sorted(c.starts.begin(), c.starts.end()))
            fail("genome starts that do not index the genes");
    } else if (c.genes.size() != n * c.genomeLength * width) {
        fail("genes that are not one genome per point");
    }
    for (const std::uint8_t v : c.valid)
        if (v > 1)
            fail("a valid flag other than 0 or 1");
    for (const std::uint32_t r : c.reason)
        if (r > c.reasonTable.size())
            fail("reason " + std::to_string(r) + " of " + std::to_string(c.reasonTable.size()));
    PointLog log;
    Data& ld = log.mut();
    ld.m_generation = std::move(c.generation);
    ld.m_valid = std::move(c.valid);
    ld.m_objective = std::move(c.objective);
    ld.m_cycles = std::move(c.cycles);
    ld.m_energyPj = std::move(c.energyPj);
    ld.m_edp = std::move(c.edp);
    ld.m_genomeLength = n == 0 ? 0 : c.genomeLength;
    ld.m_starts =
        n == 0 || c.genomeLength != kVaryingLength ? std::vector<std::uint64_t>{} : std::move(c.starts);
    ld.m_geneWidth = n == 0 ? 1 : c.geneWidth;
    ld.m_genes = n == 0 ? std::vector<std::byte>{} : std::move(c.genes);
    ld.m_reason = std::move(c.reason);
    ld.m_reasonTable = std::move(c.reasonTable);
    for (std::size_t r = 0; r < ld.m_reasonTable.size(); ++r)
        ld.m_reasonIndex.emplace(ld.m_reasonTable[r], static_cast<std::uint32_t>(r + 1));
    return log;
}

} // namespace sparsemap::search
