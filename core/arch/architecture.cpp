#include "arch/architecture.hpp"

#include "util/limits.hpp"

#include <cmath>
#include <cstdio>

namespace sparsemap {

int Architecture::levelIndex(const std::string& levelName) const
{
    for (std::size_t i = 0; i < levels.size(); ++i)
        if (levels[i].name == levelName)
            return static_cast<int>(i);
    return -1;
}

std::int64_t Architecture::fanout(int level) const
{
    const std::int64_t here = levels.at(level).instances;
    const std::int64_t below = level + 1 < levelCount() ? levels[level + 1].instances : compute.instances;
    return here > 0 ? below / here : 0;
}

namespace {

std::string formatLimit(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

} // namespace

bool bandwidthAllowed(double wordsPerCycle)
{
    return wordsPerCycle == 0 || (wordsPerCycle >= kMinBandwidth && wordsPerCycle <= kMaxBandwidth);
}

bool energyAllowed(double pj)
{
    return pj >= 0 && pj <= kMaxEnergyPj;
}

std::vector<std::string> architectureProblems(const Architecture& arch)
{
    std::vector<std::string> problems;
    if (arch.levels.empty())
        problems.push_back("an architecture needs at least one storage level (the backing store)");
    if (arch.levels.size() > static_cast<std::size_t>(kMaxStorageLevels))
        problems.push_back("an architecture has " + std::to_string(arch.levels.size()) +
                           " storage levels; at most " + std::to_string(kMaxStorageLevels) +
                           " are supported");
    if (!(arch.clockGHz > 0) || !std::isfinite(arch.clockGHz))
        problems.push_back("clock must be a positive frequency in GHz");
    std::int64_t previous = 1;
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        const auto& l = arch.levels[i];
        const std::string who = "level " + (l.name.empty() ? std::to_string(i) : l.name);
        if (l.name.empty())
            problems.push_back("level " + std::to_string(i) + " has no name");
        for (std::size_t j = 0; j < i; ++j)
            if (arch.levels[j].name == l.name)
                problems.push_back("level name " + l.name + " is used twice");
        if (l.instances <= 0)
            problems.push_back(who + ": instances must be positive");
        else if (l.instances % previous != 0)
            problems.push_back(who + ": instances (" + std::to_string(l.instances) +
                               ") must be a multiple of the level above (" + std::to_string(previous) + ")");
        if (l.instances > 0)
            previous = l.instances;
        // mesh_x 0 = the square-ish default grid; otherwise the grid is mesh_x columns of whole rows.
        if (l.meshX < 0 || (l.meshX > 0 && l.instances > 0 && l.instances % l.meshX != 0))
            problems.push_back(who + ": mesh_x (" + std::to_string(l.meshX) + ") must divide instances (" +
                               std::to_string(l.instances) + ")");
        if (l.wordBits <= 0 || l.metadataWordBits <= 0)
            problems.push_back(who + ": word bits must be positive");
        if (l.blockSize <= 0)
            problems.push_back(who + ": block size must be positive");
        if (l.capacityBits < 0 || l.metadataCapacityBits < 0)
            problems.push_back(who + ": capacity must not be negative");
        if (i > 0 && l.capacityBits == 0)
            problems.push_back(who +
                               ": capacity must be positive (only the outermost level may be unbounded)");
        for (const double bandwidth : {l.readBandwidth, l.writeBandwidth})
            if (!bandwidthAllowed(bandwidth)) {
                problems.push_back(who + ": bandwidth " + formatLimit(bandwidth) +
                                   " words/cycle is not allowed; " + std::string(kBandwidthRule));
                break;
            }
        for (const auto& [action, pj] : l.energy.entries())
            if (!energyAllowed(pj))
                problems.push_back(who + ": energy of " + action + " is " + formatLimit(pj) + " pJ; " +
                                   std::string(kEnergyRule));
    }
    if (arch.compute.instances <= 0)
        problems.push_back("compute: instances must be positive");
    else if (arch.compute.instances % previous != 0)
        problems.push_back("compute: instances (" + std::to_string(arch.compute.instances) +
                           ") must be a multiple of the innermost storage level's (" +
                           std::to_string(previous) + ")");
    if (arch.compute.meshX < 0 || (arch.compute.meshX > 0 && arch.compute.instances > 0 &&
                                   arch.compute.instances % arch.compute.meshX != 0))
        problems.push_back("compute: mesh_x (" + std::to_string(arch.compute.meshX) +
                           ") must divide instances (" + std::to_string(arch.compute.instances) + ")");
    for (const auto& [action, pj] : arch.compute.energy.entries())
        if (!energyAllowed(pj))
            problems.push_back("compute: energy of " + action + " is " + formatLimit(pj) + " pJ; " +
                               std::string(kEnergyRule));
    return problems;
}

} // namespace sparsemap
