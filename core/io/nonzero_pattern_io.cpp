#include "io/nonzero_pattern_io.hpp"

#include "util/file_io.hpp"
#include "util/error.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string_view>

namespace sparsemap {

namespace {

// Reads a file line by line and reports problems at the current line.
class LineReader {
public:
    explicit LineReader(const std::string& path) : m_path(path)
    {
        requireRegularFile(path);
        m_in.open(path, std::ios::binary);
        if (!m_in)
            fail(0, 0, "cannot open the density file: " + std::string(std::strerror(errno)));
        // The same cap as every other input (kMaxTextFileBytes): the pattern's entries take a few
        // bytes of memory per byte of file at most.
        std::error_code ec;
        if (const auto size = std::filesystem::file_size(path, ec); !ec && size > kMaxTextFileBytes)
            fail(0, 0,
                 "the density file is " + std::to_string(size >> 20) + " MiB; at most " +
                     std::to_string(kMaxTextFileBytes >> 20) + " MiB are read");
    }
    // Next line that is not blank and does not start with `comment`; false at the end of the file.
    bool next(std::string_view& line, char comment)
    {
        while (readLine()) {
            line = m_line;
            const auto first = line.find_first_not_of(" \t\r");
            if (first != std::string_view::npos && line[first] != comment)
                return true;
        }
        if (m_in.bad())
            fail(m_number, 0, "read error");
        return false;
    }
    int number() const { return m_number; }
    // The next line into m_line (without its newline); false at the end of the file. A line is
    // refused as soon as it passes kMaxLineBytes, before more of it is read, and so is a file that
    // grew past kMaxTextFileBytes since it was opened.
    bool readLine()
    {
        m_line.clear();
        std::streambuf* buffer = m_in.rdbuf();
        bool any = false;
        for (int c = buffer->sbumpc(); c != std::char_traits<char>::eof(); c = buffer->sbumpc()) {
            if (!any)
                ++m_number;
            any = true;
            if (++m_bytes > kMaxTextFileBytes)
                fail(m_number, 0,
                     "the density file is longer than " + std::to_string(kMaxTextFileBytes >> 20) +
                         " MiB, the most that is read");
            if (c == '\n')
                return true;
            if (m_line.size() == kMaxLineBytes)
                fail(m_number, 0,
                     "line longer than " + std::to_string(kMaxLineBytes >> 20) +
                         " MiB; lines of a density file hold one entry or one mask row");
            m_line.push_back(static_cast<char>(c));
        }
        return any;
    }
    [[noreturn]] void fail(int line, int column, const std::string& message) const
    {
        throw InputError({Diagnostic{m_path, line, column, {}, message}});
    }

private:
    static constexpr std::size_t kMaxLineBytes = std::size_t{16} << 20;
    std::string m_path;
    std::ifstream m_in;
    std::string m_line;
    int m_number = 0;
    std::size_t m_bytes = 0;
};

// Splits on blanks (and a trailing \r); `offsets` are the 0-based columns of the tokens.
void split(std::string_view line, std::vector<std::string_view>& tokens, std::vector<int>* offsets = nullptr)
{
    tokens.clear();
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i])))
            ++i;
        if (i > start) {
            tokens.push_back(line.substr(start, i - start));
            if (offsets)
                offsets->push_back(static_cast<int>(start));
        }
    }
}

template <typename T> bool parse(std::string_view token, T& value)
{
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    return ec == std::errc() && end == token.data() + token.size();
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

struct MtxHeader {
    bool coordinate = true;
    std::string field, symmetry;
};

MtxHeader readHeader(LineReader& reader, std::string_view line)
{
    std::vector<std::string_view> t;
    split(line, t);
    if (t.size() != 5 || lower(t[0]) != "%%matrixmarket" || lower(t[1]) != "matrix")
        reader.fail(reader.number(), 0,
                    "expected the header `%%MatrixMarket matrix <coordinate|array> "
                    "<pattern|real|integer> <general|symmetric|skew-symmetric>`");
    MtxHeader h{lower(t[2]) == "coordinate", lower(t[3]), lower(t[4])};
    if (!h.coordinate && lower(t[2]) != "array")
        reader.fail(reader.number(), 0,
                    "unknown Matrix Market format `" + std::string(t[2]) + "`; expected coordinate or array");
    if (h.field != "pattern" && h.field != "real" && h.field != "integer")
        reader.fail(reader.number(), 0,
                    "unsupported Matrix Market field `" + std::string(t[3]) +
                        "`; expected pattern, real or integer");
    if (h.symmetry != "general" && h.symmetry != "symmetric" && h.symmetry != "skew-symmetric")
        reader.fail(reader.number(), 0,
                    "unsupported Matrix Market symmetry `" + std::string(t[4]) +
                        "`; expected general, symmetric or skew-symmetric");
    if (!h.coordinate && h.field == "pattern")
        reader.fail(reader.number(), 0, "a Matrix Market array cannot have the pattern field");
    return h;
}

// Parses the value of an entry; false when it is an explicit zero.
bool nonzeroValue(LineReader& reader, std::string_view token, int column, const std::string& field)
{
    double value = 0;
    if (!parse(token, value))
        reader.fail(reader.number(), column, "`" + std::string(token) + "` is not a " + field + " value");
    return value != 0;
}

void readMatrixMarket(LineReader& reader, std::string_view headerLine, NonzeroPattern& out)
{
    const MtxHeader h = readHeader(reader, headerLine);
    std::string_view line;
    std::vector<std::string_view> t;
    std::vector<int> at; // 0-based columns of the tokens
    // The 1-based column of token `k` (the end of the line's tokens when it is missing).
    const auto columnOf = [&](std::size_t k) {
        if (k < at.size())
            return at[k] + 1;
        return at.empty() ? 1 : at.back() + static_cast<int>(t.back().size()) + 1;
    };
    if (!reader.next(line, '%'))
        reader.fail(reader.number(), 0, "missing the size line");
    split(line, t, &at);
    std::int64_t entries = 0;
    const std::size_t sizeTokens = h.coordinate ? 3 : 2;
    if (t.size() != sizeTokens || !parse(t[0], out.rows) || !parse(t[1], out.columns) ||
        (h.coordinate && !parse(t[2], entries)) || out.rows < 1 || out.columns < 1 || entries < 0)
        reader.fail(reader.number(), columnOf(0),
                    h.coordinate ? "expected the size line `rows columns entries` with positive sizes"
                                 : "expected the size line `rows columns` with positive sizes");
    out.shapeLine = reader.number();
    if (out.rows > std::numeric_limits<std::int64_t>::max() / 4 / out.columns)
        reader.fail(reader.number(), 0, "the matrix is too large");
    const bool mirrored = h.symmetry != "general";
    if (mirrored && out.rows != out.columns)
        reader.fail(reader.number(), 0, "a " + h.symmetry + " matrix must be square");
    if (!h.coordinate) // column-major; symmetric: lower triangle incl. diagonal; skew: strictly lower
        entries = h.symmetry == "general" ? out.rows * out.columns
                                          : out.rows * (out.rows + (h.symmetry == "symmetric" ? 1 : -1)) / 2;
    const auto add = [&](std::int64_t i, std::int64_t j) {
        out.nonzeros.push_back(i * out.columns + j);
        if (mirrored && i != j)
            out.nonzeros.push_back(j * out.columns + i);
    };
    std::int64_t row = 0, column = 0; // array position
    if (!h.coordinate && h.symmetry == "skew-symmetric")
        row = 1;
    for (std::int64_t e = 0; e < entries; ++e) {
        if (!reader.next(line, '%'))
            reader.fail(reader.number(), 0,
                        "the file ends after " + std::to_string(e) + " of " + std::to_string(entries) +
                            " entries");
        split(line, t, &at);
        if (h.coordinate) {
            const std::size_t expected = h.field == "pattern" ? 2 : 3;
            std::int64_t i = 0, j = 0;
            if (t.size() != expected || !parse(t[0], i) || !parse(t[1], j))
                reader.fail(reader.number(),
                            columnOf(t.size() > expected               ? expected
                                     : t.size() < 1 || !parse(t[0], i) ? 0
                                     : t.size() < 2 || !parse(t[1], j) ? 1
                                                                       : t.size()),
                            expected == 2 ? "expected `row column`" : "expected `row column value`");
            if (i < 1 || i > out.rows || j < 1 || j > out.columns)
                reader.fail(reader.number(), columnOf(i < 1 || i > out.rows ? 0 : 1),
                            "entry (" + std::to_string(i) + ", " + std::to_string(j) + ") is outside the " +
                                std::to_string(out.rows) + " x " + std::to_string(out.columns) + " matrix");
            if (expected == 2 || nonzeroValue(reader, t[2], columnOf(2), h.field))
                add(i - 1, j - 1);
            continue;
        }
        if (t.size() != 1)
            reader.fail(reader.number(), columnOf(1), "expected one value per line");
        if (nonzeroValue(reader, t[0], columnOf(0), h.field))
            add(row, column);
        if (++row == out.rows) {
            ++column;
            row = h.symmetry == "general" ? 0 : column + (h.symmetry == "skew-symmetric" ? 1 : 0);
        }
    }
    if (reader.next(line, '%'))
        reader.fail(reader.number(), 0, "more entries than the " + std::to_string(entries) + " declared");
}

void readMask(LineReader& reader, std::string_view line, NonzeroPattern& out)
{
    std::vector<std::string_view> t;
    std::vector<int> offsets;
    do {
        offsets.clear();
        split(line, t, &offsets);
        if (out.rows == 0) {
            out.columns = static_cast<std::int64_t>(t.size());
            out.shapeLine = reader.number();
        } else if (static_cast<std::int64_t>(t.size()) != out.columns) {
            reader.fail(reader.number(), 0,
                        "mask row has " + std::to_string(t.size()) + " entries, the first row has " +
                            std::to_string(out.columns));
        }
        for (std::size_t j = 0; j < t.size(); ++j) {
            if (t[j] != "0" && t[j] != "1")
                reader.fail(reader.number(), offsets[j] + 1,
                            "mask entries must be 0 or 1, found `" + std::string(t[j]) + "`");
            if (t[j] == "1")
                out.nonzeros.push_back(out.rows * out.columns + static_cast<std::int64_t>(j));
        }
        ++out.rows;
    } while (reader.next(line, '#'));
}

bool endsWith(const std::string& s, std::string_view suffix)
{
    return s.size() >= suffix.size() && lower(s.substr(s.size() - suffix.size())) == suffix;
}

} // namespace

NonzeroPattern readNonzeroPattern(const std::string& path)
{
    LineReader reader(path);
    NonzeroPattern out;
    out.file = path;
    std::string_view line;
    const bool mtx = endsWith(path, ".mtx");
    if (!reader.next(line, mtx ? '\0' : '#'))
        reader.fail(reader.number(), 0, "the density file is empty");
    if (mtx || lower(line.substr(0, 14)) == "%%matrixmarket")
        readMatrixMarket(reader, line, out);
    else
        readMask(reader, line, out);
    std::sort(out.nonzeros.begin(), out.nonzeros.end());
    out.nonzeros.erase(std::unique(out.nonzeros.begin(), out.nonzeros.end()), out.nonzeros.end());
    return out;
}

std::shared_ptr<const ActualData> loadActualData(const std::string& path)
{
    try {
        return std::make_shared<const ActualData>(readNonzeroPattern(path));
    } catch (const InputError& e) {
        return std::make_shared<const ActualData>(e.diagnostics());
    }
}

void loadActualData(DensitySpec& spec)
{
    if (spec.model != DensityModelKind::Actual)
        return;
    const std::string& file = spec.resolvedFile.empty() ? spec.file : spec.resolvedFile;
    if (!file.empty())
        spec.data = loadActualData(file);
}

} // namespace sparsemap
