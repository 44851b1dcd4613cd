#include "session/session.hpp"

#include "io/architecture_io.hpp"

#include <algorithm>

namespace sparsemap {

std::string distinctArchitectureName(const Session& session, const Architecture& arch, int ignoreArchitecture)
{
    const auto presets = presetNames();
    // Whether `name` already stands for an architecture other than `arch` (compared without names).
    const auto taken = [&](const std::string& name) {
        const auto differs = [&](const Architecture& other) {
            if (other.name != name)
                return false;
            Architecture renamed = other;
            renamed.name = arch.name;
            return !(renamed == arch);
        };
        for (std::size_t i = 0; i < session.architectures.size(); ++i)
            if (int(i) != ignoreArchitecture && differs(session.architectures[i]))
                return true;
        for (const auto& run : session.runs)
            if (differs(run.architecture))
                return true;
        return std::find(presets.begin(), presets.end(), name) != presets.end() && differs(loadPreset(name));
    };
    if (!taken(arch.name))
        return arch.name;
    for (int n = 2;; ++n) {
        const std::string candidate = arch.name + " (" + std::to_string(n) + ")";
        if (!taken(candidate))
            return candidate;
    }
}

} // namespace sparsemap
