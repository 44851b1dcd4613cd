#pragma once
// Reading YAML with positions. A YamlReader is a node plus its document path
// (`architecture.levels[2].capacity`); every problem found through it becomes a Diagnostic with the
// file, the line and column of the node, the path and a message saying what is allowed. Problems are
// collected in a DiagnosticSink and thrown together as one InputError at the end of a file, so a user
// sees every mistake at once.
//
// Reads go through `const YAML::Node` only: yaml-cpp's non-const operator[] inserts missing keys and
// its assignment operator rebinds shared nodes, so the reader looks keys up by iterating and cannot be
// assigned.
#include "util/error.hpp"

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sparsemap::detail {

class DiagnosticSink {
public:
    explicit DiagnosticSink(std::string fileName) : m_fileName(std::move(fileName)) {}

    // `mark` is yaml-cpp's 0-based position; a null mark gives line and column 0 (unknown).
    void add(const YAML::Mark& mark, std::string path, std::string message);
    bool empty() const { return m_diagnostics.empty(); }
    std::size_t count() const { return m_diagnostics.size(); }
    const std::string& fileName() const { return m_fileName; }
    // Throws one InputError with every diagnostic collected so far; does nothing when there are none.
    void throwIfAny() const;

private:
    std::string m_fileName;
    std::vector<Diagnostic> m_diagnostics;
};

// The most nodes (scalars, lists, maps) a YAML input may hold. yaml-cpp keeps ~480 bytes a node, so
// a 256 MiB file of `[1,1,1,...]` would take tens of GB; the inputs the project reads hold far fewer
// (a session's point logs are binary, not YAML nodes). loadYaml counts the nodes from the parser's
// events before it builds any.
inline constexpr std::size_t kMaxYamlNodes = 1'000'000;

// Parses `text`; a syntax error (yaml-cpp's ParserException, which has a position) or more than
// kMaxYamlNodes nodes is recorded in `sink` and gives nullopt.
std::optional<YAML::Node> loadYaml(const std::string& text, DiagnosticSink& sink);

class YamlReader {
public:
    YamlReader(const YAML::Node& node, std::string path, DiagnosticSink& sink);
    YamlReader(const YamlReader&) = default;
    YamlReader& operator=(const YamlReader&) = delete; // YAML::Node assignment would rebind the document

    const YAML::Node& node() const { return m_node; }
    const std::string& path() const { return m_path; }
    int line() const; // 1-based, 0 when unknown
    DiagnosticSink& sink() const { return *m_sink; }
    void error(const std::string& message) const;

    bool isMap() const { return m_node.IsMap(); }
    bool isSequence() const { return m_node.IsSequence(); }
    bool isScalar() const { return m_node.IsScalar(); }
    // Report "must be <what>" unless the node is a map / a sequence.
    bool expectMap(std::string_view what) const;
    bool expectSequence(std::string_view what) const;

    // --- maps (a non-map has no keys) ---
    bool has(std::string_view key) const;
    std::optional<YamlReader> get(std::string_view key) const;
    // Like get(); a missing key is reported at this node's position, with what the key should hold.
    std::optional<YamlReader> require(std::string_view key, std::string_view what) const;
    // Reports every key not in `allowed` (listing the allowed keys), every duplicated key and every
    // key that is not a plain text.
    void checkKeys(std::initializer_list<std::string_view> allowed) const;
    void checkKeys(const std::vector<std::string>& allowed) const;
    // Entries in file order; the readers of the values carry the path `path.key`.
    std::vector<std::pair<std::string, YamlReader>> entries() const;
    // The reader of a key itself (for errors about the key, e.g. an unknown name).
    std::optional<YamlReader> keyNode(std::string_view key) const;

    // --- sequences (a non-sequence has no items) ---
    std::size_t size() const;
    std::vector<YamlReader> items() const;

    // --- scalars: each reports a mistake (with what is allowed) and returns nullopt ---
    std::optional<std::string> text() const;
    std::optional<std::int64_t> integer() const;
    // An integer >= `minimum`; `allowed` completes "must be ..." (e.g. "a positive integer").
    std::optional<std::int64_t> integerAtLeast(std::int64_t minimum, std::string_view allowed) const;
    std::optional<double> number() const;
    std::optional<bool> boolean() const;
    // A text that is one of `choices`; otherwise "<what> `x` is not known; allowed: a, b, c".
    std::optional<std::string> choice(std::string_view what, const std::vector<std::string>& choices) const;

private:
    YamlReader child(const YAML::Node& node, std::string path) const;
    std::string childPath(std::string_view key) const;

    YAML::Node m_node; // only read through const member functions
    std::string m_path;
    DiagnosticSink* m_sink;
};

// The `topKey` map of a `version: 1` document (e.g. `workload`). Reports an empty file, a missing or
// unsupported version, unknown top-level keys and a missing or non-map top key; nullopt when there is
// nothing to read. `what` describes the top key's content for messages.
std::optional<YamlReader> readDocument(const YAML::Node& root, std::string_view topKey, std::string_view what,
                                       DiagnosticSink& sink);

// "a, b, c" for messages.
std::string joinNames(const std::vector<std::string>& names, std::string_view separator = ", ");

} // namespace sparsemap::detail
