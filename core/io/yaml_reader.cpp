#include "io/yaml_reader.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <istream>
#include <limits>
#include <streambuf>

namespace sparsemap::detail {

void DiagnosticSink::add(const YAML::Mark& mark, std::string path, std::string message)
{
    // yaml-cpp counts from 0 and uses -1 for "no position".
    const int line = mark.line >= 0 ? mark.line + 1 : 0;
    const int column = mark.column >= 0 && line > 0 ? mark.column + 1 : 0;
    m_diagnostics.push_back(Diagnostic{m_fileName, line, column, std::move(path), std::move(message)});
}

void DiagnosticSink::throwIfAny() const
{
    if (!m_diagnostics.empty())
        throw InputError(m_diagnostics);
}

namespace {

// Counts a document's nodes from the parser's events, building none; stops past `limit`.
class NodeCounter final : public YAML::EventHandler {
public:
    struct TooMany {
        YAML::Mark mark;
    };
    explicit NodeCounter(std::size_t limit) : m_limit(limit) {}
    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { count(mark); }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { count(mark); }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override
    {
        count(mark);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override
    {
        count(mark);
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override
    {
        count(mark);
    }
    void OnMapEnd() override {}

private:
    void count(const YAML::Mark& mark)
    {
        if (++m_count > m_limit)
            throw TooMany{mark};
    }
    std::size_t m_limit;
    std::size_t m_count = 0;
};

// An input stream over `text` without a copy of it.
class TextBuffer final : public std::streambuf {
public:
    explicit TextBuffer(const std::string& text)
    {
        char* begin = const_cast<char*>(text.data()); // only read: the get area is never written
        setg(begin, begin, begin + text.size());
    }
};

} // namespace

std::optional<YAML::Node> loadYaml(const std::string& text, DiagnosticSink& sink)
{
    // A raw NUL byte: yaml-cpp would read it as the end of the text or as a bad escape.
    if (const auto nul = text.find('\0'); nul != std::string::npos) {
        YAML::Mark mark;
        mark.line =
            static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n'));
        const auto lineStart = text.rfind('\n', nul);
        mark.column = static_cast<int>(lineStart == std::string::npos ? nul : nul - lineStart - 1);
        sink.add(mark, {},
                 "a raw NUL character (byte 0) is not allowed in a YAML file (write it as \"\\0\" in a "
                 "double-quoted string, if at all)");
        return std::nullopt;
    }
    try {
        {
            TextBuffer buffer(text);
            std::istream in(&buffer);
            YAML::Parser parser(in);
            NodeCounter counter(kMaxYamlNodes);
            parser.HandleNextDocument(counter); // YAML::Load reads the first document only
        }
        return YAML::Load(text);
    } catch (const NodeCounter::TooMany& e) {
        sink.add(e.mark, {},
                 "the file holds more than " + std::to_string(kMaxYamlNodes) +
                     " YAML values, lists and maps, the most an input may hold (this one is cut off here)");
        return std::nullopt;
    } catch (const YAML::DeepRecursion& e) {
        // yaml-cpp stops at a fixed depth and calls it "bad file"; depth() is that limit.
        sink.add(e.mark, {},
                 "maps and lists are nested too deeply here: the YAML reader reads at most " +
                     std::to_string(e.depth() - 1) + " levels (the whole file's, from its top)");
    } catch (const YAML::Exception& e) {
        // e.msg is the bare message; e.what() would repeat the position in yaml-cpp's own format.
        sink.add(e.mark, {},
                 "invalid YAML syntax: " + e.msg +
                     " (files are YAML: `key: value` maps, `- item` or [a, b] lists)");
    }
    return std::nullopt;
}

std::optional<YamlReader> readDocument(const YAML::Node& root, std::string_view topKey, std::string_view what,
                                       DiagnosticSink& sink)
{
    const std::string expected =
        "`version: 1` and `" + std::string(topKey) + ":` (" + std::string(what) + ")";
    if (root.IsNull()) {
        sink.add(YAML::Mark::null_mark(), {}, "the file is empty; expected " + expected);
        return std::nullopt;
    }
    const YamlReader document(root, {}, sink);
    if (!document.expectMap("a map with " + expected))
        return std::nullopt;
    document.checkKeys({"version", topKey});
    if (const auto version = document.require("version", "the file format version, 1")) {
        const auto value = version->integer();
        if (value && *value != 1)
            version->error("version " + std::to_string(*value) +
                           " is not supported; this program reads version 1");
    }
    const auto top = document.require(topKey, std::string(what));
    if (!top || !top->expectMap(std::string(what)))
        return std::nullopt;
    return top;
}

std::string joinNames(const std::vector<std::string>& names, std::string_view separator)
{
    std::string out;
    for (const auto& n : names) {
        if (!out.empty())
            out += separator;
        out += n;
    }
    return out.empty() ? std::string("(none)") : out;
}

namespace {
std::string kindText(const YAML::Node& node)
{
    if (node.IsMap())
        return "a map";
    if (node.IsSequence())
        return "a list";
    if (node.IsNull())
        return "empty";
    return "`" + node.Scalar() + "`";
}
} // namespace

YamlReader::YamlReader(const YAML::Node& node, std::string path, DiagnosticSink& sink)
    : m_node(node), m_path(std::move(path)), m_sink(&sink)
{
}

YamlReader YamlReader::child(const YAML::Node& node, std::string path) const
{
    return YamlReader(node, std::move(path), *m_sink);
}

std::string YamlReader::childPath(std::string_view key) const
{
    return m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
}

int YamlReader::line() const
{
    const auto mark = m_node.Mark();
    return mark.line >= 0 ? mark.line + 1 : 0;
}

void YamlReader::error(const std::string& message) const
{
    m_sink->add(m_node.Mark(), m_path, message);
}

bool YamlReader::expectMap(std::string_view what) const
{
    if (isMap())
        return true;
    error("must be " + std::string(what) + " (a map of `key: value`), not " + kindText(m_node));
    return false;
}

bool YamlReader::expectSequence(std::string_view what) const
{
    if (isSequence())
        return true;
    error("must be " + std::string(what) + " (a list), not " + kindText(m_node));
    return false;
}

bool YamlReader::has(std::string_view key) const
{
    return keyNode(key).has_value();
}

std::optional<YamlReader> YamlReader::keyNode(std::string_view key) const
{
    if (!isMap())
        return std::nullopt;
    for (auto it = m_node.begin(); it != m_node.end(); ++it)
        if (it->first.IsScalar() && it->first.Scalar() == key)
            return child(it->first, childPath(key));
    return std::nullopt;
}

std::optional<YamlReader> YamlReader::get(std::string_view key) const
{
    if (!isMap())
        return std::nullopt;
    // The first occurrence wins; checkKeys() reports duplicates.
    for (auto it = m_node.begin(); it != m_node.end(); ++it)
        if (it->first.IsScalar() && it->first.Scalar() == key)
            return child(it->second, childPath(key));
    return std::nullopt;
}

std::optional<YamlReader> YamlReader::require(std::string_view key, std::string_view what) const
{
    auto value = get(key);
    if (!value && isMap())
        error("missing required key `" + std::string(key) + "` (" + std::string(what) + ")");
    return value;
}

void YamlReader::checkKeys(std::initializer_list<std::string_view> allowed) const
{
    checkKeys(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void YamlReader::checkKeys(const std::vector<std::string>& allowed) const
{
    if (!isMap())
        return;
    std::vector<std::string> seen;
    for (auto it = m_node.begin(); it != m_node.end(); ++it) {
        const YAML::Node key = it->first; // a copy: `it->first` lives in a temporary proxy
        const YamlReader keyReader = child(key, m_path);
        if (!key.IsScalar()) {
            keyReader.error("keys must be plain names, not " + kindText(key) +
                            "; allowed: " + joinNames(allowed));
            continue;
        }
        const std::string& name = key.Scalar();
        const YamlReader named = child(key, childPath(name));
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
            named.error("unknown key `" + name + "`; allowed here: " + joinNames(allowed));
        else if (std::find(seen.begin(), seen.end(), name) != seen.end())
            named.error("key `" + name + "` is given twice; give it once");
        seen.push_back(name);
    }
}

std::vector<std::pair<std::string, YamlReader>> YamlReader::entries() const
{
    std::vector<std::pair<std::string, YamlReader>> out;
    if (!isMap())
        return out;
    std::vector<std::string> seen;
    for (auto it = m_node.begin(); it != m_node.end(); ++it) {
        if (!it->first.IsScalar()) {
            child(it->first, m_path).error("keys must be plain names, not " + kindText(it->first));
            continue;
        }
        const std::string name = it->first.Scalar();
        if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
            child(it->first, childPath(name)).error("key `" + name + "` is given twice; give it once");
            continue;
        }
        seen.push_back(name);
        out.emplace_back(name, child(it->second, childPath(name)));
    }
    return out;
}

std::size_t YamlReader::size() const
{
    return isSequence() ? m_node.size() : 0;
}

std::vector<YamlReader> YamlReader::items() const
{
    std::vector<YamlReader> out;
    if (!isSequence())
        return out;
    std::size_t i = 0;
    for (auto it = m_node.begin(); it != m_node.end(); ++it, ++i)
        out.push_back(child(*it, m_path + "[" + std::to_string(i) + "]"));
    return out;
}

std::optional<std::string> YamlReader::text() const
{
    if (isScalar())
        return m_node.Scalar();
    error("must be a text value, not " + kindText(m_node));
    return std::nullopt;
}

namespace {
// Decimal digits with an optional sign; false when the text is not exactly that.
bool parseInteger(const std::string& s, std::int64_t& value, bool& overflow)
{
    const char* begin = s.data() + (!s.empty() && s.front() == '+' ? 1 : 0);
    const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
    overflow = ec == std::errc::result_out_of_range;
    return ec == std::errc() && end == s.data() + s.size() && begin != end;
}
} // namespace

std::optional<std::int64_t> YamlReader::integer() const
{
    return integerAtLeast(std::numeric_limits<std::int64_t>::min(), "an integer (digits only)");
}

std::optional<std::int64_t> YamlReader::integerAtLeast(std::int64_t minimum, std::string_view allowed) const
{
    if (!isScalar()) {
        error("must be " + std::string(allowed) + ", not " + kindText(m_node));
        return std::nullopt;
    }
    std::int64_t value = 0;
    bool overflow = false;
    if (!parseInteger(m_node.Scalar(), value, overflow)) {
        error(overflow ? "integer `" + m_node.Scalar() + "` is too large"
                       : "must be " + std::string(allowed) + ", not `" + m_node.Scalar() + "`");
        return std::nullopt;
    }
    if (value < minimum) {
        error("is " + std::to_string(value) + "; must be " + std::string(allowed));
        return std::nullopt;
    }
    return value;
}

std::optional<double> YamlReader::number() const
{
    if (!isScalar()) {
        error("must be a number, not " + kindText(m_node));
        return std::nullopt;
    }
    const std::string& s = m_node.Scalar();
    const char* begin = s.data() + (!s.empty() && s.front() == '+' ? 1 : 0);
    double value = 0;
    const auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
    if (ec != std::errc() || end != s.data() + s.size() || begin == end || !std::isfinite(value)) {
        error("must be a finite number (e.g. 0.25 or 1e-3), not `" + s + "`");
        return std::nullopt;
    }
    return value;
}

std::optional<bool> YamlReader::boolean() const
{
    if (isScalar()) {
        const std::string& s = m_node.Scalar();
        if (s == "true" || s == "True" || s == "yes")
            return true;
        if (s == "false" || s == "False" || s == "no")
            return false;
    }
    error("must be true or false, not " + kindText(m_node));
    return std::nullopt;
}

std::optional<std::string> YamlReader::choice(std::string_view what,
                                              const std::vector<std::string>& choices) const
{
    const auto value = text();
    if (!value)
        return std::nullopt;
    if (std::find(choices.begin(), choices.end(), *value) == choices.end()) {
        error(std::string(what) + " `" + *value + "` is not known; allowed: " + joinNames(choices));
        return std::nullopt;
    }
    return value;
}

} // namespace sparsemap::detail
