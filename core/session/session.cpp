#include "session/session.hpp"

#include "io/architecture_io.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace sparsemap {

namespace {

// `name` unless `taken(name)`, else the first free "name (2)", "name (3)", ...
template <typename Taken> std::string firstFree(const std::string& name, Taken taken)
{
    if (!taken(name))
        return name;
    for (int n = 2;; ++n) {
        const std::string candidate = name + " (" + std::to_string(n) + ")";
        if (!taken(candidate))
            return candidate;
    }
}

// Whether `other` is named `name` but is not `item` apart from its name.
template <typename Item> bool differsUnder(const Item& other, const std::string& name, const Item& item)
{
    if (other.name != name)
        return false;
    Item renamed = other;
    renamed.name = item.name;
    return !(renamed == item);
}

} // namespace

const std::vector<std::string>& runPalette()
{
    static const std::vector<std::string> palette{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                                  "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
    return palette;
}

std::string defaultRunColor(std::size_t runIndex)
{
    const auto& palette = runPalette();
    return palette[runIndex % palette.size()];
}

std::string runColor(const Session& session, std::size_t runIndex)
{
    const std::string& own = session.runs.at(runIndex).color;
    return isRunColor(own) ? own : defaultRunColor(runIndex);
}

bool isRunColor(const std::string& color)
{
    return color.size() == 7 && color[0] == '#' &&
           std::all_of(color.begin() + 1, color.end(), [](unsigned char c) { return std::isxdigit(c); });
}

std::string distinctRunColor(const Session& session)
{
    const auto& palette = runPalette();
    std::vector<std::size_t> uses(palette.size(), 0);
    for (const auto& run : session.runs) {
        const auto it = std::find(palette.begin(), palette.end(), run.color);
        if (it != palette.end())
            ++uses[std::size_t(it - palette.begin())];
    }
    return palette[std::size_t(std::min_element(uses.begin(), uses.end()) - uses.begin())];
}

std::string uniqueRunName(const Session& session, const std::string& name, int ignoreRun)
{
    std::set<std::string> taken;
    for (std::size_t i = 0; i < session.runs.size(); ++i)
        if (int(i) != ignoreRun)
            taken.insert(session.runs[i].name);
    return firstFree(name, [&](const std::string& candidate) { return taken.contains(candidate); });
}

std::size_t addRunToSession(Session& session, RunRecord run)
{
    run.name = uniqueRunName(session, run.name);
    const bool colorTaken = std::any_of(session.runs.begin(), session.runs.end(),
                                        [&](const RunRecord& other) { return other.color == run.color; });
    if (!isRunColor(run.color) || colorTaken)
        run.color = distinctRunColor(session);
    session.runs.push_back(std::move(run));
    return session.runs.size() - 1;
}

std::string distinctArchitectureName(const Session& session, const Architecture& arch, int ignoreArchitecture)
{
    const auto presets = presetNames();
    // Whether `name` already stands for an architecture other than `arch` (compared without names).
    const auto taken = [&](const std::string& name) {
        for (std::size_t i = 0; i < session.architectures.size(); ++i)
            if (int(i) != ignoreArchitecture && differsUnder(session.architectures[i], name, arch))
                return true;
        for (const auto& run : session.runs)
            if (differsUnder(run.architecture, name, arch))
                return true;
        return std::find(presets.begin(), presets.end(), name) != presets.end() &&
               differsUnder(loadPreset(name), name, arch);
    };
    return firstFree(arch.name, taken);
}

std::string distinctWorkloadName(const Session& session, const Workload& workload, int ignoreWorkload)
{
    const auto taken = [&](const std::string& name) {
        for (std::size_t i = 0; i < session.workloads.size(); ++i)
            if (int(i) != ignoreWorkload && differsUnder(session.workloads[i], name, workload))
                return true;
        for (const auto& run : session.runs)
            if (differsUnder(run.workload, name, workload))
                return true;
        return false;
    };
    return firstFree(workload.name, taken);
}

} // namespace sparsemap
