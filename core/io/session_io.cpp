// parseSessionYaml and the file functions (declared in session_io.hpp); the writer is session_writer.cpp.
#include "io/session_io.hpp"

#include "io/architecture_io.hpp"
#include "util/background_arena.hpp"
#include "util/file_io.hpp"
#include "io/session_format.hpp"
#include "io/workload_io.hpp"
#include "io/yaml_reader.hpp"
#include "io/model_options_yaml.hpp"
#include "search/method_names.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>

namespace sparsemap {

namespace {

using detail::kConvergenceHeader;
using detail::kPointsHeader;
using detail::YamlReader;

const std::vector<std::string> kPaddings{"none", "large-prime", "smooth"};
const std::vector<std::string> kObjectives{"edp", "energy", "delay"};
// A bad point log could give one diagnostic per row; past this many a block reports only a count.
constexpr int kMaxRowErrors = 10;

// The reason field's escapes (session_writer.cpp): `\\`, `\n`, `\r`.
std::string unescape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) {
            const char next = text[++i];
            out += next == 'n' ? '\n' : next == 'r' ? '\r' : next;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string numberText(double x)
{
    if (std::isnan(x))
        return "nan";
    char buf[32];
    const auto result = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, result.ptr);
}

class SessionReader {
public:
    SessionReader(std::string_view text, std::string_view payload, detail::DiagnosticSink& sink,
                  std::string baseDir, detail::IoTicker& ticker)
        : m_sink(sink), m_baseDir(std::move(baseDir)), m_payload(payload), m_ticker(ticker)
    {
        std::string_view rest(text);
        while (!rest.empty()) {
            const auto end = rest.find('\n');
            m_lines.push_back(rest.substr(0, end));
            if (end == std::string_view::npos)
                break;
            rest.remove_prefix(end + 1);
        }
    }

    Session read(const YamlReader& s);

private:
    template <typename T, typename Parse>
    std::optional<T> readEmbedded(const YamlReader& node, const std::string& kind, Parse parse) const;
    std::optional<std::string> extractBlock(const YAML::Mark& mark, const std::string& kind) const;
    std::optional<RunRecord> readRun(const YamlReader& r, std::size_t index);
    std::optional<std::vector<search::GenerationStats>> readConvergence(const YamlReader& node) const;
    std::optional<search::PointLog> readPoints(const YamlReader& node, const GenomeLayout* layout) const;
    std::optional<search::PointLog> readCompactPoints(const YamlReader& node,
                                                      const GenomeLayout* layout) const;

    // The rows of a CSV literal block, with each row's position in the file. Row 0 is the header.
    // The rows view the YAML node's own text (no copy of a multi-megabyte log), which lives as long
    // as the document does.
    struct Block {
        std::vector<std::string_view> rows;
        std::vector<YAML::Mark> marks;
    };
    std::optional<Block> readBlock(const YamlReader& node, std::string_view header) const;

    detail::DiagnosticSink& m_sink;
    std::string m_baseDir;
    std::vector<std::string_view> m_lines;
    std::string_view m_payload; // the binary point logs after the YAML text
    detail::IoTicker& m_ticker;
    std::string m_runName; // of the run being read, for the points' diagnostics
};

// Why a point's genome does not fit the run's layout (length and gene ranges), or nullopt. An empty
// genome (methods without one) always fits.
// `genome`: a Genome or a search::GenomeView.
template <typename GenomeOrView>
std::optional<std::string> genomeProblem(const GenomeOrView& genome, const GenomeLayout& layout)
{
    if (genome.empty())
        return std::nullopt;
    if (static_cast<int>(genome.size()) != layout.size())
        return "the genome has " + std::to_string(genome.size()) + " genes; this run's workload and " +
               "architecture (padding " + std::string(paddingModeName(layout.options().padding)) + ") need " +
               std::to_string(layout.size()) + " (or none, for methods without a genome)";
    for (int g = 0; g < layout.size(); ++g) {
        const GeneInfo& info = layout.gene(g);
        const int gene = genome[static_cast<std::size_t>(g)];
        if (gene < info.lower || gene > info.upper)
            return "gene " + std::to_string(g + 1) + " (" + info.name + ") is " + std::to_string(gene) +
                   "; allowed " + std::to_string(info.lower) + ".." + std::to_string(info.upper);
    }
    return std::nullopt;
}

// Why a point's metrics are not a design's, or nullopt: no number may be NaN or negative (an
// invalid design's objective is +inf, its other metrics 0), and a valid design's four are finite.
std::optional<std::string> metricsProblem(bool valid, double objective, double cycles, double energyPj,
                                          double edp)
{
    const std::pair<const char*, double> metrics[] = {
        {"objective", objective}, {"cycles", cycles}, {"energy_pj", energyPj}, {"edp", edp}};
    for (const auto& [name, value] : metrics) {
        const bool bad = std::isnan(value) || value < 0 || (valid && !std::isfinite(value));
        if (bad)
            return std::string(name) + " is " + numberText(value) + "; " +
                   (valid ? "a valid design's objective, cycles, energy_pj and edp are finite numbers >= 0"
                          : "an invalid design's metrics are numbers >= 0 or inf (not nan)");
    }
    return std::nullopt;
}

// The text of the block map at `mark`, re-indented into a file of its own (`version: 1`, `kind:`,
// then the map two spaces in), so that the file's own parser reads it; lines 3.. of that text are
// the session's lines from mark.line on. nullopt when the mark does not point into the text.
std::optional<std::string> SessionReader::extractBlock(const YAML::Mark& mark, const std::string& kind) const
{
    if (mark.line < 0 || mark.line >= static_cast<int>(m_lines.size()))
        return std::nullopt;
    const std::size_t column = static_cast<std::size_t>(mark.column);
    const std::string_view first = m_lines[static_cast<std::size_t>(mark.line)];
    if (column >= first.size())
        return std::nullopt;
    std::string out = "version: 1\n" + kind + ":\n  ";
    out += first.substr(column);
    out += '\n';
    for (std::size_t i = static_cast<std::size_t>(mark.line) + 1; i < m_lines.size(); ++i) {
        const std::string_view line = m_lines[i];
        const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
        const bool blankOrComment = indent == line.size() || line[indent] == '#';
        if (indent < column && !blankOrComment)
            break; // the next key or item of the enclosing structure
        if (indent >= column)
            out += "  " + std::string(line.substr(column));
        out += '\n'; // a blank line for a comment outdented inside the block keeps the line numbers
    }
    return out;
}

// Reads an embedded architecture or workload with its own file's parser. Its diagnostics are moved
// to the session's lines, columns and paths (`session.runs[0].workload.M`). Should the re-indented
// text not be YAML (a flow map over several lines), the node is re-emitted and every problem is
// reported at the node's first line.
template <typename T, typename Parse>
std::optional<T> SessionReader::readEmbedded(const YamlReader& node, const std::string& kind,
                                             Parse parse) const
{
    if (!node.expectMap("an embedded " + kind + ", written as under `" + kind + ":` in an " + kind + " file"))
        return std::nullopt;
    const YAML::Mark mark = node.node().Mark();
    const auto report = [&](const InputError& e, bool mapLines) {
        for (const auto& d : e.diagnostics()) {
            YAML::Mark at = mark;
            if (mapLines && d.line >= 3) {
                at.line = d.line + mark.line - 3;
                at.column = d.column > 0 ? d.column + mark.column - 3 : mark.column;
            }
            std::string path = node.path();
            if (d.path.starts_with(kind))
                path += d.path.substr(kind.size());
            m_sink.add(at, path, d.message);
        }
    };
    if (const auto extracted = extractBlock(mark, kind)) {
        try {
            return parse(*extracted);
        } catch (const InputError& e) {
            const bool syntax =
                std::any_of(e.diagnostics().begin(), e.diagnostics().end(),
                            [](const auto& d) { return d.message.starts_with("invalid YAML syntax"); });
            if (!syntax) {
                report(e, true);
                return std::nullopt;
            }
        }
    }
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "version" << YAML::Value << 1 << YAML::Key << kind << YAML::Value
        << node.node() << YAML::EndMap;
    try {
        return parse(std::string(out.c_str()));
    } catch (const InputError& e) {
        report(e, false);
    }
    return std::nullopt;
}

std::optional<SessionReader::Block> SessionReader::readBlock(const YamlReader& node,
                                                             std::string_view header) const
{
    if (!node.isScalar()) {
        node.error("must be a literal block (`|`) of CSV lines starting with the header `" +
                   std::string(header) + "`, not a map or list");
        return std::nullopt;
    }
    Block block;
    std::string_view rest(node.node().Scalar());
    while (!rest.empty()) {
        const auto end = rest.find('\n');
        block.rows.push_back(rest.substr(0, end));
        if (end == std::string_view::npos)
            break;
        rest.remove_prefix(end + 1);
    }
    // A literal block's rows start on the line after its `|`; other scalar styles have no row lines.
    const YAML::Mark mark = node.node().Mark();
    const bool literal = mark.line >= 0 && mark.line < static_cast<int>(m_lines.size()) &&
                         static_cast<std::size_t>(mark.column) < m_lines[mark.line].size() &&
                         m_lines[mark.line][mark.column] == '|';
    for (std::size_t r = 0; r < block.rows.size(); ++r) {
        YAML::Mark at = mark;
        const std::size_t line = static_cast<std::size_t>(mark.line) + 1 + r;
        if (literal && line < m_lines.size()) {
            at.line = static_cast<int>(line);
            at.column =
                static_cast<int>(std::min(m_lines[line].find_first_not_of(' '), m_lines[line].size()));
        }
        block.marks.push_back(at);
    }
    if (block.rows.empty() || block.rows[0] != header) {
        node.error("the first line must be the header `" + std::string(header) + "`");
        return std::nullopt;
    }
    return block;
}

// Splits a CSV row into `count` fields, the last taking the rest of the row.
bool splitFields(std::string_view row, std::size_t count, std::vector<std::string_view>& fields)
{
    fields.clear();
    while (fields.size() + 1 < count) {
        const auto comma = row.find(',');
        if (comma == std::string_view::npos)
            return false;
        fields.push_back(row.substr(0, comma));
        row.remove_prefix(comma + 1);
    }
    fields.push_back(row);
    return true;
}

template <typename Number> bool parseField(std::string_view text, Number& value)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

std::optional<std::vector<search::GenerationStats>>
SessionReader::readConvergence(const YamlReader& node) const
{
    const auto block = readBlock(node, kConvergenceHeader);
    if (!block)
        return std::nullopt;
    std::vector<search::GenerationStats> rows;
    std::vector<std::string_view> f;
    int errors = 0;
    for (std::size_t r = 1; r < block->rows.size(); ++r) {
        search::GenerationStats g;
        const bool ok = splitFields(block->rows[r], 5, f) && parseField(f[0], g.generation) &&
                        parseField(f[1], g.evaluations) && parseField(f[2], g.best) &&
                        parseField(f[3], g.populationAverage) && parseField(f[4], g.validShare);
        if (!ok) {
            if (errors++ < kMaxRowErrors)
                m_sink.add(block->marks[r], node.path() + "[" + std::to_string(r - 1) + "]",
                           "row `" + std::string(block->rows[r]) +
                               "` must be 5 numbers: generation, evaluations, best, population_average, "
                               "valid_share (an integer, an integer, then numbers or inf)");
            continue;
        }
        if (g.evaluations < 0 || std::isnan(g.best) || g.best < 0 || std::isnan(g.populationAverage) ||
            g.populationAverage < 0 || !(g.validShare >= 0 && g.validShare <= 1)) {
            if (errors++ < kMaxRowErrors)
                m_sink.add(block->marks[r], node.path() + "[" + std::to_string(r - 1) + "]",
                           "row `" + std::string(block->rows[r]) + "` of run `" + m_runName +
                               "`: evaluations must be >= 0, best and population_average numbers >= 0 "
                               "or inf (not nan), valid_share in 0..1");
            continue;
        }
        rows.push_back(g);
    }
    if (errors > kMaxRowErrors)
        node.error(std::to_string(errors - kMaxRowErrors) + " more rows have problems");
    return errors ? std::nullopt : std::optional(rows);
}

std::optional<search::PointLog> SessionReader::readPoints(const YamlReader& node,
                                                          const GenomeLayout* layout) const
{
    const auto block = readBlock(node, kPointsHeader);
    if (!block)
        return std::nullopt;
    search::PointLog points;
    points.reserve(block->rows.size(), layout ? static_cast<std::size_t>(layout->size()) : 0);
    std::vector<std::string_view> f;
    int errors = 0;
    for (std::size_t r = 1; r < block->rows.size(); ++r) {
        const std::size_t index = r - 1;
        const auto fail = [&](const std::string& message) {
            if (errors++ < kMaxRowErrors)
                m_sink.add(block->marks[r], node.path() + "[" + std::to_string(index) + "]",
                           "point " + std::to_string(index) + ": " + message + " (run `" + m_runName + "`)");
        };
        search::EvaluatedPoint p;
        if (!splitFields(block->rows[r], 8, f)) {
            fail("must have 8 fields: " + std::string(kPointsHeader));
            continue;
        }
        int valid = -1;
        if (!parseField(f[0], p.generation) || !parseField(f[1], valid) || (valid != 0 && valid != 1)) {
            fail("generation must be an integer and valid 0 or 1, not `" + std::string(f[0]) + "`, `" +
                 std::string(f[1]) + "`");
            continue;
        }
        p.valid = valid == 1;
        if (!parseField(f[2], p.objective) || !parseField(f[3], p.cycles) || !parseField(f[4], p.energyPj) ||
            !parseField(f[5], p.edp)) {
            fail("objective, cycles, energy_pj and edp must be numbers (or inf), not `" + std::string(f[2]) +
                 "`, `" + std::string(f[3]) + "`, `" + std::string(f[4]) + "`, `" + std::string(f[5]) + "`");
            continue;
        }
        if (const auto problem = metricsProblem(p.valid, p.objective, p.cycles, p.energyPj, p.edp)) {
            fail(*problem);
            continue;
        }
        std::string_view genes = f[6];
        bool genesOk = true;
        while (!genes.empty()) {
            const auto space = genes.find(' ');
            int gene = 0;
            genesOk = genesOk && parseField(genes.substr(0, space), gene);
            p.genome.push_back(gene);
            genes.remove_prefix(space == std::string_view::npos ? genes.size() : space + 1);
        }
        if (!genesOk) {
            fail("the genome must be integers separated by single spaces, not `" + std::string(f[6]) + "`");
            continue;
        }
        if (layout)
            if (const auto problem = genomeProblem(p.genome, *layout)) {
                fail(*problem);
                continue;
            }
        p.reason = unescape(f[7]);
        points.push_back(p);
    }
    if (errors > kMaxRowErrors)
        node.error(std::to_string(errors - kMaxRowErrors) + " more points have problems");
    return errors ? std::nullopt : std::optional(std::move(points));
}

// `points: {encoding, count, offset, bytes}`: the log is `bytes` bytes at `offset` of the binary part.
std::optional<search::PointLog> SessionReader::readCompactPoints(const YamlReader& node,
                                                                 const GenomeLayout* layout) const
{
    node.checkKeys({"encoding", "count", "offset", "bytes"});
    const std::vector<std::string> encodings{std::string(kPointLogEncoding),
                                             std::string(kPointLogEncodingLayout1)};
    const auto encoding =
        node.require("encoding", "the point log's encoding, " + detail::joinNames(encodings));
    const auto count = node.require("count", "the number of points, 0 or more");
    const auto offset = node.require("offset", "where the log starts in the binary part after `...`");
    const auto bytes = node.require("bytes", "the log's size in bytes");
    const auto encodingName = encoding ? encoding->choice("point log encoding", encodings) : std::nullopt;
    if (!encoding || !count || !offset || !bytes || !encodingName)
        return std::nullopt;
    const auto n = count->integerAtLeast(0, "0 or more");
    const auto at = offset->integerAtLeast(0, "0 or more");
    const auto size = bytes->integerAtLeast(0, "0 or more");
    if (!n || !at || !size)
        return std::nullopt;
    const auto available = static_cast<std::int64_t>(m_payload.size());
    if (*at > available || *size > available - *at) {
        node.error("the point log (" + std::to_string(*size) + " bytes at offset " + std::to_string(*at) +
                   ") lies beyond the end of the binary part after `...` (" + std::to_string(available) +
                   " bytes): the file is truncated");
        return std::nullopt;
    }
    std::string error;
    GeneBounds bounds; // the genes' ranges, from the decoder: no second pass over the genomes
    auto points =
        decodePointLog(m_payload.substr(static_cast<std::size_t>(*at), static_cast<std::size_t>(*size)), *n,
                       error, &m_ticker, *encodingName, &bounds);
    if (!points) {
        node.error("the point log " + error);
        return std::nullopt;
    }
    // The metrics, column by column: a crafted log with valid checksums is checked like a CSV block.
    {
        const auto valid = points->validFlags();
        const auto objectives = points->objectives();
        const auto cycles = points->cycles();
        const auto energies = points->energiesPj();
        const auto edps = points->edps();
        int errors = 0;
        for (std::size_t i = 0; i < points->size(); ++i)
            if (const auto problem =
                    metricsProblem(valid[i] != 0, objectives[i], cycles[i], energies[i], edps[i]);
                problem && errors++ < kMaxRowErrors)
                m_sink.add(node.node().Mark(), node.path() + "[" + std::to_string(i) + "]",
                           "point " + std::to_string(i) + ": " + *problem + " (run `" + m_runName + "`)");
        if (errors > kMaxRowErrors)
            node.error(std::to_string(errors - kMaxRowErrors) + " more points have problems");
        if (errors)
            return std::nullopt;
    }
    // Genomes of the layout's length within every gene's bounds need no check point by point.
    const auto fitsAtOnce = [&] {
        if (points->empty() || points->genomeLength() == 0)
            return true;
        if (points->genomeLength() != static_cast<std::uint32_t>(layout->size()))
            return false;
        const auto& low = bounds.low;
        const auto& high = bounds.high;
        if (low.size() != points->genomeLength())
            return false;
        for (int g = 0; g < layout->size(); ++g)
            if (low[std::size_t(g)] < layout->gene(g).lower || high[std::size_t(g)] > layout->gene(g).upper)
                return false;
        return true;
    };
    if (layout && !fitsAtOnce()) {
        int errors = 0;
        for (std::size_t i = 0; i < points->size(); ++i)
            if (const auto problem = genomeProblem(points->genome(i), *layout);
                problem && errors++ < kMaxRowErrors)
                m_sink.add(node.node().Mark(), node.path() + "[" + std::to_string(i) + "]",
                           "point " + std::to_string(i) + ": " + *problem);
        if (errors > kMaxRowErrors)
            node.error(std::to_string(errors - kMaxRowErrors) + " more points have problems");
        if (errors)
            return std::nullopt;
    }
    return points;
}

// `index`: the run's place in the file's list, which gives a run without `color` its default.
std::optional<RunRecord> SessionReader::readRun(const YamlReader& r, std::size_t index)
{
    if (!r.expectMap("a run: a map with name, method, settings, workload, architecture, points, ..."))
        return std::nullopt;
    r.checkKeys({"name", "color", "method", "padding", "model", "settings", "seconds", "cancelled",
                 "best_index", "workload", "architecture", "convergence", "points"});
    const std::size_t errorsBefore = m_sink.count();
    RunRecord run;
    if (const auto name = r.require("name", "the run's name, unique in the session"))
        run.name = name->text().value_or("");
    m_runName = run.name;
    // Optional (files written before runs had colours): the palette's colour for the run's place.
    run.color = defaultRunColor(index);
    if (const auto color = r.get("color"))
        if (const auto text = color->text()) {
            if (isRunColor(*text))
                run.color = *text;
            else
                color->error("must be a colour `#rrggbb` (six hex digits, e.g. \"#1f77b4\"), not `" + *text +
                             "`");
        }
    std::vector<std::string> methods;
    for (const auto& m : search::methodList())
        methods.emplace_back(m.name);
    for (const auto name : search::retiredMethodNames()) // runs of earlier versions still open
        methods.emplace_back(name);
    if (const auto method = r.require("method", "the search method: " + search::methodNames()))
        run.method = method->choice("search method", methods).value_or("");
    if (const auto padding = r.require("padding", "the genome's padding: " + detail::joinNames(kPaddings)))
        if (const auto mode = padding->choice("padding", kPaddings))
            run.genomeOptions.padding = *parsePaddingMode(*mode);
    // Optional: absent = Sparseloop's rules (worst-case capacity, dead formats), as every older file.
    detail::readModelOptions(r, run.modelOptions);
    if (const auto settings = r.require("settings", "a map {objective, budget, seed, threads}");
        settings && settings->expectMap("a map {objective, budget, seed, threads}")) {
        settings->checkKeys({"objective", "budget", "seed", "threads"});
        if (const auto objective = settings->require("objective", detail::joinNames(kObjectives)))
            run.settings.objective =
                model::parseObjective(objective->choice("objective", kObjectives).value_or("edp"))
                    .value_or(search::Objective::Edp);
        if (const auto budget = settings->require("budget", "the evaluation budget, a positive integer"))
            run.settings.budget = budget->integerAtLeast(1, "a positive integer").value_or(1);
        if (const auto seed = settings->require("seed", "the random seed, an integer 0..2^64-1")) {
            const auto text = seed->text();
            if (text && !parseField(std::string_view(*text), run.settings.seed))
                seed->error("must be an integer 0..18446744073709551615, not `" + *text + "`");
        }
        if (const auto threads = settings->require("threads", "worker threads, 0 = all"))
            run.settings.threads =
                static_cast<int>(threads->integerAtLeast(0, "0 (all hardware threads) or more").value_or(0));
    }
    if (const auto seconds = r.require("seconds", "the run's wall time in seconds"))
        run.result.seconds = seconds->number().value_or(0);
    if (const auto cancelled = r.require("cancelled", "true or false"))
        run.result.cancelled = cancelled->boolean().value_or(false);

    const auto workloadNode = r.require("workload", "the workload the run searched");
    const auto architectureNode = r.require("architecture", "the architecture the run searched");
    std::optional<Workload> workload;
    std::optional<Architecture> architecture;
    if (workloadNode)
        workload = readEmbedded<Workload>(*workloadNode, "workload", [this](const std::string& text) {
            return parseWorkloadYaml(text, {}, m_baseDir);
        });
    if (architectureNode)
        architecture =
            readEmbedded<Architecture>(*architectureNode, "architecture",
                                       [](const std::string& text) { return parseArchitectureYaml(text); });
    std::optional<GenomeLayout> layout;
    if (workload && architecture) {
        run.workload = *workload;
        run.architecture = *architecture;
        try {
            layout.emplace(*workload, *architecture, run.genomeOptions);
        } catch (const InputError& e) {
            workloadNode->error("this workload and architecture give no genome layout: " +
                                std::string(e.what()));
        }
    }
    if (const auto convergence = r.require("convergence", "a literal block of CSV lines"))
        if (auto rows = readConvergence(*convergence))
            run.result.convergence = std::move(*rows);
    // Without a layout the genomes cannot be checked; their rows are then only parsed.
    bool pointsRead = false;
    if (const auto points =
            r.require("points", "a literal block of CSV lines, or {encoding, count, offset, bytes}"))
        if (auto rows = points->node().IsMap() ? readCompactPoints(*points, layout ? &*layout : nullptr)
                                               : readPoints(*points, layout ? &*layout : nullptr)) {
            run.result.points = std::move(*rows);
            pointsRead = true;
        }
    if (const auto best = r.require("best_index", "the index of the best point, -1 when none is valid"))
        if (const auto index = best->integerAtLeast(-1, "-1 (no valid point) or a point index");
            index && pointsRead) { // against a point log that could not be read, the index means nothing
            const auto count = static_cast<std::int64_t>(run.result.points.size());
            if (*index >= count)
                best->error("best_index " + std::to_string(*index) + " is out of range; the run has " +
                            std::to_string(count) + " points (0.." + std::to_string(count - 1) +
                            "), or -1 when none is valid");
            else if (*index >= 0 && !run.result.points[static_cast<std::size_t>(*index)].valid)
                best->error("best_index " + std::to_string(*index) +
                            " is an invalid point; the best is valid");
            else
                run.result.bestIndex = *index;
        }
    run.result.method = run.method;
    if (m_sink.count() != errorsBefore)
        return std::nullopt;
    return run;
}

Session SessionReader::read(const YamlReader& s)
{
    s.checkKeys({"architectures", "workloads", "runs", "pinned", "exploration"});
    Session session;
    if (const auto list = s.get("architectures"); list && list->expectSequence("a list of architectures"))
        for (const auto& item : list->items())
            if (auto arch = readEmbedded<Architecture>(item, "architecture", [](const std::string& text) {
                    return parseArchitectureYaml(text);
                }))
                session.architectures.push_back(std::move(*arch));
    if (const auto list = s.get("workloads"); list && list->expectSequence("a list of workloads"))
        for (const auto& item : list->items())
            if (auto workload = readEmbedded<Workload>(item, "workload", [this](const std::string& text) {
                    return parseWorkloadYaml(text, {}, m_baseDir);
                }))
                session.workloads.push_back(std::move(*workload));

    std::map<std::string, std::pair<int, int>> runIndex; // name -> (index, line)
    if (const auto list = s.get("runs"); list && list->expectSequence("a list of runs"))
        for (const auto& item : list->items()) {
            auto run = readRun(item, runIndex.size());
            // A run with problems (reported) keeps its name, so that its pins are not reported as well.
            const auto nameNode = item.get("name");
            if (!nameNode || !nameNode->isScalar())
                continue;
            const std::string name = nameNode->node().Scalar();
            const int index = run ? static_cast<int>(session.runs.size()) : -1;
            const auto [it, fresh] = runIndex.emplace(name, std::pair{index, item.line()});
            if (!fresh) {
                nameNode->error("run name `" + name + "` is also used by the run at line " +
                                std::to_string(it->second.second) + "; run names must be unique");
                continue;
            }
            if (run)
                session.runs.push_back(std::move(*run));
        }

    if (const auto list = s.get("pinned"); list && list->expectSequence("a list of pinned designs"))
        for (const auto& item : list->items()) {
            if (!item.expectMap("a pinned design {name, run, point}"))
                continue;
            item.checkKeys({"name", "run", "point"});
            PinnedDesign pin;
            if (const auto name = item.require("name", "the pinned design's name"))
                pin.name = name->text().value_or("");
            const auto runNode = item.require("run", "the name of the run the design comes from");
            const auto pointNode = item.require("point", "the index of the point in that run's points");
            const auto runName = runNode ? runNode->text() : std::nullopt;
            const auto point =
                pointNode ? pointNode->integerAtLeast(0, "a point index (0 or more)") : std::nullopt;
            if (!runName || !point)
                continue;
            const auto it = runIndex.find(*runName);
            if (it == runIndex.end()) {
                std::vector<std::string> names;
                for (const auto& entry : runIndex)
                    names.push_back(entry.first);
                runNode->error("no run is named `" + *runName + "`; runs: " + detail::joinNames(names));
                continue;
            }
            if (it->second.first < 0)
                continue; // the run itself could not be read
            pin.run = it->second.first;
            const auto count = static_cast<std::int64_t>(
                session.runs[static_cast<std::size_t>(pin.run)].result.points.size());
            if (*point >= count) {
                pointNode->error("point " + std::to_string(*point) + " is out of range; run `" + *runName +
                                 "` has " + std::to_string(count) + " points (0.." +
                                 std::to_string(count - 1) + ")");
                continue;
            }
            pin.pointIndex = *point;
            session.pinned.push_back(std::move(pin));
        }

    // What the Exploration view searched last: names of the session's own entries.
    if (const auto selection = s.get("exploration");
        selection && selection->expectMap("a map {workload, architecture} naming session entries")) {
        selection->checkKeys({"workload", "architecture"});
        const auto readName = [&](const char* key, const auto& items, std::string& target) {
            const auto node = selection->get(key);
            if (!node)
                return;
            const auto name = node->text();
            if (!name)
                return;
            std::vector<std::string> names;
            for (const auto& item : items)
                names.push_back(item.name);
            if (std::find(names.begin(), names.end(), *name) == names.end())
                node->error("no session " + std::string(key) + " is named `" + *name + "`; the session's " +
                            key + "s: " + (names.empty() ? std::string("none") : detail::joinNames(names)));
            else
                target = *name;
        };
        readName("workload", session.workloads, session.selection.workload);
        readName("architecture", session.architectures, session.selection.architecture);
    }
    return session;
}

} // namespace

Session parseSessionYaml(const std::string& text, const std::string& fileName, const std::string& baseDir,
                         const IoControl* control)
{
    // The YAML text ends at a line `...`; the compact point logs follow it.
    std::string_view yaml(text), payload;
    const std::string marker = "\n" + std::string(detail::kPayloadSeparator);
    if (text.starts_with(detail::kPayloadSeparator)) {
        yaml = {};
        payload = std::string_view(text).substr(detail::kPayloadSeparator.size());
    } else if (const auto at = text.find(marker); at != std::string::npos) {
        yaml = std::string_view(text).substr(0, at + 1);
        payload = std::string_view(text).substr(at + marker.size());
    }
    detail::IoTicker ticker(control, static_cast<std::int64_t>(payload.size()));
    ticker.checkCancelled();
    detail::DiagnosticSink sink(fileName);
    std::optional<Session> session;
    if (const auto root =
            detail::loadYaml(payload.empty() && yaml.size() == text.size() ? text : std::string(yaml), sink))
        if (const auto s = detail::readDocument(*root, "session",
                                                "a map with architectures, workloads, runs and pinned", sink))
            session = SessionReader(yaml, payload, sink, baseDir, ticker).read(*s);
    sink.throwIfAny();
    if (!session) // every path that gives no session reports why; this is a safety net
        throw InputError(fileName + ": no session could be read");
    return std::move(*session); // not a copy of every run's points
}

namespace {

// Runs f on control->threads threads of TBB's (all when 0 or without a control).
template <typename F> auto onThreads(const IoControl* control, F f)
{
    if (!control || control->threads <= 0)
        return f();
    tbb::task_arena arena(control->threads);
    const util::BackgroundArena background(arena); // in the workbench: below its GUI thread
    return arena.execute(f);
}

} // namespace

void saveSessionFile(const Session& session, const std::string& path, PointLogEncoding encoding,
                     const IoControl* control)
{
    const auto pieces = onThreads(control, [&] { return detail::sessionPieces(session, encoding, control); });
    std::vector<std::string_view> views{pieces.yaml};
    views.insert(views.end(), pieces.logs.begin(), pieces.logs.end());
    writeFileAtomically(path, views);
}

Session loadSessionFile(const std::string& path, const IoControl* control)
{
    std::string text = readTextFile(path);
    return onThreads(control, [&] {
        return parseSessionYaml(text, path, std::filesystem::path(path).parent_path().string(), control);
    });
}

} // namespace sparsemap
