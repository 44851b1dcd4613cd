// encodePointLog / decodePointLog (point_log_codec.hpp). The uncompressed layout, all little-endian
// (docs/file-formats.md): magic "SMPL", layout version, count N, then the columns generation (i32 x N),
// valid (u8 x N), objective, cycles, energy_pj, edp (f64 x N each), the genome (uniform length G: per
// gene its least value (i32), a width w of 1, 2 or 4 bytes and N offsets of w bytes; otherwise
// N lengths (u32) and every gene as i32, point after point), the reason dictionary (u32 entries, each
// u32 length + bytes) and N reason indices (u32, 0 = no reason, i = entry i - 1).
#include "io/point_log_codec.hpp"

#include <zstd.h>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <type_traits>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <unordered_map>

namespace sparsemap {

namespace detail {

IoTicker::IoTicker(const IoControl* control, std::int64_t totalUnits)
    : m_control(control), m_total(std::max<std::int64_t>(totalUnits, 1))
{
}

void IoTicker::advance(std::int64_t units)
{
    checkCancelled();
    const std::lock_guard lock(m_mutex);
    m_done = std::min(m_total, m_done + units);
    const bool due =
        (m_done - m_lastReported) * 200 >= m_total || (m_done == m_total && m_lastReported != m_total);
    if (m_control && m_control->progress && due) {
        m_lastReported = m_done;
        m_control->progress(static_cast<double>(m_done) / static_cast<double>(m_total));
    }
}

void IoTicker::checkCancelled() const
{
    if (m_control && m_control->cancel && m_control->cancel->cancelled())
        throw OperationCancelled();
}

} // namespace detail

namespace {

constexpr std::uint32_t kMagic = 0x4c504d53; // "SMPL" read as a little-endian u32
constexpr std::uint32_t kLayoutVersion = 1;
constexpr std::uint32_t kVaryingLength = std::numeric_limits<std::uint32_t>::max();
constexpr int kZstdLevel = 1; // the fast end: a 2M-point run compresses in a fraction of a second
constexpr std::size_t kChunk = std::size_t(4) << 20;
constexpr int kZstdWorkers = 2;

template <typename T> void put(std::string& out, T value)
{
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, sizeof(T));
}

void putColumn(std::string& out, std::span<const double> column)
{
    const std::size_t at = out.size();
    out.resize(at + column.size() * sizeof(double));
    if (!column.empty()) // an empty span's data() may be null, which memcpy must not be given
        std::memcpy(out.data() + at, column.data(), column.size() * sizeof(double));
}

// Genomes are walked in blocks of points, gene by gene within a block: each gene's column is read or
// written in order while the block's genomes stay in the cache.
constexpr std::size_t kBlock = 4096;

// Calls f with a value of W1, W2 or W4 for a `width` of 1, 2 or 4 bytes (any other width: W4).
template <typename W1, typename W2, typename W4, typename F> void byWidth(int width, F f)
{
    if (width == 1)
        f(W1{});
    else if (width == 2)
        f(W2{});
    else
        f(W4{});
}

// Calls f with a value of the unsigned type of a gene column's `width` (1, 2 or 4 bytes).
template <typename F> void byOffsetType(int width, F f)
{
    byWidth<std::uint8_t, std::uint16_t, std::uint32_t>(width, f);
}

// One gene's column of offsets from its least value (`width` bytes each, little-endian) against the
// log's genome array (T per gene, `length` genes a genome). Char: char to store, const char to load.
template <typename Char> struct GeneColumn {
    Char* offsets; // of points firstPoint, firstPoint + 1, ...
    int width;
    int low;
    std::size_t gene, length;
    std::size_t firstPoint = 0;

    template <typename T, typename O>
    void storeAs(const std::byte* genes, std::size_t first, std::size_t last) const
    {
        for (std::size_t i = first; i < last; ++i) {
            T value;
            std::memcpy(&value, genes + (i * length + gene) * sizeof(T), sizeof(T));
            const auto offset = static_cast<O>(std::int64_t(value) - low);
            std::memcpy(offsets + (i - firstPoint) * sizeof(O), &offset, sizeof(O));
        }
    }
    template <typename T> void store(const std::byte* genes, std::size_t first, std::size_t last) const
    {
        byOffsetType(width, [&](auto o) { storeAs<T, decltype(o)>(genes, first, last); });
    }
    template <typename T, typename O> void loadAs(std::byte* genes, std::size_t first, std::size_t last) const
    {
        for (std::size_t i = first; i < last; ++i) {
            O offset;
            std::memcpy(&offset, offsets + (i - firstPoint) * sizeof(O), sizeof(O));
            const auto value = static_cast<T>(std::int64_t(low) + offset);
            std::memcpy(genes + (i * length + gene) * sizeof(T), &value, sizeof(T));
        }
    }
    template <typename T> void load(std::byte* genes, std::size_t first, std::size_t last) const
    {
        byOffsetType(width, [&](auto o) { loadAs<T, decltype(o)>(genes, first, last); });
    }
};

std::string rawColumnsLayout1(const search::PointLog& log)
{
    using search::PointLog;
    const std::size_t n = log.size();
    const std::uint32_t genomeLength = n ? log.genomeLength() : 0;
    const bool varying = genomeLength == PointLog::kVaryingLength;
    const auto width = static_cast<std::size_t>(log.geneWidth());
    const std::byte* genes = log.geneBytes().data();
    std::string out;
    out.reserve(64 + n * (4 + 1 + 32 + 4 + (varying ? 0 : genomeLength * 2)));
    put(out, kMagic);
    put(out, kLayoutVersion);
    put(out, static_cast<std::uint64_t>(n));
    for (const std::int32_t generation : log.generations())
        put(out, generation);
    for (const std::uint8_t valid : log.validFlags())
        out += static_cast<char>(valid);
    for (const auto column : {log.objectives(), log.cycles(), log.energiesPj(), log.edps()})
        putColumn(out, column);

    put(out, genomeLength);
    if (varying) {
        const auto starts = log.starts();
        for (std::size_t i = 0; i < n; ++i)
            put(out, static_cast<std::uint32_t>(starts[i + 1] - starts[i]));
        for (std::size_t k = 0; k < starts[n]; ++k)
            put(out, static_cast<std::int32_t>(PointLog::readGene(genes + k * width, log.geneWidth())));
    } else {
        // Column by column: a gene's values across a run repeat and compress far better than rows.
        std::vector<int> low, high;
        log.geneBounds(low, high);
        std::vector<int> columnWidth(genomeLength);
        std::vector<std::size_t> start(genomeLength); // where each gene's offsets begin in `out`
        for (std::size_t g = 0; g < genomeLength; ++g) {
            const auto span = static_cast<std::uint64_t>(std::int64_t(high[g]) - low[g]);
            columnWidth[g] = span < 0x100 ? 1 : span < 0x10000 ? 2 : 4;
            put(out, static_cast<std::int32_t>(low[g]));
            out += static_cast<char>(columnWidth[g]);
            start[g] = out.size();
            out.resize(out.size() + n * static_cast<std::size_t>(columnWidth[g]));
        }
        for (std::size_t first = 0; first < n; first += kBlock)
            for (std::size_t g = 0; g < genomeLength; ++g) {
                const std::size_t last = std::min(n, first + kBlock);
                const GeneColumn<char> column{out.data() + start[g], columnWidth[g], low[g], g, genomeLength};
                if (width == 1)
                    column.store<std::uint8_t>(genes, first, last);
                else if (width == 2)
                    column.store<std::int16_t>(genes, first, last);
                else
                    column.store<std::int32_t>(genes, first, last);
            }
    }

    const auto& table = log.reasonTable();
    put(out, static_cast<std::uint32_t>(table.size()));
    for (const auto& text : table) {
        put(out, static_cast<std::uint32_t>(text.size()));
        out.append(text);
    }
    const auto reasons = log.reasonIndices();
    const std::size_t at = out.size();
    out.resize(at + n * sizeof(std::uint32_t));
    if (n > 0)
        std::memcpy(out.data() + at, reasons.data(), n * sizeof(std::uint32_t));
    return out;
}

// Reads the columns of rawColumnsLayout1() and of a layout-2 group with a bounds check on every read.
class ColumnReader {
public:
    explicit ColumnReader(std::string_view bytes) : m_bytes(bytes) {}

    template <typename T> bool get(T& value)
    {
        if (m_bytes.size() - m_at < sizeof(T))
            return false;
        std::memcpy(&value, m_bytes.data() + m_at, sizeof(T));
        m_at += sizeof(T);
        return true;
    }
    bool take(std::size_t size, std::string_view& out)
    {
        if (m_bytes.size() - m_at < size)
            return false;
        out = m_bytes.substr(m_at, size);
        m_at += size;
        return true;
    }
    bool has(std::uint64_t count, std::size_t width) const
    {
        return count <= (m_bytes.size() - m_at) / width;
    }
    bool atEnd() const { return m_at == m_bytes.size(); }

private:
    std::string_view m_bytes;
    std::size_t m_at = 0;
};

template <typename T> bool getColumn(ColumnReader& in, std::vector<T>& column, std::size_t n)
{
    std::string_view bytes;
    if (!in.has(n, sizeof(T)) || !in.take(n * sizeof(T), bytes))
        return false;
    column.resize(n);
    if (!bytes.empty())
        std::memcpy(column.data(), bytes.data(), bytes.size());
    return true;
}

std::optional<search::PointLog> parseColumnsLayout1(std::string_view raw, std::int64_t count,
                                                    std::string& error)
{
    using search::PointLog;
    ColumnReader in(raw);
    std::uint32_t magic = 0, version = 0;
    std::uint64_t n = 0;
    if (!in.get(magic) || !in.get(version) || !in.get(n) || magic != kMagic) {
        error = "is not a point log (" + std::string(kPointLogEncoding) + ")";
        return std::nullopt;
    }
    if (version != kLayoutVersion) {
        error = "has column layout " + std::to_string(version) + " but its encoding " +
                std::string(kPointLogEncodingLayout1) + " is layout 1";
        return std::nullopt;
    }
    if (n != static_cast<std::uint64_t>(count)) {
        error = "holds " + std::to_string(n) + " points but `count` says " + std::to_string(count);
        return std::nullopt;
    }
    const auto truncated = [&] {
        error = "is truncated (the columns end early)";
        return std::nullopt;
    };
    // Every point needs at least 41 bytes of fixed columns: refuse a count the data cannot hold
    // before allocating for it.
    if (!in.has(n, 4 + 1 + 32 + 4))
        return truncated();
    PointLog::Columns c;
    getColumn(in, c.generation, n);
    getColumn(in, c.valid, n);
    for (const auto& v : c.valid)
        if (v > 1) {
            error = "has a valid flag other than 0 or 1";
            return std::nullopt;
        }
    for (auto* column : {&c.objective, &c.cycles, &c.energyPj, &c.edp})
        getColumn(in, *column, n);

    if (!in.get(c.genomeLength))
        return truncated();
    const auto tooLarge = [&](std::uint32_t g, std::int64_t gene) {
        error =
            "has gene " + std::to_string(g + 1) + " (" + std::to_string(gene) + ") beyond the integer range";
        return std::nullopt;
    };
    if (n == 0 && c.genomeLength == PointLog::kVaryingLength) {
        c.genomeLength = 0; // nothing varies in an empty log
    } else if (c.genomeLength == PointLog::kVaryingLength) {
        if (!in.has(n, 4))
            return truncated();
        c.starts.resize(n + 1);
        for (std::size_t i = 0; i < n; ++i) {
            std::uint32_t length = 0;
            in.get(length);
            c.starts[i + 1] = c.starts[i] + length;
            if (!in.has(c.starts[i + 1], 4))
                return truncated();
        }
        std::vector<std::int32_t> genes;
        getColumn(in, genes, c.starts[n]);
        std::int64_t low = 0, high = 0;
        if (!genes.empty()) {
            const auto [lo, hi] = std::minmax_element(genes.begin(), genes.end());
            low = *lo;
            high = *hi;
        }
        c.geneWidth = PointLog::widthFor(low, high);
        c.genes.resize(genes.size() * static_cast<std::size_t>(c.geneWidth));
        for (std::size_t k = 0; k < genes.size(); ++k)
            PointLog::writeGene(c.genes.data() + k * static_cast<std::size_t>(c.geneWidth), c.geneWidth,
                                genes[k]);
    } else {
        const std::uint32_t length = c.genomeLength;
        if (length > 100000 || !in.has(std::uint64_t(length) * n, 1))
            return truncated();
        // The columns are located first, then the genomes filled block by block (see rawColumnsLayout1).
        std::vector<std::int32_t> low(length);
        std::vector<std::uint8_t> width(length);
        std::vector<std::string_view> column(length);
        std::int64_t least = 0, most = 0;
        for (std::uint32_t g = 0; g < length; ++g) {
            if (!in.get(low[g]) || !in.get(width[g]))
                return truncated();
            if (width[g] != 1 && width[g] != 2 && width[g] != 4) {
                error = "gives gene " + std::to_string(g + 1) + " a width of " + std::to_string(width[g]) +
                        " bytes (1, 2 or 4 are allowed)";
                return std::nullopt;
            }
            if (!in.has(n, width[g]) || !in.take(n * width[g], column[g]))
                return truncated();
            const auto largest = [&, g](auto type) { // the largest offset of the column
                using O = decltype(type);
                std::uint32_t top = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    O offset;
                    std::memcpy(&offset, column[g].data() + i * sizeof(O), sizeof(O));
                    top = std::max<std::uint32_t>(top, offset);
                }
                return top;
            };
            std::uint32_t top = 0;
            byOffsetType(width[g], [&](auto o) { top = largest(o); });
            const std::int64_t highest = std::int64_t(low[g]) + top;
            if (highest > std::numeric_limits<int>::max())
                return tooLarge(g, highest);
            least = g == 0 ? low[g] : std::min<std::int64_t>(least, low[g]);
            most = g == 0 ? highest : std::max(most, highest);
        }
        c.geneWidth = PointLog::widthFor(least, most);
        c.genes.resize(n * length * static_cast<std::size_t>(c.geneWidth));
        for (std::size_t first = 0; first < n; first += kBlock)
            for (std::uint32_t g = 0; g < length; ++g) {
                const std::size_t last = std::min<std::size_t>(n, first + kBlock);
                const GeneColumn<const char> gene{column[g].data(), width[g], low[g], g, length};
                if (c.geneWidth == 1)
                    gene.load<std::uint8_t>(c.genes.data(), first, last);
                else if (c.geneWidth == 2)
                    gene.load<std::int16_t>(c.genes.data(), first, last);
                else
                    gene.load<std::int32_t>(c.genes.data(), first, last);
            }
    }

    std::uint32_t entries = 0;
    if (!in.get(entries) || !in.has(entries, 4))
        return truncated();
    c.reasonTable.resize(entries);
    for (auto& text : c.reasonTable) {
        std::uint32_t size = 0;
        std::string_view bytes;
        if (!in.get(size) || !in.take(size, bytes))
            return truncated();
        text = bytes;
    }
    if (!getColumn(in, c.reason, n))
        return truncated();
    for (const std::uint32_t r : c.reason)
        if (r > entries) {
            error = "names reason " + std::to_string(r) + " of " + std::to_string(entries);
            return std::nullopt;
        }
    if (!in.atEnd()) {
        error = "has bytes after its last column";
        return std::nullopt;
    }
    try {
        return PointLog::fromColumns(std::move(c));
    } catch (const std::invalid_argument& e) {
        error = std::string("is inconsistent (") + e.what() + ")";
        return std::nullopt;
    }
}

struct CCtxDeleter {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxDeleter {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

} // namespace

std::string encodePointLogLayout1(const search::PointLog& points)
{
    const std::string raw = rawColumnsLayout1(points);
    std::unique_ptr<ZSTD_CCtx, CCtxDeleter> cctx(ZSTD_createCCtx());
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, kZstdLevel);
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setPledgedSrcSize(cctx.get(), raw.size());
    // Two compression threads whatever the machine (the bytes depend on the worker count only
    // between 0 and >= 1; a library without threads ignores this and compresses on this thread).
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_nbWorkers, kZstdWorkers);
    // The frame is collected through a chunk-sized buffer: nothing of compressBound size is zeroed.
    std::string out;
    out.reserve(raw.size() / 4);
    const auto buffer = std::make_unique<char[]>(kChunk);
    ZSTD_outBuffer output{buffer.get(), kChunk, 0};
    const auto collect = [&] {
        out.append(buffer.get(), output.pos);
        output.pos = 0;
    };
    for (std::size_t at = 0; at < raw.size() || at == 0;) {
        const std::size_t size = std::min(kChunk, raw.size() - at);
        const bool last = at + size == raw.size();
        ZSTD_inBuffer input{raw.data() + at, size, 0};
        std::size_t left = 0;
        do {
            left = ZSTD_compressStream2(cctx.get(), &output, &input, last ? ZSTD_e_end : ZSTD_e_continue);
            if (ZSTD_isError(left))
                throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(left));
            collect();
        } while (last ? left != 0 : input.pos < input.size);
        at += size;
        if (last)
            break;
    }
    return out;
}

namespace {

std::optional<search::PointLog> decodeLayout1(std::string_view bytes, std::int64_t count, std::string& error,
                                              detail::IoTicker* ticker)
{
    std::unique_ptr<ZSTD_DCtx, DCtxDeleter> dctx(ZSTD_createDCtx());
    const unsigned long long declared = ZSTD_getFrameContentSize(bytes.data(), bytes.size());
    if (declared == ZSTD_CONTENTSIZE_ERROR || declared == ZSTD_CONTENTSIZE_UNKNOWN) {
        error = "is not a zstd frame with its size (" + std::string(kPointLogEncoding) + ")";
        return std::nullopt;
    }
    // zstd cannot expand data more than ~32000-fold; a larger claim is a corrupt header.
    if (declared / 32768 > bytes.size() + 1) {
        error = "claims " + std::to_string(declared) + " bytes of columns, more than " +
                std::to_string(bytes.size()) + " compressed bytes can hold";
        return std::nullopt;
    }
    // Not zeroed first: zstd writes every byte (checked below: output.pos must reach the size).
    const auto size = static_cast<std::size_t>(declared);
    const auto raw = std::make_unique_for_overwrite<char[]>(std::max<std::size_t>(size, 1));
    ZSTD_outBuffer output{raw.get(), size, 0};
    std::int64_t reported = 0;
    std::size_t left = 1;
    std::size_t at = 0;
    while (at < bytes.size() && left != 0) {
        ZSTD_inBuffer input{bytes.data() + at, std::min(kChunk, bytes.size() - at), 0};
        const std::size_t outputBefore = output.pos;
        left = ZSTD_decompressStream(dctx.get(), &output, &input);
        if (ZSTD_isError(left)) {
            error = std::string("is corrupt (zstd: ") + ZSTD_getErrorName(left) + ")";
            return std::nullopt;
        }
        at += input.pos;
        if (input.pos == 0 && output.pos == outputBefore)
            break; // no progress: the frame wants more room than it declared
        if (ticker) {
            ticker->advance(static_cast<std::int64_t>(at) - reported);
            reported = static_cast<std::int64_t>(at);
        }
    }
    if (left != 0 || output.pos != size) {
        error = "is truncated or corrupt (the compressed data does not give the declared columns)";
        return std::nullopt;
    }
    if (at != bytes.size()) {
        error = "has " + std::to_string(bytes.size() - at) + " bytes after its zstd frame";
        return std::nullopt;
    }
    return parseColumnsLayout1(std::string_view(raw.get(), size), count, error);
}

// ---- Layout 2: a header frame, then a frame per group of kGroupPoints points --------------------------

constexpr std::uint32_t kLayout2 = 2;
constexpr std::size_t kGroupPoints = std::size_t(1) << 16;
// Fixed bytes of every point in a group: generation, valid, 4 metrics, reason index.
constexpr std::size_t kFixedPointBytes = 4 + 1 + 32 + 4;
// A zstd block of 128 KB takes at least 4 bytes: no frame expands beyond this ratio.
constexpr std::uint64_t kMaxRatio = 32768;

// The least uncompressed size of a group of m points with `genes` genes in all: layout 2's fixed
// columns, the objective's source, and (uniform length) per gene its least value and bits (the offsets
// may take none), or (varying) the lengths and 4-byte genes. A uniform group is at most 4 bytes a gene
// more.
std::uint64_t leastGroupBytes(std::uint64_t m, std::uint64_t genes, std::uint32_t genomeLength, bool varying)
{
    return m * (kFixedPointBytes + (varying ? 4 : 0)) + 1 + (varying ? 4 * genes : genomeLength * 5);
}

// The metric the objective equals (per group: the one it equals most often), so that only the
// difference of their bits is stored (all zero when the objective is that metric).
enum class ObjectiveSource : std::uint8_t { None = 0, Edp = 1, Energy = 2, Cycles = 3 };

std::uint64_t bitsOf(double x)
{
    return std::bit_cast<std::uint64_t>(x);
}

// What edp is predicted to be: cycles x energy_pj, as the model computes it (the product of two
// doubles is exact to the bit on every IEEE machine; a NaN, whose bits may differ, predicts nothing).
std::uint64_t edpPrediction(double cycles, double energyPj)
{
    const double product = cycles * energyPj;
    return std::isnan(product) ? 0 : bitsOf(product);
}

// What the objective of a point is predicted to be: +infinity for an invalid design (what the search
// gives it), else the metric `source` (1 edp, 2 energy_pj, 3 cycles; 0: nothing) of `sources`.
std::uint64_t objectivePrediction(std::uint8_t valid, std::size_t source, const double* const* sources,
                                  std::size_t i)
{
    if (!valid)
        return bitsOf(std::numeric_limits<double>::infinity());
    return source ? bitsOf(sources[source][i]) : 0;
}

// A column of doubles, each as the 8 little-endian bytes of its bits XOR those of its prediction
// (`bits(i)` gives the XOR): a metric that equals its prediction costs 8 zero bytes. (Byte planes, each
// byte of every value together, compressed worse: they hide the repeated values of a real run.)
template <typename Bits> void putValues(std::string& out, std::size_t m, Bits bits)
{
    const std::size_t at = out.size();
    out.resize(at + 8 * m);
    for (std::size_t i = 0; i < m; ++i) {
        const std::uint64_t value = bits(i);
        std::memcpy(out.data() + at + 8 * i, &value, 8);
    }
}

// The inverse: value i = the stored bits XOR `mask(i)` (the bits of the value's prediction).
template <typename Mask> void getValues(std::string_view bytes, std::size_t m, double* out, Mask mask)
{
    for (std::size_t i = 0; i < m; ++i) {
        std::uint64_t value = 0;
        std::memcpy(&value, bytes.data() + 8 * i, 8);
        out[i] = std::bit_cast<double>(value ^ mask(i));
    }
}

// What every group of one log shares.
struct LogShape {
    std::uint64_t n = 0;
    std::uint32_t genomeLength = 0; // or PointLog::kVaryingLength
    int width = 1;                  // bytes per gene of the decoded log
    std::uint32_t groupPoints = kGroupPoints;
    std::size_t groups() const { return static_cast<std::size_t>((n + groupPoints - 1) / groupPoints); }
    std::size_t first(std::size_t k) const { return k * groupPoints; }
    std::size_t last(std::size_t k) const { return std::min<std::size_t>(n, (k + 1) * groupPoints); }
};

// Bits of a gene's offsets in a group: 0 (one value), 1, 2, 4 (packed into bytes from the low bits
// up), 8, 16 or 32 (little-endian). Packing keeps few-valued genes apart from zstd's byte matching
// (random 5-valued bytes match by chance everywhere) and halves the bytes to compress.
int bitsFor(std::uint64_t span)
{
    return span == 0        ? 0
           : span < 2       ? 1
           : span < 4       ? 2
           : span < 16      ? 4
           : span < 0x100   ? 8
           : span < 0x10000 ? 16
                            : 32;
}

std::size_t packedBytes(std::size_t m, int bits)
{
    return (m * static_cast<std::size_t>(bits) + 7) / 8;
}

// The genomes of points [first, first + m) (T per gene, `length` genes a genome) as columns (gene g
// of point first + j at g * columnStride(m) + j), and back: row by row, so that one side is read or
// written in order and the other as `length` sequential streams. The stride is not a multiple of
// 4 KB (a group's 65536 points would be): the streams do not fall into one set of the cache.
std::size_t columnStride(std::size_t m)
{
    return m + 72;
}

template <typename T>
void genesToColumns(const std::byte* genes, std::size_t first, std::size_t m, std::size_t length, T* columns)
{
    const std::size_t stride = columnStride(m);
    // Blocks of rows that stay in the cache while each gene's column is filled from them.
    for (std::size_t block = 0; block < m; block += kBlock) {
        const std::size_t end = std::min(m, block + kBlock);
        for (std::size_t g = 0; g < length; ++g) {
            T* column = columns + g * stride;
            const std::byte* gene = genes + (first * length + g) * sizeof(T);
            for (std::size_t j = block; j < end; ++j)
                std::memcpy(column + j, gene + j * length * sizeof(T), sizeof(T));
        }
    }
}

template <typename T>
void columnsToGenes(const T* columns, std::size_t first, std::size_t m, std::size_t length, std::byte* genes)
{
    const std::size_t stride = columnStride(m);
    for (std::size_t block = 0; block < m; block += kBlock) {
        const std::size_t end = std::min(m, block + kBlock);
        for (std::size_t g = 0; g < length; ++g) {
            const T* column = columns + g * stride;
            std::byte* gene = genes + (first * length + g) * sizeof(T);
            for (std::size_t j = block; j < end; ++j)
                std::memcpy(gene + j * length * sizeof(T), column + j, sizeof(T));
        }
    }
}

// One gene's column of m values (T) as offsets from `low`, packed in `bits` (bitsFor) into `bytes`
// (packedBytes(m, bits), zeroed).
template <typename T> void packColumn(const T* column, std::size_t m, int low, int bits, unsigned char* bytes)
{
    const auto offset = [&](std::size_t j) {
        return static_cast<std::uint32_t>(std::int64_t(column[j]) - low);
    };
    if (bits == 8) {
        for (std::size_t j = 0; j < m; ++j)
            bytes[j] = static_cast<unsigned char>(offset(j));
    } else if (bits == 16 || bits == 32) {
        const std::size_t size = static_cast<std::size_t>(bits) / 8;
        for (std::size_t j = 0; j < m; ++j) {
            const std::uint32_t o = offset(j);
            for (std::size_t b = 0; b < size; ++b)
                bytes[j * size + b] = static_cast<unsigned char>(o >> (8 * b));
        }
    } else if (bits > 0) {
        const auto packBits = [&](auto b) { // b: a compile-time 1, 2 or 4
            constexpr std::size_t perByte = 8 / b;
            const std::size_t whole = m / perByte;
            for (std::size_t k = 0; k < whole; ++k) {
                std::uint32_t byte = 0;
                for (std::size_t t = 0; t < perByte; ++t)
                    byte |= offset(k * perByte + t) << (t * b);
                bytes[k] = static_cast<unsigned char>(byte);
            }
            for (std::size_t j = whole * perByte; j < m; ++j)
                bytes[j / perByte] |= static_cast<unsigned char>(offset(j) << (j % perByte * b));
        };
        if (bits == 1)
            packBits(std::integral_constant<std::size_t, 1>{});
        else if (bits == 2)
            packBits(std::integral_constant<std::size_t, 2>{});
        else
            packBits(std::integral_constant<std::size_t, 4>{});
    }
}

// The inverse of packColumn; returns the largest offset (what the caller checks against T's range).
template <typename T>
std::uint32_t unpackColumn(const unsigned char* bytes, std::size_t m, int low, int bits, T* column)
{
    std::uint32_t top = 0;
    const auto store = [&](std::size_t j, std::uint32_t o) {
        top = std::max(top, o);
        column[j] = static_cast<T>(std::int64_t(low) + o);
    };
    if (bits == 0) {
        for (std::size_t j = 0; j < m; ++j)
            store(j, 0);
    } else if (bits == 8) {
        for (std::size_t j = 0; j < m; ++j)
            store(j, bytes[j]);
    } else if (bits == 16 || bits == 32) {
        const std::size_t size = static_cast<std::size_t>(bits) / 8;
        for (std::size_t j = 0; j < m; ++j) {
            std::uint32_t o = 0;
            for (std::size_t b = 0; b < size; ++b)
                o |= std::uint32_t(bytes[j * size + b]) << (8 * b);
            store(j, o);
        }
    } else {
        const auto unpackBits = [&](auto b) { // b: a compile-time 1, 2 or 4
            constexpr std::size_t perByte = 8 / b;
            constexpr std::uint32_t mask = (1u << b) - 1;
            const std::size_t whole = m / perByte;
            std::uint32_t most = 0; // a local: the loop keeps it in a register
            for (std::size_t k = 0; k < whole; ++k) {
                const std::uint32_t byte = bytes[k];
                for (std::size_t t = 0; t < perByte; ++t) {
                    const std::uint32_t o = (byte >> (t * b)) & mask;
                    most = std::max(most, o);
                    column[k * perByte + t] = static_cast<T>(std::int64_t(low) + o);
                }
            }
            top = most;
            for (std::size_t j = whole * perByte; j < m; ++j)
                store(j, (bytes[j / perByte] >> (j % perByte * b)) & mask);
        };
        if (bits == 1)
            unpackBits(std::integral_constant<std::size_t, 1>{});
        else if (bits == 2)
            unpackBits(std::integral_constant<std::size_t, 2>{});
        else
            unpackBits(std::integral_constant<std::size_t, 4>{});
    }
    return top;
}

// Calls f with a value of the type of genes `width` bytes wide in a PointLog (1: u8, 2: i16, 4: i32).
template <typename F> void byGeneType(int width, F f)
{
    byWidth<std::uint8_t, std::int16_t, std::int32_t>(width, f);
}

// The uncompressed columns of points [first, last) of `log`: generation (i32), valid (u8), the
// objective's source (u8, one per group), cycles, energy_pj, edp ^ (cycles x energy_pj), objective ^
// its prediction (the bits of f64 values), the genes (uniform length: per gene its least value in the group
// (i32), the bits b of its offsets (u8) and the offsets packed (bitsFor); varying: lengths (u32) then
// genes (i32)) and the reason indices (u32). `low` / `high` receive the group's gene bounds (uniform length).
void rawGroup(const search::PointLog& log, std::size_t first, std::size_t last, std::string& out,
              std::vector<std::byte>& columns, std::vector<int>& low, std::vector<int>& high)
{
    using search::PointLog;
    const std::size_t m = last - first;
    out.clear();
    const auto appendBytes = [&](const void* data, std::size_t size) {
        if (size > 0)
            out.append(static_cast<const char*>(data), size);
    };
    appendBytes(log.generations().data() + first, m * sizeof(std::int32_t));
    appendBytes(log.validFlags().data() + first, m);

    const double* cycles = log.cycles().data() + first;
    const double* energy = log.energiesPj().data() + first;
    const double* edp = log.edps().data() + first;
    const double* objective = log.objectives().data() + first;
    const double* sources[] = {nullptr, edp, energy, cycles};
    std::size_t matches[4] = {0, 0, 0, 0};
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t s = 1; s < 4; ++s)
            matches[s] += log.validFlags()[first + i] && bitsOf(objective[i]) == bitsOf(sources[s][i]);
    std::size_t source = 0;
    for (std::size_t s = 1; s < 4; ++s)
        if (matches[s] > matches[source])
            source = s;
    out += static_cast<char>(source);
    putValues(out, m, [&](std::size_t i) { return bitsOf(cycles[i]); });
    putValues(out, m, [&](std::size_t i) { return bitsOf(energy[i]); });
    putValues(out, m, [&](std::size_t i) { return bitsOf(edp[i]) ^ edpPrediction(cycles[i], energy[i]); });
    const std::uint8_t* valid = log.validFlags().data() + first;
    putValues(out, m, [&](std::size_t i) {
        return bitsOf(objective[i]) ^ objectivePrediction(valid[i], source, sources, i);
    });

    const std::uint32_t genomeLength = log.genomeLength();
    const int width = log.geneWidth();
    const std::byte* genes = log.geneBytes().data();
    if (genomeLength == PointLog::kVaryingLength) {
        const auto starts = log.starts();
        for (std::size_t i = first; i < last; ++i)
            put(out, static_cast<std::uint32_t>(starts[i + 1] - starts[i]));
        for (std::size_t k = starts[first]; k < starts[last]; ++k)
            put(out, static_cast<std::int32_t>(
                         PointLog::readGene(genes + k * static_cast<std::size_t>(width), width)));
        low.clear();
        high.clear();
    } else {
        const std::size_t length = genomeLength;
        low.assign(length, 0);
        high.assign(length, 0);
        byGeneType(width, [&](auto type) {
            using T = decltype(type);
            const std::size_t stride = columnStride(m);
            columns.resize(stride * length * sizeof(T));
            T* column = reinterpret_cast<T*>(columns.data());
            genesToColumns(genes, first, m, length, column);
            for (std::size_t g = 0; g < length; ++g) {
                const T* values = column + g * stride;
                T lo = values[0], hi = values[0];
                for (std::size_t j = 1; j < m; ++j) {
                    lo = std::min(lo, values[j]);
                    hi = std::max(hi, values[j]);
                }
                low[g] = lo;
                high[g] = hi;
            }
            std::vector<std::size_t> start(length);
            std::vector<int> bits(length);
            for (std::size_t g = 0; g < length; ++g) {
                bits[g] = bitsFor(static_cast<std::uint64_t>(std::int64_t(high[g]) - low[g]));
                put(out, static_cast<std::int32_t>(low[g]));
                out += static_cast<char>(bits[g]);
                start[g] = out.size();
                out.resize(out.size() + packedBytes(m, bits[g])); // zeros: sub-byte offsets are OR-ed in
            }
            for (std::size_t g = 0; g < length; ++g)
                packColumn(column + g * stride, m, low[g], bits[g],
                           reinterpret_cast<unsigned char*>(out.data() + start[g]));
        });
    }
    appendBytes(log.reasonIndices().data() + first, m * sizeof(std::uint32_t));
}

// Runs f(k) for k in [0, count) on TBB's threads. An exception of f is rethrown after all have run
// (that of the lowest k: the same whatever the scheduling).
template <typename F> void forEachGroup(std::size_t count, F f)
{
    std::vector<std::exception_ptr> failures(count);
    std::atomic<bool> failed{false};
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, count, 1),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                          for (std::size_t k = range.begin(); k != range.end(); ++k) {
                              if (failed.load(std::memory_order_relaxed))
                                  return;
                              try {
                                  f(k);
                              } catch (...) {
                                  failures[k] = std::current_exception();
                                  failed = true;
                              }
                          }
                      });
    for (const auto& failure : failures)
        if (failure)
            std::rethrow_exception(failure);
}

struct CompressScratch {
    std::unique_ptr<ZSTD_CCtx, CCtxDeleter> cctx{ZSTD_createCCtx()};
    std::string raw;
    std::vector<std::byte> columns;
    std::vector<int> low, high;
    std::unique_ptr<char[]> frame;
    std::size_t capacity = 0;
};

// One zstd frame (level kZstdLevel, with its checksum and content size) of `raw`, compressed on
// this thread alone.
std::string compressFrame(CompressScratch& scratch, std::string_view raw)
{
    const std::size_t bound = ZSTD_compressBound(raw.size());
    if (bound > scratch.capacity) {
        scratch.frame = std::make_unique_for_overwrite<char[]>(bound);
        scratch.capacity = bound;
    }
    ZSTD_CCtx* cctx = scratch.cctx.get();
    ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, kZstdLevel);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    const std::size_t size = ZSTD_compress2(cctx, scratch.frame.get(), bound, raw.data(), raw.size());
    if (ZSTD_isError(size))
        throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(size));
    return std::string(scratch.frame.get(), size);
}

// A frame's content: its declared size must be known and at most `most` bytes.
bool decompressFrame(ZSTD_DCtx* dctx, std::string_view frame, std::size_t least, std::size_t most,
                     std::unique_ptr<char[]>& buffer, std::size_t& capacity, std::string_view& content,
                     std::string& error)
{
    const unsigned long long declared = ZSTD_getFrameContentSize(frame.data(), frame.size());
    if (declared == ZSTD_CONTENTSIZE_ERROR || declared == ZSTD_CONTENTSIZE_UNKNOWN) {
        error = "is not a zstd frame with its size";
        return false;
    }
    if (declared < least || declared > most || declared / kMaxRatio > frame.size() + 1) {
        error = "declares " + std::to_string(declared) + " bytes of columns, which its " +
                std::to_string(frame.size()) + " compressed bytes cannot hold";
        return false;
    }
    const auto size = static_cast<std::size_t>(declared);
    if (size > capacity || !buffer) {
        buffer = std::make_unique_for_overwrite<char[]>(std::max<std::size_t>(size, 1));
        capacity = std::max<std::size_t>(size, 1);
    }
    const std::size_t got = ZSTD_decompressDCtx(dctx, buffer.get(), capacity, frame.data(), frame.size());
    if (ZSTD_isError(got)) {
        error = std::string("is corrupt (zstd: ") + ZSTD_getErrorName(got) + ")";
        return false;
    }
    if (got != size) {
        error = "is truncated or corrupt (the compressed data does not give the declared columns)";
        return false;
    }
    content = std::string_view(buffer.get(), size);
    return true;
}

std::string encodeLayout2(const search::PointLog& log, detail::IoTicker* ticker)
{
    using search::PointLog;
    LogShape shape;
    shape.n = log.size();
    shape.genomeLength = shape.n ? log.genomeLength() : 0;
    const bool varying = shape.genomeLength == PointLog::kVaryingLength;
    const std::size_t groups = shape.groups();
    std::vector<std::string> frames(groups);
    std::vector<std::vector<int>> lows(groups), highs(groups);
    tbb::enumerable_thread_specific<CompressScratch> scratches;
    forEachGroup(groups, [&](std::size_t k) {
        if (ticker)
            ticker->checkCancelled();
        CompressScratch& scratch = scratches.local();
        rawGroup(log, shape.first(k), shape.last(k), scratch.raw, scratch.columns, scratch.low, scratch.high);
        lows[k] = scratch.low;
        highs[k] = scratch.high;
        frames[k] = compressFrame(scratch, scratch.raw);
        if (ticker)
            ticker->advance(static_cast<std::int64_t>(shape.last(k) - shape.first(k)));
    });

    // The decoded log's gene width: the narrowest that holds every gene (as layout 1 gives).
    std::int64_t least = 0, most = 0;
    bool any = false;
    if (varying) {
        for (std::size_t k = 0; k < log.starts().back(); ++k) {
            const int gene = PointLog::readGene(log.geneBytes().data() + k * std::size_t(log.geneWidth()),
                                                log.geneWidth());
            least = any ? std::min<std::int64_t>(least, gene) : gene;
            most = any ? std::max<std::int64_t>(most, gene) : gene;
            any = true;
        }
    } else {
        for (std::size_t k = 0; k < groups; ++k)
            for (std::size_t g = 0; g < lows[k].size(); ++g) {
                least = any ? std::min<std::int64_t>(least, lows[k][g]) : lows[k][g];
                most = any ? std::max<std::int64_t>(most, highs[k][g]) : highs[k][g];
                any = true;
            }
    }
    shape.width = PointLog::widthFor(least, most);

    std::string header;
    put(header, kMagic);
    put(header, kLayout2);
    put(header, shape.n);
    put(header, shape.genomeLength);
    header += static_cast<char>(shape.width);
    put(header, shape.groupPoints);
    const auto& table = log.reasonTable();
    put(header, static_cast<std::uint32_t>(table.size()));
    for (const auto& text : table) {
        put(header, static_cast<std::uint32_t>(text.size()));
        header.append(text);
    }
    put(header, static_cast<std::uint32_t>(groups));
    for (std::size_t k = 0; k < groups; ++k) {
        put(header, static_cast<std::uint64_t>(frames[k].size()));
        const std::uint64_t genes = varying
                                        ? log.starts()[shape.last(k)] - log.starts()[shape.first(k)]
                                        : std::uint64_t(shape.last(k) - shape.first(k)) * shape.genomeLength;
        put(header, genes);
    }
    CompressScratch scratch;
    std::string out = compressFrame(scratch, header);
    std::size_t total = out.size();
    for (const auto& frame : frames)
        total += frame.size();
    out.reserve(total);
    for (const auto& frame : frames)
        out += frame;
    if (ticker && groups == 0)
        ticker->advance(0);
    return out;
}

struct DecompressScratch {
    std::unique_ptr<ZSTD_DCtx, DCtxDeleter> dctx{ZSTD_createDCtx()};
    std::vector<std::byte> columns;
    std::unique_ptr<char[]> buffer;
    std::size_t capacity = 0;
};

// Group k's columns, checked, into their place in `c` (sized for the whole log already). `geneStart`:
// the group's first gene in the log; `low` / `high`: the group's gene bounds (uniform length).
bool parseGroup(std::string_view raw, const LogShape& shape, std::size_t k, std::uint64_t geneStart,
                std::uint64_t geneCount, search::PointLog::Columns& c, std::vector<std::byte>& scratchColumns,
                std::vector<int>& low, std::vector<int>& high, std::string& error)
{
    using search::PointLog;
    const std::size_t first = shape.first(k), m = shape.last(k) - first;
    ColumnReader in(raw);
    const auto truncated = [&] {
        error = "is truncated (the columns end early)";
        return false;
    };
    std::string_view bytes;
    const auto copyInto = [&](void* to, std::size_t size) {
        if (!in.take(size, bytes))
            return false;
        if (size > 0)
            std::memcpy(to, bytes.data(), size);
        return true;
    };
    if (!copyInto(c.generation.data() + first, m * 4) || !copyInto(c.valid.data() + first, m))
        return truncated();
    for (std::size_t i = first; i < first + m; ++i)
        if (c.valid[i] > 1) {
            error = "has a valid flag other than 0 or 1";
            return false;
        }
    std::uint8_t source = 0;
    if (!in.get(source))
        return truncated();
    if (source > 3) {
        error = "names objective source " + std::to_string(source) + " (0..3 are defined)";
        return false;
    }
    std::string_view metrics[4];
    for (auto& column : metrics)
        if (!in.take(8 * m, column))
            return truncated();
    double* cycles = c.cycles.data() + first;
    double* energy = c.energyPj.data() + first;
    double* edp = c.edp.data() + first;
    getValues(metrics[0], m, cycles, [](std::size_t) { return std::uint64_t(0); });
    getValues(metrics[1], m, energy, [](std::size_t) { return std::uint64_t(0); });
    getValues(metrics[2], m, edp, [&](std::size_t i) { return edpPrediction(cycles[i], energy[i]); });
    const double* sources[] = {nullptr, edp, energy, cycles};
    const std::uint8_t* valid = c.valid.data() + first;
    getValues(metrics[3], m, c.objective.data() + first,
              [&](std::size_t i) { return objectivePrediction(valid[i], source, sources, i); });

    const auto width = static_cast<std::size_t>(c.geneWidth);
    const std::int64_t widthLow = width == 1 ? 0 : width == 2 ? -0x8000 : std::numeric_limits<int>::min();
    const std::int64_t widthHigh = width == 1 ? 0xff : width == 2 ? 0x7fff : std::numeric_limits<int>::max();
    const auto outOfWidth = [&](std::int64_t gene) {
        error = "has a gene (" + std::to_string(gene) + ") beyond the log's gene width of " +
                std::to_string(width) + " bytes";
        return false;
    };
    if (shape.genomeLength == PointLog::kVaryingLength) {
        if (!in.has(m, 4))
            return truncated();
        std::uint64_t at = geneStart;
        for (std::size_t i = 0; i < m; ++i) {
            std::uint32_t length = 0;
            in.get(length);
            at += length;
            c.starts[first + i + 1] = at;
        }
        if (at - geneStart != geneCount) {
            error = "has genome lengths that do not add up to its genes";
            return false;
        }
        if (!in.has(geneCount, 4))
            return truncated();
        for (std::uint64_t j = 0; j < geneCount; ++j) {
            std::int32_t gene = 0;
            in.get(gene);
            if (gene < widthLow || gene > widthHigh)
                return outOfWidth(gene);
            PointLog::writeGene(c.genes.data() + (geneStart + j) * width, c.geneWidth, gene);
        }
        low.clear();
        high.clear();
    } else {
        const std::uint32_t length = shape.genomeLength;
        std::vector<std::int32_t> lows(length);
        std::vector<std::uint8_t> bits(length);
        std::vector<std::string_view> columns(length);
        for (std::uint32_t g = 0; g < length; ++g) {
            if (!in.get(lows[g]) || !in.get(bits[g]))
                return truncated();
            if (bits[g] != 0 && bits[g] != 1 && bits[g] != 2 && bits[g] != 4 && bits[g] != 8 &&
                bits[g] != 16 && bits[g] != 32) {
                error = "gives gene " + std::to_string(g + 1) + " offsets of " + std::to_string(bits[g]) +
                        " bits (0, 1, 2, 4, 8, 16 or 32 are allowed)";
                return false;
            }
            if (!in.take(packedBytes(m, bits[g]), columns[g]))
                return truncated();
        }
        // Unpacked column by column, then into the genomes; each gene's largest offset is checked after.
        std::vector<std::uint32_t> top(length, 0);
        byGeneType(c.geneWidth, [&](auto type) {
            using T = decltype(type);
            scratchColumns.resize(columnStride(m) * length * sizeof(T));
            T* column = reinterpret_cast<T*>(scratchColumns.data());
            for (std::uint32_t g = 0; g < length; ++g)
                top[g] = unpackColumn(reinterpret_cast<const unsigned char*>(columns[g].data()), m, lows[g],
                                      bits[g], column + std::size_t(g) * columnStride(m));
            columnsToGenes(column, first, m, length, c.genes.data());
        });
        low.assign(length, 0);
        high.assign(length, 0);
        for (std::uint32_t g = 0; g < length; ++g) {
            const std::int64_t highest = std::int64_t(lows[g]) + top[g];
            if (lows[g] < widthLow)
                return outOfWidth(lows[g]);
            if (highest > widthHigh)
                return outOfWidth(highest);
            low[g] = lows[g];
            high[g] = static_cast<int>(highest);
        }
    }
    if (!copyInto(c.reason.data() + first, m * 4))
        return truncated();
    for (std::size_t i = first; i < first + m; ++i)
        if (c.reason[i] > c.reasonTable.size()) {
            error =
                "names reason " + std::to_string(c.reason[i]) + " of " + std::to_string(c.reasonTable.size());
            return false;
        }
    if (!in.atEnd()) {
        error = "has bytes after its last column";
        return false;
    }
    return true;
}

std::optional<search::PointLog> decodeLayout2(std::string_view bytes, std::int64_t count, std::string& error,
                                              detail::IoTicker* ticker, GeneBounds* bounds)
{
    using search::PointLog;
    const std::size_t headerBytes = ZSTD_findFrameCompressedSize(bytes.data(), bytes.size());
    if (ZSTD_isError(headerBytes)) {
        error = "is not a point log (" + std::string(kPointLogEncoding) +
                "): its header is not a zstd frame (" + ZSTD_getErrorName(headerBytes) + ")";
        return std::nullopt;
    }
    DecompressScratch scratch;
    std::string_view header;
    std::string frameError;
    if (!decompressFrame(scratch.dctx.get(), bytes.substr(0, headerBytes), 0, std::size_t(64) << 20,
                         scratch.buffer, scratch.capacity, header, frameError)) {
        error = "header " + frameError;
        return std::nullopt;
    }
    ColumnReader in(header);
    std::uint32_t magic = 0, version = 0, groupPoints = 0, entries = 0, groups = 0;
    std::uint8_t width = 0;
    LogShape shape;
    if (!in.get(magic) || !in.get(version) || magic != kMagic) {
        error = "is not a point log (" + std::string(kPointLogEncoding) + ")";
        return std::nullopt;
    }
    if (version != kLayout2) {
        error = "has column layout " + std::to_string(version) + " but its encoding " +
                std::string(kPointLogEncoding) + " is layout 2";
        return std::nullopt;
    }
    const auto badHeader = [&](const std::string& what) {
        error = "has a header that " + what;
        return std::nullopt;
    };
    if (!in.get(shape.n) || !in.get(shape.genomeLength) || !in.get(width) || !in.get(groupPoints))
        return badHeader("ends early");
    if (shape.n != static_cast<std::uint64_t>(count)) {
        error = "holds " + std::to_string(shape.n) + " points but `count` says " + std::to_string(count);
        return std::nullopt;
    }
    if (width != 1 && width != 2 && width != 4)
        return badHeader("gives genes a width of " + std::to_string(width) +
                         " bytes (1, 2 or 4 are allowed)");
    if (groupPoints == 0)
        return badHeader("has groups of 0 points");
    if (shape.genomeLength != PointLog::kVaryingLength && shape.genomeLength > 100000)
        return badHeader("gives genomes " + std::to_string(shape.genomeLength) + " genes");
    shape.width = width;
    shape.groupPoints = groupPoints;
    PointLog::Columns c;
    if (!in.get(entries) || !in.has(entries, 4))
        return badHeader("ends early");
    c.reasonTable.resize(entries);
    for (auto& text : c.reasonTable) {
        std::uint32_t size = 0;
        std::string_view textBytes;
        if (!in.get(size) || !in.take(size, textBytes))
            return badHeader("ends early");
        text = textBytes;
    }
    if (!in.get(groups) || groups != shape.groups())
        return badHeader("does not list " + std::to_string(shape.groups()) + " groups of " +
                         std::to_string(groupPoints) + " points");
    if (!in.has(groups, 16))
        return badHeader("ends early");
    std::vector<std::uint64_t> frameStart(groups + 1), geneStart(groups + 1);
    frameStart[0] = headerBytes;
    const bool varying = shape.genomeLength == PointLog::kVaryingLength;
    for (std::size_t k = 0; k < groups; ++k) {
        std::uint64_t frameBytes = 0, genes = 0;
        in.get(frameBytes);
        in.get(genes);
        const std::uint64_t m = shape.last(k) - shape.first(k);
        if (frameBytes > bytes.size() - frameStart[k]) {
            error = "is truncated (group " + std::to_string(k + 1) + " of " + std::to_string(groups) +
                    " lies beyond its end)";
            return std::nullopt;
        }
        // The frame must be able to hold the group's columns (see kMaxRatio): nothing is allocated for
        // points the data cannot have.
        if (genes / kMaxRatio > frameBytes + 1 || (!varying && genes != m * shape.genomeLength) ||
            leastGroupBytes(m, genes, shape.genomeLength, varying) / kMaxRatio > frameBytes + 1)
            return badHeader("gives group " + std::to_string(k + 1) + " sizes its data cannot have");
        frameStart[k + 1] = frameStart[k] + frameBytes;
        geneStart[k + 1] = geneStart[k] + genes;
    }
    if (!in.atEnd())
        return badHeader("has bytes after its last entry");
    if (frameStart[groups] != bytes.size()) {
        error = "has " + std::to_string(bytes.size() - frameStart[groups]) + " bytes after its last group";
        return std::nullopt;
    }
    if (ticker)
        ticker->advance(static_cast<std::int64_t>(headerBytes));

    const std::size_t n = shape.n;
    c.generation.resize(n);
    c.valid.resize(n);
    c.objective.resize(n);
    c.cycles.resize(n);
    c.energyPj.resize(n);
    c.edp.resize(n);
    c.reason.resize(n);
    c.genomeLength = varying && n == 0 ? 0 : shape.genomeLength;
    c.geneWidth = width;
    c.genes.resize(geneStart[groups] * width);
    if (varying && n > 0)
        c.starts.assign(n + 1, 0);

    std::vector<std::string> errors(groups);
    std::vector<std::vector<int>> lows(groups), highs(groups);
    tbb::enumerable_thread_specific<DecompressScratch> scratches;
    forEachGroup(groups, [&](std::size_t k) {
        if (ticker)
            ticker->checkCancelled();
        DecompressScratch& local = scratches.local();
        const std::uint64_t m = shape.last(k) - shape.first(k);
        const std::uint64_t genes = geneStart[k + 1] - geneStart[k];
        const std::uint64_t least = leastGroupBytes(m, genes, shape.genomeLength, varying);
        const std::uint64_t most = varying ? least : least + 4 * genes;
        std::string_view raw;
        const auto frame = bytes.substr(frameStart[k], frameStart[k + 1] - frameStart[k]);
        if (decompressFrame(local.dctx.get(), frame, least, most, local.buffer, local.capacity, raw,
                            errors[k]))
            parseGroup(raw, shape, k, geneStart[k], genes, c, local.columns, lows[k], highs[k], errors[k]);
        if (!errors[k].empty())
            errors[k] = "group " + std::to_string(k + 1) + " of " + std::to_string(groups) + " (points " +
                        std::to_string(shape.first(k)) + ".." + std::to_string(shape.last(k) - 1) + ") " +
                        errors[k];
        if (ticker)
            ticker->advance(static_cast<std::int64_t>(frame.size()));
    });
    for (const auto& e : errors)
        if (!e.empty()) {
            error = "has a damaged group: " + e;
            return std::nullopt;
        }
    if (bounds) {
        const std::size_t length = varying ? 0 : shape.genomeLength;
        bounds->low.assign(length, std::numeric_limits<int>::max());
        bounds->high.assign(length, std::numeric_limits<int>::min());
        for (std::size_t k = 0; k < groups; ++k)
            for (std::size_t g = 0; g < length; ++g) {
                bounds->low[g] = std::min(bounds->low[g], lows[k][g]);
                bounds->high[g] = std::max(bounds->high[g], highs[k][g]);
            }
    }
    try {
        return PointLog::fromColumns(std::move(c));
    } catch (const std::invalid_argument& e) {
        error = std::string("is inconsistent (") + e.what() + ")";
        return std::nullopt;
    }
}

} // namespace

std::string encodePointLog(const search::PointLog& points, detail::IoTicker* ticker)
{
    return encodeLayout2(points, ticker);
}

std::optional<search::PointLog> decodePointLog(std::string_view bytes, std::int64_t count, std::string& error,
                                               detail::IoTicker* ticker, std::string_view encoding,
                                               GeneBounds* bounds)
{
    if (encoding == kPointLogEncodingLayout1) {
        auto log = decodeLayout1(bytes, count, error, ticker);
        if (log && bounds)
            log->geneBounds(bounds->low, bounds->high);
        return log;
    }
    if (encoding != kPointLogEncoding) {
        error = "has encoding " + std::string(encoding) + "; this program reads " +
                std::string(kPointLogEncoding) + " and " + std::string(kPointLogEncodingLayout1);
        return std::nullopt;
    }
    return decodeLayout2(bytes, count, error, ticker, bounds);
}

} // namespace sparsemap
