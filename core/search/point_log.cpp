#include "search/point_log.hpp"

#include "search/search_types.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

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

void PointLog::clear()
{
    *this = PointLog();
}

void PointLog::reserve(std::size_t points, std::size_t genomeLength)
{
    for (auto* column : {&m_objective, &m_cycles, &m_energyPj, &m_edp})
        column->reserve(points);
    m_generation.reserve(points);
    m_valid.reserve(points);
    m_reason.reserve(points);
    m_genes.reserve(points * genomeLength * static_cast<std::size_t>(m_geneWidth));
}

void PointLog::widen(int width)
{
    if (width <= m_geneWidth)
        return;
    const std::size_t count = m_genes.size() / static_cast<std::size_t>(m_geneWidth);
    std::vector<std::byte> wider(count * static_cast<std::size_t>(width));
    wider.reserve(m_genes.capacity() / static_cast<std::size_t>(m_geneWidth) *
                  static_cast<std::size_t>(width));
    for (std::size_t g = 0; g < count; ++g)
        writeGene(wider.data() + g * static_cast<std::size_t>(width), width,
                  readGene(m_genes.data() + g * static_cast<std::size_t>(m_geneWidth), m_geneWidth));
    m_genes = std::move(wider);
    m_geneWidth = width;
}

std::byte* PointLog::growGenes(std::size_t length, int width)
{
    const std::size_t n = size();
    if (n == 0) {
        m_genomeLength = static_cast<std::uint32_t>(length);
        m_starts.clear();
    } else if (m_genomeLength != kVaryingLength && length != m_genomeLength) {
        m_starts.resize(n + 1);
        for (std::size_t i = 0; i <= n; ++i)
            m_starts[i] = i * m_genomeLength;
        m_genomeLength = kVaryingLength;
    }
    widen(width);
    const std::size_t at = m_genes.size();
    m_genes.resize(at + length * static_cast<std::size_t>(m_geneWidth));
    if (m_genomeLength == kVaryingLength)
        m_starts.push_back(m_starts.back() + length);
    return m_genes.data() + at;
}

void PointLog::pushScalars(int generation)
{
    m_generation.push_back(generation);
    m_valid.push_back(0);
    m_objective.push_back(std::numeric_limits<double>::infinity());
    m_cycles.push_back(0);
    m_energyPj.push_back(0);
    m_edp.push_back(0);
    m_reason.push_back(0);
}

void PointLog::append(std::span<const int> genome, int generation)
{
    int width = 1;
    if (!genome.empty()) {
        const auto [low, high] = std::minmax_element(genome.begin(), genome.end());
        width = widthFor(*low, *high);
    }
    std::byte* at = growGenes(genome.size(), width);
    for (int gene : genome) {
        writeGene(at, m_geneWidth, gene);
        at += m_geneWidth;
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
    last = std::min(last, other.size());
    if (first >= last)
        return;
    constexpr std::uint32_t kUnmapped = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> reasonMap(other.m_reasonTable.size() + 1, kUnmapped); // theirs -> ours
    reasonMap[0] = 0;
    for (std::size_t i = first; i < last; ++i) {
        const GenomeView g = other.genome(i);
        std::byte* at = growGenes(g.size(), other.m_geneWidth);
        if (other.m_geneWidth == m_geneWidth && !g.empty())
            std::memcpy(at,
                        other.m_genes.data() + other.genomeStart(i) * static_cast<std::size_t>(m_geneWidth),
                        g.size() * static_cast<std::size_t>(m_geneWidth));
        else
            for (std::size_t k = 0; k < g.size(); ++k)
                writeGene(at + k * static_cast<std::size_t>(m_geneWidth), m_geneWidth, g[k]);
        std::uint32_t& reason = reasonMap[other.m_reason[i]];
        if (reason == kUnmapped)
            reason = intern(other.m_reasonTable[other.m_reason[i] - 1]);
        m_reason.push_back(reason);
    }
    const auto copy = [&](auto& mine, const auto& theirs) {
        mine.insert(mine.end(), theirs.begin() + std::ptrdiff_t(first),
                    theirs.begin() + std::ptrdiff_t(last));
    };
    copy(m_generation, other.m_generation);
    copy(m_valid, other.m_valid);
    copy(m_objective, other.m_objective);
    copy(m_cycles, other.m_cycles);
    copy(m_energyPj, other.m_energyPj);
    copy(m_edp, other.m_edp);
}

std::size_t PointLog::genomeStart(std::size_t i) const
{
    return m_genomeLength == kVaryingLength ? m_starts[i] : i * m_genomeLength;
}

void PointLog::setResult(std::size_t i, bool valid, double cycles, double energyPj, double edp,
                         double objective)
{
    m_valid[i] = valid ? 1 : 0;
    m_cycles[i] = cycles;
    m_energyPj[i] = energyPj;
    m_edp[i] = edp;
    m_objective[i] = objective;
}

std::uint32_t PointLog::intern(std::string_view reason)
{
    if (reason.empty())
        return 0;
    if (const auto it = m_reasonIndex.find(reason); it != m_reasonIndex.end())
        return it->second;
    m_reasonTable.emplace_back(reason);
    const auto index = static_cast<std::uint32_t>(m_reasonTable.size());
    m_reasonIndex.emplace(m_reasonTable.back(), index);
    return index;
}

void PointLog::setReason(std::size_t i, std::string_view reason)
{
    m_reason[i] = intern(reason);
}

GenomeView PointLog::genome(std::size_t i) const
{
    const std::size_t start = genomeStart(i);
    const std::size_t length = m_genomeLength == kVaryingLength ? m_starts[i + 1] - start : m_genomeLength;
    return {m_genes.data() + start * static_cast<std::size_t>(m_geneWidth), length, m_geneWidth};
}

int PointLog::gene(std::size_t i, std::size_t g) const
{
    return readGene(m_genes.data() + (i * m_genomeLength + g) * static_cast<std::size_t>(m_geneWidth),
                    m_geneWidth);
}

PointView PointLog::operator[](std::size_t i) const
{
    PointView p;
    p.genome = genome(i);
    p.valid = m_valid[i] != 0;
    if (const std::uint32_t r = m_reason[i])
        p.reason = m_reasonTable[r - 1];
    p.cycles = m_cycles[i];
    p.energyPj = m_energyPj[i];
    p.edp = m_edp[i];
    p.objective = m_objective[i];
    p.generation = m_generation[i];
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
    const std::size_t length = m_genomeLength == kVaryingLength ? 0 : m_genomeLength;
    low.assign(length, std::numeric_limits<int>::max());
    high.assign(length, std::numeric_limits<int>::min());
    if (m_geneWidth == 1)
        boundsOf<std::uint8_t>(m_genes.data(), size(), length, low, high);
    else if (m_geneWidth == 2)
        boundsOf<std::int16_t>(m_genes.data(), size(), length, low, high);
    else
        boundsOf<std::int32_t>(m_genes.data(), size(), length, low, high);
}

std::int64_t PointLog::validCount() const
{
    std::int64_t n = 0;
    for (const std::uint8_t v : m_valid)
        n += v;
    return n;
}

std::size_t PointLog::memoryBytes() const
{
    std::size_t bytes =
        m_generation.capacity() * sizeof(std::int32_t) + m_valid.capacity() +
        (m_objective.capacity() + m_cycles.capacity() + m_energyPj.capacity() + m_edp.capacity()) *
            sizeof(double) +
        m_reason.capacity() * sizeof(std::uint32_t) + m_starts.capacity() * sizeof(std::uint64_t) +
        m_genes.capacity();
    for (const auto& text : m_reasonTable)
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
    log.m_generation = std::move(c.generation);
    log.m_valid = std::move(c.valid);
    log.m_objective = std::move(c.objective);
    log.m_cycles = std::move(c.cycles);
    log.m_energyPj = std::move(c.energyPj);
    log.m_edp = std::move(c.edp);
    log.m_genomeLength = n == 0 ? 0 : c.genomeLength;
    log.m_starts =
        n == 0 || c.genomeLength != kVaryingLength ? std::vector<std::uint64_t>{} : std::move(c.starts);
    log.m_geneWidth = n == 0 ? 1 : c.geneWidth;
    log.m_genes = n == 0 ? std::vector<std::byte>{} : std::move(c.genes);
    log.m_reason = std::move(c.reason);
    log.m_reasonTable = std::move(c.reasonTable);
    for (std::size_t r = 0; r < log.m_reasonTable.size(); ++r)
        log.m_reasonIndex.emplace(log.m_reasonTable[r], static_cast<std::uint32_t>(r + 1));
    return log;
}

} // namespace sparsemap::search
