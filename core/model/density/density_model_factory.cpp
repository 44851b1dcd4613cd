#include "model/density/density_model_factory.hpp"

#include "model/density/actual_model.hpp"
#include "model/density/banded_model.hpp"
#include "model/density/fixed_structured_model.hpp"
#include "model/density/hypergeometric_model.hpp"
#include "util/error.hpp"
#include "util/limits.hpp"

namespace sparsemap::model {

namespace {

void checkExtents(const std::vector<std::int64_t>& extents)
{
    if (extents.empty())
        throw InputError("a density model needs a tensor with at least one rank");
    std::int64_t volume = 1;
    for (const std::int64_t e : extents) {
        if (e < 1)
            throw InputError("tensor extent " + std::to_string(e) + " is not positive");
        if (volume > kMaxVolume / e)
            throw InputError("a tensor has more than 2^53 = " + std::to_string(kMaxVolume) +
                             " coordinates (the product of its ranks' extents), the most the density models "
                             "represent; make the dimensions smaller");
        volume *= e;
    }
}

void checkDensity(double d, const char* what)
{
    if (!(d > 0 && d <= 1))
        throw InputError(std::string(what) + " density " + std::to_string(d) + " must be in (0, 1]");
}

std::int64_t volumeOf(const std::vector<std::int64_t>& extents)
{
    std::int64_t v = 1;
    for (const std::int64_t e : extents)
        v *= e;
    return v;
}

} // namespace

std::unique_ptr<DensityModel> makeDensityModel(const DensitySpec& spec,
                                               const std::vector<std::int64_t>& tensorExtents)
{
    checkExtents(tensorExtents);
    switch (spec.model) {
    case DensityModelKind::Uniform:
        checkDensity(spec.density, "uniform");
        return std::make_unique<HypergeometricModel>(tensorExtents,
                                                     ceilNonzeros(spec.density, volumeOf(tensorExtents)));
    case DensityModelKind::FixedStructured:
        if (spec.structuredM > 0) {
            if (spec.structuredN < 1 || spec.structuredN > spec.structuredM)
                throw InputError("fixed-structured n:m = " + std::to_string(spec.structuredN) + ":" +
                                 std::to_string(spec.structuredM) + " needs 0 < n <= m");
            return std::make_unique<FixedStructuredModel>(tensorExtents, spec.structuredN, spec.structuredM);
        }
        checkDensity(spec.density, "fixed-structured");
        return std::make_unique<FixedStructuredModel>(tensorExtents, spec.density);
    case DensityModelKind::Banded:
        if (tensorExtents.size() != 2)
            throw InputError("banded density needs a 2-rank tensor (a matrix); this tensor has " +
                             std::to_string(tensorExtents.size()) + " ranks");
        if (spec.bandwidth < 0)
            throw InputError("banded bandwidth " + std::to_string(spec.bandwidth) + " must be >= 0");
        checkDensity(spec.density, "banded in-band");
        return std::make_unique<BandedModel>(tensorExtents, spec.bandwidth, spec.density);
    case DensityModelKind::Actual: {
        const std::string& file = spec.resolvedFile.empty() ? spec.file : spec.resolvedFile;
        if (file.empty())
            throw InputError("actual density needs a file");
        return std::make_unique<ActualModel>(tensorExtents, spec.actualPattern());
    }
    }
    throw InputError("unknown density model");
}

std::unique_ptr<DensityModel> makeDenseModel(const std::vector<std::int64_t>& tensorExtents)
{
    checkExtents(tensorExtents);
    return std::make_unique<FixedStructuredModel>(tensorExtents, 1, 1);
}

double actualDataDensity(const std::vector<std::int64_t>& tensorExtents, const NonzeroPattern& pattern)
{
    const ActualModel checked(tensorExtents, pattern); // throws on a mismatch
    double elements = 1;
    for (auto e : tensorExtents)
        elements *= static_cast<double>(e);
    return static_cast<double>(checked.pattern().nonzeros.size()) / elements;
}

} // namespace sparsemap::model
