// The built-in architecture presets (resources/presets/*.yaml), compiled into the core by
// cmake/embed_files.cmake. Declared in architecture_io.hpp.
#include "io/architecture_io.hpp"
#include "util/error.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <string_view>
#include <utility>

namespace sparsemap::detail {
// Defined in the generated embedded_presets.cpp: (file name with .yaml, contents), sorted by name.
const std::vector<std::pair<std::string_view, std::string_view>>& embeddedFiles();
} // namespace sparsemap::detail

namespace sparsemap {

namespace {

constexpr std::string_view kSuffix = ".yaml";

struct Preset {
    std::string name;
    std::string_view text;
    double macs = 0;
};

// Presets ordered by their number of MACs (edge < mobile < cloud), then by name. A preset that does
// not parse sorts last; loading it reports why.
const std::vector<Preset>& presets()
{
    static const std::vector<Preset> kPresets = [] {
        std::vector<Preset> list;
        for (const auto& [file, text] : detail::embeddedFiles()) {
            if (file.size() <= kSuffix.size() || !file.ends_with(kSuffix))
                continue;
            Preset p{std::string(file.substr(0, file.size() - kSuffix.size())), text,
                     std::numeric_limits<double>::infinity()};
            try {
                p.macs = static_cast<double>(
                    parseArchitectureYaml(std::string(text), "preset:" + p.name).compute.instances);
            } catch (const InputError&) {
            }
            list.push_back(std::move(p));
        }
        std::stable_sort(list.begin(), list.end(), [](const Preset& a, const Preset& b) {
            return a.macs != b.macs ? a.macs < b.macs : a.name < b.name;
        });
        return list;
    }();
    return kPresets;
}

const Preset* findPreset(const std::string& name)
{
    for (const auto& p : presets())
        if (p.name == name)
            return &p;
    return nullptr;
}

std::string presetList()
{
    std::string out;
    for (const auto& name : presetNames())
        out += (out.empty() ? "" : ", ") + name;
    return out.empty() ? std::string("none are built in") : out;
}

const Preset& requirePreset(const std::string& name)
{
    const Preset* p = findPreset(name);
    if (!p)
        throw InputError("unknown architecture preset `" + name + "`; presets: " + presetList());
    return *p;
}

} // namespace

std::vector<std::string> presetNames()
{
    std::vector<std::string> out;
    for (const auto& p : presets())
        out.push_back(p.name);
    return out;
}

std::string presetYaml(const std::string& name)
{
    return std::string(requirePreset(name).text);
}

Architecture loadPreset(const std::string& name)
{
    return parseArchitectureYaml(std::string(requirePreset(name).text), "preset:" + name);
}

Architecture loadArchitectureArgument(const std::string& presetOrPath)
{
    if (findPreset(presetOrPath))
        return loadPreset(presetOrPath);
    std::error_code ec;
    if (!std::filesystem::exists(presetOrPath, ec))
        throw InputError("`" + presetOrPath + "` is neither an architecture preset (" + presetList() +
                         ") nor an existing architecture file");
    return loadArchitectureFile(presetOrPath);
}

} // namespace sparsemap
