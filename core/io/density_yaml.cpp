#include "io/density_yaml.hpp"

#include "io/nonzero_pattern_io.hpp"
#include "io/units.hpp"
#include "util/limits.hpp"

#include <filesystem>

namespace sparsemap::detail {

namespace {

const std::vector<std::string> kModelNames{"uniform", "hypergeometric", "fixed-structured", "banded",
                                           "actual"};

std::optional<double> readFraction(const YamlReader& reader)
{
    const auto value = reader.number();
    if (value && !(*value > 0.0 && *value <= 1.0)) {
        reader.error("density " + formatNumber(*value) + " is out of range; density must be in (0, 1]");
        return std::nullopt;
    }
    return value;
}

// `n` and `m` (n nonzeros in every m elements), or `density` alone: every tile holds exactly that
// fraction (Sparseloop's shape-only fixed-structured model), stored as structuredN = structuredM = 0.
bool readFixedStructured(const YamlReader& reader, DensitySpec& spec)
{
    const bool ratio = reader.has("n") || reader.has("m");
    if (!ratio && reader.has("density")) {
        reader.checkKeys({"model", "density"});
        const auto d = readFraction(*reader.get("density"));
        spec.structuredN = spec.structuredM = 0;
        if (d)
            spec.density = *d;
        return d.has_value();
    }
    reader.checkKeys({"model", "n", "m", "density"});
    if (const auto density = reader.keyNode("density"))
        density->error(
            "unknown key `density`; allowed here: model, n, m (fixed-structured takes `n` and `m`, "
            "or `density` alone)");
    const auto nNode = reader.require("n", "nonzeros per block, 0 < n <= m; or give `density` alone");
    const auto mNode = reader.require("m", "block length in elements, m >= n; or give `density` alone");
    const auto nRead = nNode ? nNode->integerAtLeast(1, "a positive integer (0 < n <= m)") : std::nullopt;
    const auto mRead = mNode ? mNode->integerAtLeast(1, "a positive integer (m >= n)") : std::nullopt;
    if (!nRead || !mRead)
        return false;
    const std::int64_t n = *nRead, m = *mRead;
    if (n > m) {
        nNode->error("n = " + std::to_string(n) + " exceeds m = " + std::to_string(m) +
                     "; fixed-structured density needs 0 < n <= m");
        return false;
    }
    if (m > 1'000'000) {
        mNode->error("m must be at most 1000000");
        return false;
    }
    spec.structuredN = static_cast<int>(n);
    spec.structuredM = static_cast<int>(m);
    spec.density = static_cast<double>(n) / static_cast<double>(m);
    return true;
}

bool readBanded(const YamlReader& reader, DensitySpec& spec)
{
    reader.checkKeys({"model", "bandwidth", "density"});
    const auto band = reader.require("bandwidth", "half-width of the band, an integer >= 0");
    const auto width =
        band ? band->integerAtLeast(0, "an integer >= 0 (|row - col| <= bandwidth)") : std::nullopt;
    spec.density = 1.0;
    bool ok = width.has_value();
    if (const auto inside = reader.get("density")) {
        const auto d = readFraction(*inside);
        ok = ok && d.has_value();
        if (d)
            spec.density = *d;
    }
    if (width && *width > kMaxDimSize) {
        band->error("bandwidth " + std::to_string(*width) +
                    " is too large; a band's half-width is 0 to 2^40 = " + std::to_string(kMaxDimSize));
        return false;
    }
    if (width)
        spec.bandwidth = *width;
    return ok;
}

bool readActual(const YamlReader& reader, const std::string& baseDir, DensitySpec& spec)
{
    reader.checkKeys({"model", "file"});
    const auto fileNode = reader.require("file", "a Matrix Market .mtx file or a 0/1 mask, relative to the "
                                                 "workload file");
    const auto file = fileNode ? fileNode->text() : std::nullopt;
    if (!file)
        return false;
    if (file->empty()) {
        fileNode->error("the density file name is empty; give a path relative to the workload file");
        return false;
    }
    const std::filesystem::path given(*file);
    const auto resolved =
        (given.is_absolute() || baseDir.empty() ? given : std::filesystem::path(baseDir) / given)
            .lexically_normal();
    std::error_code ec;
    const auto status = std::filesystem::status(resolved, ec);
    if (!std::filesystem::is_regular_file(status)) {
        using std::filesystem::file_type;
        const std::string what = status.type() == file_type::not_found ? "does not exist"
                                 : status.type() == file_type::none    ? "cannot be read: " + ec.message()
                                 : status.type() == file_type::directory
                                     ? "is a folder"
                                     : "is not a regular file (a device, pipe or socket)";
        fileNode->error("density file `" + resolved.string() + "` " + what +
                        "; give an existing .mtx or mask file, relative to the workload file");
        return false;
    }
    spec.file = *file;
    spec.resolvedFile = resolved.string();
    spec.data = loadActualData(spec.resolvedFile); // read once; a bad file is reported where it is used
    return true;
}

} // namespace

std::optional<DensitySpec> readDensity(const YamlReader& reader, const std::string& baseDir)
{
    DensitySpec spec;
    if (reader.isScalar()) {
        const auto d = readFraction(reader);
        if (!d)
            return std::nullopt;
        spec.density = *d;
        return spec;
    }
    if (!reader.isMap()) {
        reader.error("must be a density: a number in (0, 1] or a map {model: " +
                     joinNames(kModelNames, " | ") + ", ...}");
        return std::nullopt;
    }
    const auto modelNode = reader.require("model", "one of " + joinNames(kModelNames));
    if (!modelNode)
        return std::nullopt;
    const auto modelName = modelNode->text();
    if (!modelName)
        return std::nullopt;
    const auto model = parseDensityModel(*modelName);
    if (!model) {
        modelNode->error("unknown density model `" + *modelName + "`; allowed: " + joinNames(kModelNames));
        return std::nullopt;
    }
    spec.model = *model;
    bool ok = false;
    switch (*model) {
    case DensityModelKind::Uniform: {
        reader.checkKeys({"model", "density"});
        const auto d = reader.require("density", "a number in (0, 1]");
        const auto value = d ? readFraction(*d) : std::nullopt;
        if (value)
            spec.density = *value;
        ok = value.has_value();
        break;
    }
    case DensityModelKind::FixedStructured:
        ok = readFixedStructured(reader, spec);
        break;
    case DensityModelKind::Banded:
        ok = readBanded(reader, spec);
        break;
    case DensityModelKind::Actual:
        ok = readActual(reader, baseDir, spec);
        break;
    }
    return ok ? std::optional<DensitySpec>(spec) : std::nullopt;
}

void emitDensity(YAML::Emitter& out, const DensitySpec& spec)
{
    switch (spec.model) {
    case DensityModelKind::Uniform:
        out << formatNumber(spec.density);
        return;
    case DensityModelKind::FixedStructured:
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "model" << YAML::Value << "fixed-structured";
        if (spec.structuredM == 0) // no n:m block: every tile has exactly this density
            out << YAML::Key << "density" << YAML::Value << formatNumber(spec.density);
        else
            out << YAML::Key << "n" << YAML::Value << spec.structuredN << YAML::Key << "m" << YAML::Value
                << spec.structuredM;
        out << YAML::EndMap;
        return;
    case DensityModelKind::Banded:
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "model" << YAML::Value << "banded" << YAML::Key
            << "bandwidth" << YAML::Value << spec.bandwidth;
        if (spec.density != 1.0)
            out << YAML::Key << "density" << YAML::Value << formatNumber(spec.density);
        out << YAML::EndMap;
        return;
    case DensityModelKind::Actual:
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "model" << YAML::Value << "actual" << YAML::Key
            << "file" << YAML::Value << spec.file << YAML::EndMap;
        return;
    }
}

} // namespace sparsemap::detail
