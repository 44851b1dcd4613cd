// encodePointLog / decodePointLog (point_log_codec.hpp). The uncompressed layout, all little-endian
// (docs/file-formats.md): magic "SMPL", layout version, count N, then the columns generation (i32 x N),
// valid (u8 x N), objective, cycles, energy_pj, edp (f64 x N each), the genome (uniform length G: per
// gene its least value (i32), a width w of 1, 2 or 4 bytes and N offsets of w bytes; otherwise
// N lengths (u32) and every gene as i32, point after point), the reason dictionary (u32 entries, each
// u32 length + bytes) and N reason indices (u32, 0 = no reason, i = entry i - 1).
#include "io/point_log_codec.hpp"

#include <zstd.h>

#include <algorithm>
#include <cstring>
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

// Calls f with a value of the unsigned type of a gene column's `width` (1, 2 or 4 bytes).
template <typename F> void byOffsetType(int width, F f)
{
    if (width == 1)
        f(std::uint8_t{});
    else if (width == 2)
        f(std::uint16_t{});
    else
        f(std::uint32_t{});
}

// One gene's column of offsets from its least value (`width` bytes each, little-endian) against the
// log's genome array (T per gene, `length` genes a genome). Char: char to store, const char to load.
template <typename Char> struct GeneColumn {
    Char* offsets;
    int width;
    int low;
    std::size_t gene, length;

    template <typename T, typename O>
    void storeAs(const std::byte* genes, std::size_t first, std::size_t last) const
    {
        for (std::size_t i = first; i < last; ++i) {
            T value;
            std::memcpy(&value, genes + (i * length + gene) * sizeof(T), sizeof(T));
            const auto offset = static_cast<O>(std::int64_t(value) - low);
            std::memcpy(offsets + i * sizeof(O), &offset, sizeof(O));
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
            std::memcpy(&offset, offsets + i * sizeof(O), sizeof(O));
            const auto value = static_cast<T>(std::int64_t(low) + offset);
            std::memcpy(genes + (i * length + gene) * sizeof(T), &value, sizeof(T));
        }
    }
    template <typename T> void load(std::byte* genes, std::size_t first, std::size_t last) const
    {
        byOffsetType(width, [&](auto o) { loadAs<T, decltype(o)>(genes, first, last); });
    }
};

std::string rawColumns(const search::PointLog& log)
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

// Reads the columns of rawColumns() with a bounds check on every read.
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

std::optional<search::PointLog> parseColumns(std::string_view raw, std::int64_t count, std::string& error)
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
        error = "has column layout " + std::to_string(version) + "; this program reads layout 1";
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
        // The columns are located first, then the genomes filled block by block (see rawColumns).
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

std::string encodePointLog(const search::PointLog& points, detail::IoTicker* ticker)
{
    const std::string raw = rawColumns(points);
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
    std::int64_t reported = 0;
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
        if (ticker) {
            const auto done =
                static_cast<std::int64_t>(double(at) / double(raw.size()) * double(points.size()));
            ticker->advance(done - reported);
            reported = done;
        }
        if (last)
            break;
    }
    return out;
}

std::optional<search::PointLog> decodePointLog(std::string_view bytes, std::int64_t count, std::string& error,
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
    return parseColumns(std::string_view(raw.get(), size), count, error);
}

} // namespace sparsemap
