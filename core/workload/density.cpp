#include "workload/density.hpp"

namespace sparsemap {

const NonzeroPattern& DensitySpec::actualPattern() const
{
    if (!data)
        throw InputError("actual density file " + (resolvedFile.empty() ? file : resolvedFile) +
                         " was not read; load it with the workload (io/nonzero_pattern_io.hpp)");
    return data->pattern();
}

bool DensitySpec::operator==(const DensitySpec& other) const
{
    const bool sameData = data == other.data || (data && other.data && *data == *other.data);
    return model == other.model && density == other.density && structuredN == other.structuredN &&
           structuredM == other.structuredM && bandwidth == other.bandwidth && file == other.file &&
           resolvedFile == other.resolvedFile && sameData;
}

std::string_view densityModelName(DensityModelKind kind)
{
    switch (kind) {
    case DensityModelKind::Uniform:
        return "uniform";
    case DensityModelKind::FixedStructured:
        return "fixed-structured";
    case DensityModelKind::Banded:
        return "banded";
    case DensityModelKind::Actual:
        return "actual";
    }
    return "uniform";
}

std::optional<DensityModelKind> parseDensityModel(std::string_view name)
{
    if (name == "uniform" || name == "hypergeometric")
        return DensityModelKind::Uniform;
    if (name == "fixed-structured")
        return DensityModelKind::FixedStructured;
    if (name == "banded")
        return DensityModelKind::Banded;
    if (name == "actual")
        return DensityModelKind::Actual;
    return std::nullopt;
}

} // namespace sparsemap
