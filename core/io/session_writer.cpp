// sessionToYaml (declared in session_io.hpp): architectures and workloads as their own writers emit
// them, runs with their logs as CSV literal blocks (numbers in their shortest exact form), pins by
// run name. The reader is session_io.cpp.
#include "io/architecture_io.hpp"
#include "io/model_options_yaml.hpp"
#include "io/session_format.hpp"
#include "io/session_io.hpp"
#include "io/workload_io.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <map>

namespace sparsemap {

namespace {

using detail::kConvergenceHeader;
using detail::kPayloadSeparator;
using detail::kPointsHeader;
using model::objectiveName;

// Shortest text that reads back to the same double ("inf" for infinity): exact round trips.
void appendNumber(std::string& out, double x)
{
    char buf[32];
    const auto result = std::to_chars(buf, buf + sizeof buf, x);
    out.append(buf, result.ptr);
}

template <typename Int> void appendInteger(std::string& out, Int x)
{
    char buf[24];
    const auto result = std::to_chars(buf, buf + sizeof buf, x);
    out.append(buf, result.ptr);
}

std::string numberText(double x)
{
    std::string out;
    appendNumber(out, x);
    return out;
}

// Reasons are free text in the last CSV field: only the characters that would break a line are escaped.
void appendEscaped(std::string& out, std::string_view text)
{
    for (char c : text) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else
            out += c;
    }
}

std::string pointsBlock(const search::SearchResult& result)
{
    std::string out(kPointsHeader);
    out += '\n';
    out.reserve(result.points.size() *
                (48 + 3 * (result.points.empty() ? 0 : result.points[0].genome.size())));
    for (const auto& p : result.points) {
        appendInteger(out, p.generation);
        out += p.valid ? ",1," : ",0,";
        appendNumber(out, p.objective);
        out += ',';
        appendNumber(out, p.cycles);
        out += ',';
        appendNumber(out, p.energyPj);
        out += ',';
        appendNumber(out, p.edp);
        out += ',';
        for (std::size_t g = 0; g < p.genome.size(); ++g) {
            if (g)
                out += ' ';
            appendInteger(out, p.genome[g]);
        }
        out += ',';
        appendEscaped(out, p.reason);
        out += '\n';
    }
    return out;
}

std::string convergenceBlock(const search::SearchResult& result)
{
    std::string out(kConvergenceHeader);
    out += '\n';
    for (const auto& g : result.convergence) {
        appendInteger(out, g.generation);
        out += ',';
        appendInteger(out, g.evaluations);
        out += ',';
        appendNumber(out, g.best);
        out += ',';
        appendNumber(out, g.populationAverage);
        out += ',';
        appendNumber(out, g.validShare);
        out += '\n';
    }
    return out;
}

// The map under `topKey` of a file the existing writers produce, to embed as it is.
YAML::Node innerMap(const std::string& fileText, const char* topKey)
{
    const YAML::Node document = YAML::Load(fileText);
    return document[topKey];
}

// A workload's actual-data density files are named relative to the workload file they came from; in a
// session file (saved anywhere) that relative name would point elsewhere, so the session records the
// resolved path.
std::string embeddedWorkloadYaml(const Workload& workload)
{
    Workload copy = workload;
    for (auto& tensor : copy.tensors)
        if (tensor.density.model == DensityModelKind::Actual && !tensor.density.resolvedFile.empty())
            tensor.density.file = tensor.density.resolvedFile;
    return workloadToYaml(copy);
}

// `[]` rather than a block list with nothing in it.
void emptyAsFlow(YAML::Emitter& out, bool empty)
{
    if (empty)
        out << YAML::Flow;
}

// A literal block without its last line break: yaml-cpp would otherwise leave a blank line after it.
std::string chompLastNewline(std::string text)
{
    if (!text.empty() && text.back() == '\n')
        text.pop_back();
    return text;
}

std::int64_t pointCount(const Session& session)
{
    std::int64_t total = 0;
    for (const auto& run : session.runs)
        total += static_cast<std::int64_t>(run.result.points.size());
    return total;
}

// Compact: the runs' binary point logs are added to `logs`, and the YAML names their place.
void emitSession(YAML::Emitter& out, const Session& session, std::vector<std::string>* logs,
                 detail::IoTicker& ticker)
{
    std::map<std::string, int> runNames;
    for (std::size_t r = 0; r < session.runs.size(); ++r)
        if (!runNames.emplace(session.runs[r].name, static_cast<int>(r)).second)
            throw InputError("cannot save the session: two runs are named `" + session.runs[r].name +
                             "`; run names must be unique");

    out << YAML::Comment("SparseMap Workbench session (docs/file-formats.md)");
    out << YAML::BeginMap << YAML::Key << "version" << YAML::Value << 1;
    out << YAML::Key << "session" << YAML::Value << YAML::BeginMap;

    out << YAML::Key << "architectures" << YAML::Value;
    emptyAsFlow(out, session.architectures.empty());
    out << YAML::BeginSeq;
    for (const auto& arch : session.architectures)
        out << innerMap(architectureToYaml(arch), "architecture");
    out << YAML::EndSeq;

    out << YAML::Key << "workloads" << YAML::Value;
    emptyAsFlow(out, session.workloads.empty());
    out << YAML::BeginSeq;
    for (const auto& workload : session.workloads)
        out << innerMap(embeddedWorkloadYaml(workload), "workload");
    out << YAML::EndSeq;

    out << YAML::Key << "runs" << YAML::Value;
    emptyAsFlow(out, session.runs.empty());
    out << YAML::BeginSeq;
    for (std::size_t r = 0; r < session.runs.size(); ++r) {
        const RunRecord& run = session.runs[r];
        const auto& result = run.result;
        out << YAML::BeginMap;
        out << YAML::Key << "name" << YAML::Value << run.name;
        out << YAML::Key << "color" << YAML::Value << YAML::DoubleQuoted << runColor(session, r);
        out << YAML::Key << "method" << YAML::Value << run.method;
        out << YAML::Key << "padding" << YAML::Value
            << std::string(paddingModeName(run.genomeOptions.padding));
        // Written only when not Sparseloop's rules (older files and default runs stay as they were).
        detail::emitModelOptions(out, run.modelOptions);
        out << YAML::Key << "settings" << YAML::Value << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "objective" << YAML::Value << objectiveName(run.settings.objective);
        out << YAML::Key << "budget" << YAML::Value << run.settings.budget;
        out << YAML::Key << "seed" << YAML::Value << std::to_string(run.settings.seed);
        out << YAML::Key << "threads" << YAML::Value << run.settings.threads;
        out << YAML::EndMap;
        out << YAML::Key << "seconds" << YAML::Value << numberText(result.seconds);
        out << YAML::Key << "cancelled" << YAML::Value << result.cancelled;
        out << YAML::Key << "best_index" << YAML::Value << result.bestIndex;
        out << YAML::Key << "workload" << YAML::Value
            << innerMap(embeddedWorkloadYaml(run.workload), "workload");
        out << YAML::Key << "architecture" << YAML::Value
            << innerMap(architectureToYaml(run.architecture), "architecture");
        out << YAML::Key << "convergence" << YAML::Value << YAML::Literal
            << chompLastNewline(convergenceBlock(result));
        if (logs) {
            std::size_t offset = 0;
            for (const auto& log : *logs)
                offset += log.size();
            logs->push_back(encodePointLog(result.points, &ticker));
            out << YAML::Key << "points" << YAML::Value << YAML::Flow << YAML::BeginMap;
            out << YAML::Key << "encoding" << YAML::Value << std::string(kPointLogEncoding);
            out << YAML::Key << "count" << YAML::Value << result.points.size();
            out << YAML::Key << "offset" << YAML::Value << offset;
            out << YAML::Key << "bytes" << YAML::Value << logs->back().size();
            out << YAML::EndMap;
        } else {
            out << YAML::Key << "points" << YAML::Value << YAML::Literal
                << chompLastNewline(pointsBlock(result));
            ticker.advance(static_cast<std::int64_t>(result.points.size()));
        }
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;

    out << YAML::Key << "pinned" << YAML::Value;
    emptyAsFlow(out, session.pinned.empty());
    out << YAML::BeginSeq;
    for (const auto& pin : session.pinned) {
        if (pin.run < 0 || pin.run >= static_cast<int>(session.runs.size()))
            throw InputError("cannot save the session: pinned design `" + pin.name + "` refers to run " +
                             std::to_string(pin.run) + " but the session has " +
                             std::to_string(session.runs.size()) + " runs");
        out << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "name" << YAML::Value << pin.name;
        out << YAML::Key << "run" << YAML::Value << session.runs[static_cast<std::size_t>(pin.run)].name;
        out << YAML::Key << "point" << YAML::Value << pin.pointIndex;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;

    // The selection names session entries; a name that is none (nothing to restore) is left out.
    const auto named = [](const auto& items, const std::string& name) {
        return !name.empty() &&
               std::any_of(items.begin(), items.end(), [&](const auto& item) { return item.name == name; });
    };
    const bool workload = named(session.workloads, session.selection.workload);
    const bool architecture = named(session.architectures, session.selection.architecture);
    if (workload || architecture) {
        out << YAML::Key << "exploration" << YAML::Value << YAML::Flow << YAML::BeginMap;
        if (workload)
            out << YAML::Key << "workload" << YAML::Value << session.selection.workload;
        if (architecture)
            out << YAML::Key << "architecture" << YAML::Value << session.selection.architecture;
        out << YAML::EndMap;
    }

    out << YAML::EndMap << YAML::EndMap;
}

} // namespace

detail::SessionPieces detail::sessionPieces(const Session& session, PointLogEncoding encoding,
                                            const IoControl* control)
{
    detail::IoTicker ticker(control, pointCount(session));
    ticker.checkCancelled();
    YAML::Emitter out;
    SessionPieces pieces;
    const bool compact = encoding == PointLogEncoding::Compact;
    emitSession(out, session, compact ? &pieces.logs : nullptr, ticker);
    pieces.yaml = std::string(out.c_str()) + "\n";
    if (compact && !session.runs.empty())
        pieces.yaml += kPayloadSeparator;
    return pieces;
}

std::string sessionToYaml(const Session& session, PointLogEncoding encoding, const IoControl* control)
{
    auto pieces = detail::sessionPieces(session, encoding, control);
    std::size_t size = pieces.yaml.size();
    for (const auto& log : pieces.logs)
        size += log.size();
    std::string text = std::move(pieces.yaml);
    text.reserve(size);
    for (const auto& log : pieces.logs)
        text += log;
    return text;
}

} // namespace sparsemap
