#include "workload/density.hpp"

namespace sparsemap {

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
