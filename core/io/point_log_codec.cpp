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

template <typename T> void put(std::string& out, T value)
{
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, sizeof(T));
}

std::string rawColumns(const std::vector<search::EvaluatedPoint>& points)
{
    const std::size_t n = points.size();
    std::size_t genomeLength = n ? points[0].genome.size() : 0;
    for (const auto& p : points)
        if (p.genome.size() != genomeLength) {
            genomeLength = kVaryingLength;
            break;
        }
    std::string out;
    out.reserve(64 + n * (4 + 1 + 32 + 4 + (genomeLength == kVaryingLength ? 0 : genomeLength * 2)));
    put(out, kMagic);
    put(out, kLayoutVersion);
    put(out, static_cast<std::uint64_t>(n));
    for (const auto& p : points)
        put(out, static_cast<std::int32_t>(p.generation));
    for (const auto& p : points)
        out += static_cast<char>(p.valid ? 1 : 0);
    for (double search::EvaluatedPoint::*field :
         {&search::EvaluatedPoint::objective, &search::EvaluatedPoint::cycles,
          &search::EvaluatedPoint::energyPj, &search::EvaluatedPoint::edp})
        for (const auto& p : points)
            put(out, p.*field);

    put(out, static_cast<std::uint32_t>(genomeLength));
    if (genomeLength == kVaryingLength) {
        for (const auto& p : points)
            put(out, static_cast<std::uint32_t>(p.genome.size()));
        for (const auto& p : points)
            for (int gene : p.genome)
                put(out, static_cast<std::int32_t>(gene));
    } else {
        // Column by column: a gene's values across a run repeat and compress far better than rows.
        // Points are read in order (each genome is its own allocation; walking them once per gene
        // would miss the cache on every read), the columns filled side by side.
        std::vector<std::int64_t> low(genomeLength, std::numeric_limits<std::int32_t>::max());
        std::vector<std::int64_t> high(genomeLength, std::numeric_limits<std::int32_t>::min());
        for (const auto& p : points)
            for (std::size_t g = 0; g < genomeLength; ++g) {
                low[g] = std::min<std::int64_t>(low[g], p.genome[g]);
                high[g] = std::max<std::int64_t>(high[g], p.genome[g]);
            }
        std::vector<std::uint8_t> width(genomeLength);
        std::vector<std::size_t> start(genomeLength); // where each gene's offsets begin in `out`
        for (std::size_t g = 0; g < genomeLength; ++g) {
            const auto span = static_cast<std::uint64_t>(high[g] - low[g]);
            width[g] = span < 0x100 ? 1 : span < 0x10000 ? 2 : 4;
            put(out, static_cast<std::int32_t>(low[g]));
            out += static_cast<char>(width[g]);
            start[g] = out.size();
            out.resize(out.size() + n * width[g]);
        }
        for (std::size_t i = 0; i < n; ++i) {
            const auto& genome = points[i].genome;
            for (std::size_t g = 0; g < genomeLength; ++g) {
                const auto offset = static_cast<std::uint32_t>(static_cast<std::int64_t>(genome[g]) - low[g]);
                char* at = out.data() + start[g] + i * width[g];
                if (width[g] == 1) {
                    *at = static_cast<char>(offset);
                } else if (width[g] == 2) {
                    const auto v = static_cast<std::uint16_t>(offset);
                    std::memcpy(at, &v, 2);
                } else {
                    std::memcpy(at, &offset, 4);
                }
            }
        }
    }

    std::unordered_map<std::string_view, std::uint32_t> index;
    std::vector<std::string_view> dictionary;
    std::vector<std::uint32_t> reasons(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        const std::string& reason = points[i].reason;
        if (reason.empty())
            continue;
        const auto [it, fresh] = index.emplace(reason, static_cast<std::uint32_t>(dictionary.size() + 1));
        if (fresh)
            dictionary.push_back(reason);
        reasons[i] = it->second;
    }
    put(out, static_cast<std::uint32_t>(dictionary.size()));
    for (const auto text : dictionary) {
        put(out, static_cast<std::uint32_t>(text.size()));
        out.append(text);
    }
    for (const auto r : reasons)
        put(out, r);
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

bool parseColumns(std::string_view raw, std::int64_t count, std::vector<search::EvaluatedPoint>& points,
                  std::string& error)
{
    ColumnReader in(raw);
    std::uint32_t magic = 0, version = 0;
    std::uint64_t n = 0;
    if (!in.get(magic) || !in.get(version) || !in.get(n) || magic != kMagic) {
        error = "is not a point log (" + std::string(kPointLogEncoding) + ")";
        return false;
    }
    if (version != kLayoutVersion) {
        error = "has column layout " + std::to_string(version) + "; this program reads layout 1";
        return false;
    }
    if (n != static_cast<std::uint64_t>(count)) {
        error = "holds " + std::to_string(n) + " points but `count` says " + std::to_string(count);
        return false;
    }
    const auto truncated = [&] {
        error = "is truncated (the columns end early)";
        return false;
    };
    // Every point needs at least 41 bytes of fixed columns: refuse a count the data cannot hold
    // before allocating for it.
    if (!in.has(n, 4 + 1 + 32 + 4))
        return truncated();
    points.assign(n, search::EvaluatedPoint{});
    for (auto& p : points) {
        std::int32_t generation = 0;
        in.get(generation);
        p.generation = generation;
    }
    for (auto& p : points) {
        std::uint8_t valid = 0;
        in.get(valid);
        if (valid > 1) {
            error = "has a valid flag other than 0 or 1";
            return false;
        }
        p.valid = valid == 1;
    }
    for (double search::EvaluatedPoint::*field :
         {&search::EvaluatedPoint::objective, &search::EvaluatedPoint::cycles,
          &search::EvaluatedPoint::energyPj, &search::EvaluatedPoint::edp})
        for (auto& p : points)
            in.get(p.*field);

    std::uint32_t genomeLength = 0;
    if (!in.get(genomeLength))
        return truncated();
    if (genomeLength == kVaryingLength) {
        if (!in.has(n, 4))
            return truncated();
        std::uint64_t total = 0;
        for (auto& p : points) {
            std::uint32_t length = 0;
            in.get(length);
            total += length;
            if (!in.has(total, 4))
                return truncated();
            p.genome.resize(length);
        }
        for (auto& p : points)
            for (int& gene : p.genome) {
                std::int32_t value = 0;
                in.get(value);
                gene = value;
            }
    } else {
        if (genomeLength > 100000 || !in.has(std::uint64_t(genomeLength) * n, 1))
            return truncated();
        // The columns are located first, then the genomes filled point after point (see rawColumns).
        std::vector<std::int32_t> low(genomeLength);
        std::vector<std::uint8_t> width(genomeLength);
        std::vector<std::string_view> column(genomeLength);
        for (std::uint32_t g = 0; g < genomeLength; ++g) {
            if (!in.get(low[g]) || !in.get(width[g]))
                return truncated();
            if (width[g] != 1 && width[g] != 2 && width[g] != 4) {
                error = "gives gene " + std::to_string(g + 1) + " a width of " + std::to_string(width[g]) +
                        " bytes (1, 2 or 4 are allowed)";
                return false;
            }
            if (!in.has(n, width[g]) || !in.take(n * width[g], column[g]))
                return truncated();
        }
        for (std::size_t i = 0; i < n; ++i) {
            auto& genome = points[i].genome;
            genome.resize(genomeLength);
            for (std::uint32_t g = 0; g < genomeLength; ++g) {
                std::uint32_t offset = 0;
                const char* at = column[g].data() + i * width[g];
                if (width[g] == 1) {
                    offset = static_cast<std::uint8_t>(*at);
                } else if (width[g] == 2) {
                    std::uint16_t v = 0;
                    std::memcpy(&v, at, 2);
                    offset = v;
                } else {
                    std::memcpy(&offset, at, 4);
                }
                const std::int64_t gene = std::int64_t(low[g]) + offset;
                if (gene > std::numeric_limits<int>::max()) {
                    error = "has gene " + std::to_string(g + 1) + " beyond the integer range";
                    return false;
                }
                genome[g] = static_cast<int>(gene);
            }
        }
    }

    std::uint32_t entries = 0;
    if (!in.get(entries) || !in.has(entries, 4))
        return truncated();
    std::vector<std::string> dictionary(entries);
    for (auto& text : dictionary) {
        std::uint32_t size = 0;
        std::string_view bytes;
        if (!in.get(size) || !in.take(size, bytes))
            return truncated();
        text = bytes;
    }
    if (!in.has(n, 4))
        return truncated();
    for (auto& p : points) {
        std::uint32_t r = 0;
        in.get(r);
        if (r > entries) {
            error = "names reason " + std::to_string(r) + " of " + std::to_string(entries);
            return false;
        }
        if (r)
            p.reason = dictionary[r - 1];
    }
    if (!in.atEnd()) {
        error = "has bytes after its last column";
        return false;
    }
    return true;
}

struct CCtxDeleter {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxDeleter {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

} // namespace

std::string encodePointLog(const std::vector<search::EvaluatedPoint>& points, detail::IoTicker* ticker)
{
    const std::string raw = rawColumns(points);
    std::unique_ptr<ZSTD_CCtx, CCtxDeleter> cctx(ZSTD_createCCtx());
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, kZstdLevel);
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setPledgedSrcSize(cctx.get(), raw.size());
    std::string out(ZSTD_compressBound(raw.size()), '\0');
    ZSTD_outBuffer output{out.data(), out.size(), 0};
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
    out.resize(output.pos);
    return out;
}

std::optional<std::vector<search::EvaluatedPoint>>
decodePointLog(std::string_view bytes, std::int64_t count, std::string& error, detail::IoTicker* ticker)
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
    std::string raw(declared, '\0');
    ZSTD_outBuffer output{raw.data(), raw.size(), 0};
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
    if (left != 0 || output.pos != raw.size()) {
        error = "is truncated or corrupt (the compressed data does not give the declared columns)";
        return std::nullopt;
    }
    if (at != bytes.size()) {
        error = "has " + std::to_string(bytes.size() - at) + " bytes after its zstd frame";
        return std::nullopt;
    }
    std::vector<search::EvaluatedPoint> points;
    if (!parseColumns(raw, count, points, error))
        return std::nullopt;
    return points;
}

} // namespace sparsemap
