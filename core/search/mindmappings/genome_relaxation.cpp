#include "search/mindmappings/genome_relaxation.hpp"

#include "mapping/spatial_fanout.hpp"
#include "search/genome_checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sparsemap::search {

namespace {

bool categorical(GeneSegment s)
{
    return s == GeneSegment::Tiling || s == GeneSegment::Format || s == GeneSegment::SkipGate;
}

} // namespace

GenomeRelaxation::GenomeRelaxation(const GenomeLayout& layout) : m_layout(layout)
{
    for (const auto& g : layout.genes()) {
        m_offset.push_back(m_size);
        const int w = categorical(g.segment) ? g.upper - g.lower + 1 : 1;
        m_width.push_back(w);
        m_size += w;
    }
}

Eigen::VectorXd GenomeRelaxation::relax(std::span<const int> genome) const
{
    m_layout.validate(genome);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(m_size);
    for (int i = 0; i < m_layout.size(); ++i) {
        const int o = offset(i);
        if (width(i) == 1)
            x[o] = genome[static_cast<std::size_t>(i)];
        else
            x[o + genome[static_cast<std::size_t>(i)] - m_layout.gene(i).lower] = 1;
    }
    return x;
}

void GenomeRelaxation::clampToBox(Eigen::VectorXd& x) const
{
    for (int i = 0; i < m_layout.size(); ++i) {
        const auto& g = m_layout.gene(i);
        const bool scalar = width(i) == 1;
        for (int k = 0; k < width(i); ++k) {
            double& v = x[offset(i) + k];
            const double lo = scalar ? g.lower : 0.0, hi = scalar ? g.upper : 1.0;
            v = std::isnan(v) ? lo : std::clamp(v, lo, hi);
        }
    }
}

Genome GenomeRelaxation::project(const Eigen::VectorXd& x, const Eigen::VectorXd& scale) const
{
    if (x.size() != m_size || (scale.size() != 0 && scale.size() != m_size))
        throw std::invalid_argument("mindmappings: a relaxed genome needs " + std::to_string(m_size) +
                                    " values");
    Genome genome(static_cast<std::size_t>(m_layout.size()));
    for (int i = 0; i < m_layout.size(); ++i) {
        const auto& g = m_layout.gene(i);
        if (width(i) == 1) {
            const double v = x[offset(i)];
            genome[static_cast<std::size_t>(i)] =
                std::isnan(v) ? g.lower
                              : static_cast<int>(std::clamp(std::round(v), double(g.lower), double(g.upper)));
        } else {
            int best = 0; // ties and NaNs: the lowest choice
            for (int k = 1; k < width(i); ++k)
                if (x[offset(i) + k] > x[offset(i) + best])
                    best = k;
            genome[static_cast<std::size_t>(i)] = g.lower + best;
        }
    }
    repairFanout(x, scale, genome);
    return genome;
}

double GenomeRelaxation::distance(const Eigen::VectorXd& x, const Eigen::VectorXd& scale, int gene,
                                  int value) const
{
    const auto& g = m_layout.gene(gene);
    double d = 0;
    for (int k = 0; k < width(gene); ++k) {
        const int o = offset(gene) + k;
        const double target = width(gene) == 1 ? value : (g.lower + k == value ? 1.0 : 0.0);
        const double v = std::isnan(x[o]) ? 0.0 : x[o];
        d += std::pow((target - v) / (scale.size() ? scale[o] : 1.0), 2);
    }
    return d;
}

void GenomeRelaxation::repairFanout(const Eigen::VectorXd& x, const Eigen::VectorXd& scale,
                                    Genome& genome) const
{
    const auto& slots = m_layout.mappingLevels();
    const auto& arch = m_layout.architecture();
    const auto tiling = m_layout.segment(GeneSegment::Tiling);
    const auto levels = static_cast<std::size_t>(arch.levelCount());
    // Each move takes a factor off an overflowing level and creates no new overflow, so the overflow
    // strictly shrinks and the loop ends; moving to a temporal level is always possible.
    for (;;) {
        const auto used = spatialFanoutUse(arch, spatialLoopsOfGenome(m_layout, genome));
        auto overflows = [&](std::size_t level) {
            return used[level] > arch.fanout(static_cast<int>(level));
        };
        bool any = false;
        for (std::size_t s = 0; s < levels; ++s)
            any = any || overflows(s);
        // Without overflow, the spatial loops must still split over Timeloop's meshes; otherwise the
        // cheapest move of a spatial factor to a temporal level (the spatial share only shrinks).
        const bool meshOnly = !any;
        if (meshOnly && spatialFanoutFits(m_layout, genome))
            return;
        double bestCost = std::numeric_limits<double>::infinity();
        int bestGene = -1, bestValue = 0;
        for (int i = tiling.begin; i < tiling.end; ++i) {
            const int current = genome[static_cast<std::size_t>(i)];
            const auto& from = slots[static_cast<std::size_t>(current - 1)];
            if (from.kind != LoopKind::Spatial ||
                (!meshOnly && !overflows(static_cast<std::size_t>(from.storageLevel))))
                continue;
            const auto& g = m_layout.gene(i);
            const double here = distance(x, scale, i, current);
            for (int v = g.lower; v <= g.upper; ++v) {
                if (v == current)
                    continue;
                const auto& to = slots[static_cast<std::size_t>(v - 1)];
                if (to.kind == LoopKind::Spatial) {
                    if (meshOnly)
                        continue;
                    const auto level = static_cast<std::size_t>(to.storageLevel);
                    if (level == static_cast<std::size_t>(from.storageLevel) ||
                        used[level] * g.factor > arch.fanout(to.storageLevel))
                        continue;
                }
                const double cost = distance(x, scale, i, v) - here;
                if (cost < bestCost) {
                    bestCost = cost;
                    bestGene = i;
                    bestValue = v;
                }
            }
        }
        if (bestGene < 0)
            throw std::logic_error("mindmappings: no tiling move repairs the spatial fan-out");
        genome[static_cast<std::size_t>(bestGene)] = bestValue;
    }
}

} // namespace sparsemap::search
