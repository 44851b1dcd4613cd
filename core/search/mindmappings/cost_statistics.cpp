#include "search/mindmappings/cost_statistics.hpp"

#include "model/microarch/energy_costs.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap::search {

namespace {

// Elements of a tensor of the workload: per rank, the range of its affine index.
double footprint(const Workload& w, const Tensor& t)
{
    double size = 1;
    for (const auto& rank : t.ranks) {
        std::int64_t extent = 1;
        for (const auto& term : rank)
            extent += std::abs(term.coefficient) * (w.dims[static_cast<std::size_t>(term.dim)].size - 1);
        size *= static_cast<double>(extent);
    }
    return size;
}

constexpr double kTiny = 1e-12; // keeps a ratio finite where the minimum would be zero

double ratioLog(double value, double minimum)
{
    return std::log(std::max(value, kTiny * minimum) / minimum);
}

} // namespace

AlgorithmicMinimum algorithmicMinimum(const GenomeLayout& layout)
{
    const Workload& w = layout.workload();
    const Architecture& arch = layout.architecture();
    double inputWords = 0, outputWords = 0, effectual = w.denseMacs();
    for (const auto& t : w.tensors) {
        if (t.isOutput) {
            outputWords += footprint(w, t);
        } else {
            inputWords += footprint(w, t) * t.density.density;
            effectual *= t.density.density; // a MAC is effectual when all its operands are nonzero
        }
    }
    AlgorithmicMinimum m;
    for (const auto& level : arch.levels) {
        const auto costs = model::resolveLevelEnergy(level);
        const double block = std::max(1, level.blockSize);
        m.levelEnergyPj.push_back(std::max(kTiny, inputWords * costs.read.actual / block +
                                                      outputWords * costs.update.actual / block));
        m.energyPj += m.levelEnergyPj.back();
    }
    m.computeEnergyPj = std::max(kTiny, effectual * model::resolveComputeEnergy(arch.compute).actual);
    m.energyPj += m.computeEnergyPj;
    m.cycles =
        std::max(1.0, effectual / static_cast<double>(std::max<std::int64_t>(1, arch.compute.instances)));
    return m;
}

std::vector<double> costStatistics(const model::EvaluationResult& r, const AlgorithmicMinimum& m)
{
    std::vector<double> s;
    for (std::size_t l = 0; l < m.levelEnergyPj.size(); ++l)
        s.push_back(ratioLog(l < r.levels.size() ? r.levels[l].energyPj : 0.0, m.levelEnergyPj[l]));
    s.push_back(ratioLog(r.compute.energyPj, m.computeEnergyPj));
    s.push_back(ratioLog(r.energyPj, m.energyPj));
    s.push_back(ratioLog(r.cycles, m.cycles));
    return s;
}

} // namespace sparsemap::search
