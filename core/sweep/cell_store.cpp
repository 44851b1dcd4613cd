#include "sweep/cell_store.hpp"

#include "util/file_io.hpp"
#include "io/units.hpp"
#include "util/error.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

namespace sparsemap::sweep {

namespace {

constexpr const char* kFormat = "sparsemap-sweep-cell 2";
constexpr double kInf = std::numeric_limits<double>::infinity();

std::string number(double v)
{
    return std::isinf(v) ? std::string("inf") : detail::formatNumber(v);
}

struct Field {
    std::string value;
    int line = 0;
    int column = 0; // of the value
};

[[noreturn]] void fail(const std::string& file, const Field& f, const std::string& key,
                       const std::string& message)
{
    throw InputError({Diagnostic{file, f.line, f.column, key, message}});
}

} // namespace

CellResult cellResultOf(const search::SearchResult& r, std::int64_t budget)
{
    CellResult c;
    double best = kInf;
    std::size_t next = 0;
    const auto valid = r.points.validFlags();
    const auto objectives = r.points.objectives();
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        if (valid[i])
            best = std::min(best, objectives[i]);
        while (next < kCheckpoints && static_cast<std::int64_t>(i + 1) >=
                                          (budget * static_cast<std::int64_t>(next + 1)) / kCheckpoints) {
            c.curve.push_back(best);
            ++next;
        }
    }
    while (c.curve.size() < kCheckpoints)
        c.curve.push_back(best);
    c.curve.back() = best; // after every evaluation
    c.best = best;
    c.evaluations = static_cast<std::int64_t>(r.points.size());
    c.validShare = r.validShare();
    c.seconds = r.seconds;
    if (r.bestDesign)
        c.sparseloopArtefact = r.bestDesign->evaluation.sparseloopArtefact;
    return c;
}

std::string formatCell(const CellIdentity& id, const CellResult& c)
{
    std::ostringstream out;
    out << "# sparsemap sweep cell (docs/file-formats.md)\n"
        << "format: " << kFormat << "\n"
        << "workload: " << id.workload << "\n"
        << "workload_hash: " << id.workloadHash << "\n"
        << "architecture: " << id.architecture << "\n"
        << "architecture_hash: " << id.architectureHash << "\n"
        << "method: " << id.method << "\n"
        << "seed: " << id.seed << "\n"
        << "budget: " << id.budget << "\n"
        << "objective: " << id.objective << "\n"
        << "padding: " << id.padding << "\n"
        << "occupancy_confidence: " << number(id.occupancyConfidence) << "\n"
        << "format_space: " << id.formatSpace << "\n"
        << "best: " << number(c.best) << "\n"
        << "valid_share: " << number(c.validShare) << "\n"
        << "evaluations: " << c.evaluations << "\n"
        << "seconds: " << number(c.seconds) << "\n";
    if (!c.sparseloopArtefact.empty())
        out << "sparseloop_artefact: " << c.sparseloopArtefact << "\n";
    out << "curve:";
    for (double v : c.curve)
        out << ' ' << number(v);
    out << "\n";
    return out.str();
}

CellResult parseCell(const std::string& text, const std::string& file, const CellIdentity& expected)
{
    std::map<std::string, Field> fields;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.empty() || line[0] == '#')
            continue;
        const auto colon = line.find(':');
        if (colon == std::string::npos || colon == 0)
            throw InputError({Diagnostic{file, lineNo, 1, "", "expected `key: value` (a sweep cell file)"}});
        const std::string key = line.substr(0, colon);
        std::size_t start = colon + 1;
        while (start < line.size() && line[start] == ' ')
            ++start;
        if (fields.count(key))
            throw InputError({Diagnostic{file, lineNo, 1, key, "appears twice"}});
        fields[key] = Field{line.substr(start), lineNo, static_cast<int>(start) + 1};
    }
    auto field = [&](const std::string& key) -> const Field& {
        const auto it = fields.find(key);
        if (it == fields.end())
            throw InputError(
                {Diagnostic{file, 0, 0, key, "missing (the file is truncated or not a sweep cell)"}});
        return it->second;
    };
    if (field("format").value != kFormat)
        fail(file, field("format"), "format",
             "is `" + field("format").value + "`; this program reads `" + kFormat + "`");

    // A number (never NaN) that `allowed` accepts; `what` says what that is.
    auto parseNumber = [&](const std::string& key, const std::string& token, const Field& f, const char* what,
                           auto allowed) {
        double v = 0;
        const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
        if (ec != std::errc() || end != token.data() + token.size() || std::isnan(v) || !allowed(v))
            fail(file, f, key, "`" + token + "` is not allowed: expected " + what);
        return v;
    };
    const auto positiveOrInf = [](double v) { return v > 0; };
    constexpr const char* kPositiveOrInf = "a positive number, or `inf` (no valid design)";
    auto integer = [&](const std::string& key, std::int64_t lower) {
        const Field& f = field(key);
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(f.value.data(), f.value.data() + f.value.size(), v);
        if (ec != std::errc() || end != f.value.data() + f.value.size() || v < lower)
            fail(file, f, key,
                 "`" + f.value + "` is not allowed: expected an integer >= " + std::to_string(lower));
        return v;
    };

    // Identity first: a cell of another sweep is reported as such, whatever its numbers.
    CellIdentity found;
    found.workload = field("workload").value;
    found.workloadHash = field("workload_hash").value;
    found.architecture = field("architecture").value;
    found.architectureHash = field("architecture_hash").value;
    found.method = field("method").value;
    {
        const Field& f = field("seed");
        const auto [end, ec] = std::from_chars(f.value.data(), f.value.data() + f.value.size(), found.seed);
        if (ec != std::errc() || end != f.value.data() + f.value.size())
            fail(file, f, "seed", "`" + f.value + "` is not allowed: expected a non-negative integer");
    }
    found.budget = integer("budget", 1);
    found.objective = field("objective").value;
    found.padding = field("padding").value;
    found.occupancyConfidence = parseNumber("occupancy_confidence", field("occupancy_confidence").value,
                                            field("occupancy_confidence"), "a number in (0, 1]",
                                            [](double v) { return v > 0 && v <= 1; });
    found.formatSpace = field("format_space").value;
    const std::pair<const char*, std::string> ids[] = {
        {"workload", found.workload == expected.workload ? "" : expected.workload},
        {"workload_hash", found.workloadHash == expected.workloadHash ? "" : expected.workloadHash},
        {"architecture", found.architecture == expected.architecture ? "" : expected.architecture},
        {"architecture_hash",
         found.architectureHash == expected.architectureHash ? "" : expected.architectureHash},
        {"method", found.method == expected.method ? "" : expected.method},
        {"seed", found.seed == expected.seed ? "" : std::to_string(expected.seed)},
        {"budget", found.budget == expected.budget ? "" : std::to_string(expected.budget)},
        {"objective", found.objective == expected.objective ? "" : expected.objective},
        {"padding", found.padding == expected.padding ? "" : expected.padding},
        {"occupancy_confidence", found.occupancyConfidence == expected.occupancyConfidence
                                     ? ""
                                     : number(expected.occupancyConfidence)},
        {"format_space", found.formatSpace == expected.formatSpace ? "" : expected.formatSpace},
    };
    for (const auto& [key, wanted] : ids)
        if (!wanted.empty())
            fail(file, field(key), key,
                 "is `" + field(key).value + "` but this sweep has `" + wanted +
                     "`: the folder holds a different sweep's results; use another --out folder");

    CellResult c;
    c.best = parseNumber("best", field("best").value, field("best"), kPositiveOrInf, positiveOrInf);
    c.validShare = parseNumber("valid_share", field("valid_share").value, field("valid_share"),
                               "a number in [0, 1]", [](double v) { return v >= 0 && v <= 1; });
    c.evaluations = integer("evaluations", 0);
    c.seconds = parseNumber("seconds", field("seconds").value, field("seconds"), "a finite number >= 0",
                            [](double v) { return v >= 0 && std::isfinite(v); });
    if (c.evaluations > found.budget)
        fail(file, field("evaluations"), "evaluations",
             std::to_string(c.evaluations) + " exceeds the budget " + std::to_string(found.budget));
    const Field& curve = field("curve");
    std::istringstream tokens(curve.value);
    std::string token;
    while (tokens >> token) {
        const double v = parseNumber("curve", token, curve, kPositiveOrInf, positiveOrInf);
        if (!c.curve.empty() && v > c.curve.back())
            fail(file, curve, "curve",
                 "values must not increase (best so far), but " + token + " follows " +
                     number(c.curve.back()));
        c.curve.push_back(v);
    }
    if (c.curve.size() != kCheckpoints)
        fail(file, curve, "curve",
             "has " + std::to_string(c.curve.size()) + " values; expected " + std::to_string(kCheckpoints));
    if (const auto it = fields.find("sparseloop_artefact"); it != fields.end())
        c.sparseloopArtefact = it->second.value;
    if (c.curve.back() != c.best)
        fail(file, field("best"), "best", "differs from the curve's last value " + number(c.curve.back()));
    return c;
}

std::optional<CellResult> loadCell(const std::string& path, const CellIdentity& expected)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return std::nullopt;
    return parseCell(readTextFile(path), path, expected);
}

} // namespace sparsemap::sweep
