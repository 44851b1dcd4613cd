// Adapters from the sparse analysis to the density models (model/density/), and the density
// models of a workload's tensors.
#include "model/density/density_model.hpp"
#include "model/density/density_model_factory.hpp"
#include "model/sparse/sparse_context.hpp"
#include "util/rounding.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap::model {

namespace {

std::int64_t clampedVolume(const DensityModel& model, double volume)
{
    const double v = std::max(1.0, std::min(volume, static_cast<double>(model.volume())));
    return static_cast<std::int64_t>(std::llround(v));
}

} // namespace

DensityModels makeTensorDensityModels(const Workload& w)
{
    DensityModels models(w.tensors.size());
    for (std::size_t t = 0; t < w.tensors.size(); ++t) {
        const auto extents = tensorExtents(w, static_cast<int>(t));
        if (w.tensors[t].isOutput && !w.tensors[t].densityDeclared) {
            DensitySpec spec;
            spec.model = DensityModelKind::Uniform;
            spec.density = derivedOutputDensity(w);
            models[t] = makeDensityModel(spec, extents);
        } else {
            models[t] = makeDensityModel(w.tensors[t].density, extents);
        }
    }
    return models;
}

double probabilityEmpty(const DensityModel& model, std::span<const std::int64_t> shape)
{
    return model.probabilityEmpty(shape);
}

double probabilityEmptyOfVolume(const DensityModel& model, double volume)
{
    // A coordinate-independent query: a 1-D tile of that many coordinates along the flattened tensor.
    if (model.extents().size() == 1) {
        const std::int64_t v = clampedVolume(model, volume);
        return model.probabilityEmpty(std::span<const std::int64_t>(&v, 1));
    }
    return model.probabilityEmptyGiven(clampedVolume(model, volume), model.volume(), model.nnz());
}

double probabilityEmptyGiven(const DensityModel& model, double volume, double outerVolume, double outerNnz)
{
    const auto outer = clampedVolume(model, outerVolume);
    const auto v = std::min(clampedVolume(model, volume), outer);
    const auto k =
        static_cast<std::int64_t>(std::llround(std::clamp(outerNnz, 0.0, static_cast<double>(outer))));
    return model.probabilityEmptyGiven(v, outer, k);
}

std::int64_t maxOccupancy(const DensityModel& model, std::span<const std::int64_t> shape, double confidence)
{
    return model.maxOccupancy(shape, confidence);
}

std::int64_t maxOccupancyOfVolume(const DensityModel& model, double volume)
{
    // Worst case of a tile of that volume: all of it, unless the tensor has fewer nonzeros; a
    // fixed-structured tile always holds its share (rounded up).
    const auto v = clampedVolume(model, volume);
    if (model.name() == "fixed-structured")
        return std::min(v, static_cast<std::int64_t>(ceilCount(static_cast<double>(v) * model.density())));
    return std::min(v, model.nnz());
}

double scalarDensity(const DensityModel& model)
{
    return model.density();
}

void occupancyDistribution(const DensityModel& model, std::span<const std::int64_t> shape,
                           std::vector<std::pair<std::int64_t, double>>& out)
{
    thread_local std::vector<OccupancyPoint> points;
    if (model.extents().size() != shape.size()) {
        // A flattened (1-D) query on a multi-rank tensor: use the volume within the whole tensor.
        double volume = 1;
        for (auto e : shape)
            volume *= static_cast<double>(e);
        const auto v = clampedVolume(model, volume);
        out.clear();
        const auto lo = std::max<std::int64_t>(0, v + model.nnz() - model.volume());
        const auto hi = std::min(v, model.nnz());
        for (std::int64_t k = lo; k <= hi && out.size() < 4096; ++k) {
            const double p = model.probabilityGiven(k, v, model.volume(), model.nnz());
            if (p > kNegligibleProbability)
                out.push_back({k, p});
        }
        return;
    }
    model.distribution(shape, points);
    out.clear();
    for (const auto& p : points)
        out.push_back({p.occupancy, p.probability});
}

} // namespace sparsemap::model
