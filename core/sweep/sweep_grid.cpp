#include "sweep/sweep_grid.hpp"

#include "io/architecture_io.hpp"
#include "io/units.hpp"
#include "io/workload_io.hpp"
#include "search/method_names.hpp"
#include "util/error.hpp"
#include "util/limits.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace sparsemap::sweep {

std::string contentHash(std::string_view text)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
    return buffer;
}

namespace {

bool fileSafeChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == ',' || c == '=' || c == '+' || c == '-' || c == '_';
}

// The part of a cell file name for one architecture label or workload name, such that different
// names always give different parts, and no part holds `__` (the separator) or starts or ends with
// `_`: then "<architecture>__<workload>__<method>__seed<N>" splits back unambiguously. A name that
// already is such a part stays as it is; any other becomes its safe characters (other characters,
// and runs of `_`, as one `_`; none at either end) followed by `~` and 8 hex digits of the name's
// FNV-1a hash. `~` never occurs in a name kept as it is; two names that still meet (a 32-bit hash
// collision) are refused by the grid.
std::string cellNamePart(const std::string& name)
{
    const bool plain = !name.empty() && name.front() != '_' && name.back() != '_' &&
                       name.find("__") == std::string::npos &&
                       std::all_of(name.begin(), name.end(), fileSafeChar);
    if (plain)
        return name;
    std::string out;
    for (const char c : name) {
        const char safe = fileSafeChar(c) ? c : '_';
        if (safe == '_' && (out.empty() || out.back() == '_'))
            continue;
        out += safe;
    }
    if (!out.empty() && out.back() == '_')
        out.pop_back();
    return out + "~" + contentHash(name).substr(8, 8);
}

// The cell file name of an earlier release: every character outside [A-Za-z0-9._,=+-] became `_`,
// so that two names could meet (`x/y` and `x_y`).
std::string lossyFileName(const std::string& text)
{
    std::string out = text;
    for (char& c : out)
        if (!fileSafeChar(c))
            c = '_';
    return out;
}

} // namespace

SweepGrid::SweepGrid(std::vector<Workload> workloads, const std::vector<Architecture>& bases,
                     const std::vector<ArchAxis>& axes, std::vector<std::string> methods,
                     std::vector<std::uint64_t> seeds, SweepSettings settings)
    : m_methods(std::move(methods)), m_seeds(std::move(seeds)), m_settings(std::move(settings))
{
    if (workloads.empty() || bases.empty() || m_methods.empty() || m_seeds.empty())
        throw InputError("a sweep needs at least one workload, architecture, method and seed");
    if (!(m_settings.budget >= 1 && m_settings.budget <= kMaxBudget))
        throw InputError("a sweep's budget must be 1.." + std::to_string(kMaxBudget) + " evaluations a run");
    if (!(m_settings.occupancyConfidence > 0 && m_settings.occupancyConfidence <= 1))
        throw InputError("the occupancy confidence must be in (0, 1]");
    std::set<std::string> seen;
    for (const auto& m : m_methods) {
        if (!search::isMethodName(m))
            throw InputError("unknown method '" + m + "'; known: " + search::methodNames());
        if (!seen.insert(m).second)
            throw InputError("the method " + m + " is listed twice");
    }
    seen.clear();
    for (auto s : m_seeds)
        if (!seen.insert(std::to_string(s)).second)
            throw InputError("the seed " + std::to_string(s) + " is listed twice");

    seen.clear();
    // Cell file names are made of these parts: two names of one part would share files.
    std::map<std::string, std::string> workloadParts, architectureParts;
    auto claimPart = [](std::map<std::string, std::string>& parts, const std::string& name,
                        const char* what) {
        const auto [it, added] = parts.emplace(cellNamePart(name), name);
        if (!added && it->second != name)
            throw InputError(std::string("the ") + what + " names '" + it->second + "' and '" + name +
                             "' give one cell file name (" + it->first + "); rename one");
    };
    for (auto& w : workloads) {
        if (!seen.insert(w.name).second)
            throw InputError("two workloads are named '" + w.name +
                             "'; a sweep names its cells by workload name");
        claimPart(workloadParts, w.name, "workload");
        SweepWorkload sw;
        sw.hash = contentHash(workloadToYaml(w));
        sw.workload = std::move(w);
        m_workloads.push_back(std::move(sw));
    }

    // Every combination of the axes' values, the last axis varying fastest.
    std::vector<std::vector<ArchOverride>> combinations{{}};
    for (const auto& axis : axes) {
        if (axis.values.empty())
            throw InputError("--vary " + axis.path + " has no values");
        std::vector<std::vector<ArchOverride>> next;
        for (const auto& partial : combinations)
            for (const auto& value : axis.values) {
                auto c = partial;
                c.push_back({axis.path, value});
                next.push_back(std::move(c));
            }
        combinations = std::move(next);
    }
    seen.clear();
    for (const auto& base : bases)
        for (const auto& overrides : combinations) {
            SweepArchitecture a;
            a.overrides = overrides;
            a.arch = applyArchOverrides(base, overrides);
            a.label = overrides.empty() ? base.name : base.name + "[" + archOverrideLabel(overrides) + "]";
            a.hash = contentHash(architectureToYaml(a.arch));
            if (!seen.insert(a.label).second)
                throw InputError("two architectures are named '" + a.label +
                                 "'; a sweep names its cells by architecture name (rename one in its file)");
            claimPart(architectureParts, a.label, "architecture");
            for (const auto& w : m_workloads)
                const GenomeLayout check(w.workload, a.arch,
                                         m_settings.genome); // throws when it cannot be encoded
            m_archs.push_back(std::move(a));
        }
}

std::size_t SweepGrid::cellCount() const
{
    return m_archs.size() * m_workloads.size() * m_methods.size() * m_seeds.size();
}

SweepGrid::Cell SweepGrid::cell(std::size_t index) const
{
    Cell c;
    c.seed = static_cast<int>(index % m_seeds.size());
    index /= m_seeds.size();
    c.method = static_cast<int>(index % m_methods.size());
    index /= m_methods.size();
    c.workload = static_cast<int>(index % m_workloads.size());
    c.architecture = static_cast<int>(index / m_workloads.size());
    return c;
}

std::size_t SweepGrid::cellIndex(const Cell& c) const
{
    return ((static_cast<std::size_t>(c.architecture) * m_workloads.size() +
             static_cast<std::size_t>(c.workload)) *
                m_methods.size() +
            static_cast<std::size_t>(c.method)) *
               m_seeds.size() +
           static_cast<std::size_t>(c.seed);
}

CellIdentity SweepGrid::identity(std::size_t index) const
{
    const Cell c = cell(index);
    const auto& a = m_archs[static_cast<std::size_t>(c.architecture)];
    const auto& w = m_workloads[static_cast<std::size_t>(c.workload)];
    CellIdentity id;
    id.workload = w.workload.name;
    id.workloadHash = w.hash;
    id.architecture = a.label;
    id.architectureHash = a.hash;
    id.method = m_methods[static_cast<std::size_t>(c.method)];
    id.seed = m_seeds[static_cast<std::size_t>(c.seed)];
    id.budget = m_settings.budget;
    id.objective = model::objectiveName(m_settings.objective);
    id.padding = std::string(paddingModeName(m_settings.genome.padding));
    id.occupancyConfidence = m_settings.occupancyConfidence;
    id.formatSpace = std::string(model::formatSpaceName(m_settings.formatSpace));
    return id;
}

std::string SweepGrid::cellFileName(std::size_t index) const
{
    const CellIdentity id = identity(index);
    return cellNamePart(id.architecture) + "__" + cellNamePart(id.workload) + "__" + cellNamePart(id.method) +
           "__seed" + std::to_string(id.seed) + ".cell";
}

std::string SweepGrid::legacyCellFileName(std::size_t index) const
{
    const CellIdentity id = identity(index);
    return lossyFileName(id.architecture + "__" + id.workload + "__" + id.method + "__seed" +
                         std::to_string(id.seed)) +
           ".cell";
}

std::string SweepGrid::manifest() const
{
    std::string text =
        "# sparsemap sweep (docs/file-formats.md): the grid this folder holds\nformat: sparsemap-sweep 1\n";
    text += "budget: " + std::to_string(m_settings.budget) + "\n";
    text += "objective: " + model::objectiveName(m_settings.objective) + "\n";
    text += "padding: " + std::string(paddingModeName(m_settings.genome.padding)) + "\n";
    text += "occupancy_confidence: " + detail::formatNumber(m_settings.occupancyConfidence) + "\n";
    text += "format_space: " + std::string(model::formatSpaceName(m_settings.formatSpace)) + "\n";
    text += "cells: " + std::to_string(cellCount()) + "\n";
    for (const auto& a : m_archs)
        text += "architecture: " + a.label + " " + a.hash + "\n";
    for (const auto& w : m_workloads)
        text += "workload: " + w.workload.name + " " + w.hash + "\n";
    for (const auto& m : m_methods)
        text += "method: " + m + "\n";
    for (auto s : m_seeds)
        text += "seed: " + std::to_string(s) + "\n";
    return text;
}

} // namespace sparsemap::sweep
