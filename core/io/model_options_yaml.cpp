#include "io/model_options_yaml.hpp"

#include <charconv>
#include <string>

namespace sparsemap::detail {

void emitModelOptions(YAML::Emitter& out, const model::ModelOptions& options)
{
    const model::ModelOptions defaults;
    if (options.occupancyConfidence == defaults.occupancyConfidence &&
        options.formatSpace == defaults.formatSpace)
        return;
    // The shortest text that reads back as the same double.
    char confidence[32];
    const auto end =
        std::to_chars(confidence, confidence + sizeof confidence, options.occupancyConfidence).ptr;
    out << YAML::Key << "model" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "occupancy_confidence" << YAML::Value << std::string(confidence, end);
    out << YAML::Key << "format_space" << YAML::Value
        << std::string(model::formatSpaceName(options.formatSpace));
    out << YAML::EndMap;
}

void readModelOptions(const YamlReader& parent, model::ModelOptions& options)
{
    const auto node = parent.get("model");
    if (!node || !node->expectMap("a map {occupancy_confidence, format_space}"))
        return;
    node->checkKeys({"occupancy_confidence", "format_space"});
    if (const auto c = node->get("occupancy_confidence"))
        if (const auto value = c->number()) {
            if (*value > 0 && *value <= 1)
                options.occupancyConfidence = *value;
            else
                c->error("must be in (0, 1] (1 = the worst case, Sparseloop's rule)");
        }
    if (const auto f = node->get("format_space"))
        if (const auto name = f->choice(
                "format space", {std::string(model::formatSpaceName(model::FormatSpace::SparseloopDead)),
                                 std::string(model::formatSpaceName(model::FormatSpace::SparseloopNearest)),
                                 std::string(model::formatSpaceName(model::FormatSpace::Unrestricted))}))
            options.formatSpace = *model::parseFormatSpace(*name);
}

} // namespace sparsemap::detail
