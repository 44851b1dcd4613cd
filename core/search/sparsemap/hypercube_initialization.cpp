#include "search/sparsemap/hypercube_initialization.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace sparsemap::search {

namespace {

constexpr double kDead = std::numeric_limits<double>::infinity();

void require(bool ok, const std::string& message)
{
    if (!ok)
        throw std::invalid_argument("hypercube initialization: " + message);
}

// Offset of the first value of bin k when `size` values are cut into `bins` bins.
int binBegin(int k, int size, int bins)
{
    return static_cast<int>(static_cast<std::int64_t>(k) * size / bins);
}

} // namespace

HypercubeGrid::HypercubeGrid(std::vector<int> genes, std::span<const GeneRange> ranges, int targetCells)
    : m_genes(std::move(genes)), m_bins(m_genes.size(), 1)
{
    for (int g : m_genes)
        m_ranges.push_back(ranges[g]);
    while (m_cellCount < targetCells) {
        int pick = -1;
        for (std::size_t j = 0; j < m_genes.size(); ++j) {
            if (m_bins[j] >= m_ranges[j].size())
                continue;
            if (pick < 0 || m_bins[j] < m_bins[pick] ||
                (m_bins[j] == m_bins[pick] && m_ranges[j].size() > m_ranges[pick].size()))
                pick = static_cast<int>(j);
        }
        if (pick < 0)
            break;
        m_cellCount = m_cellCount / m_bins[pick] * (m_bins[pick] + 1);
        ++m_bins[pick];
    }
}

std::int64_t HypercubeGrid::cellOf(const Genome& genome) const
{
    std::int64_t cell = 0, stride = 1;
    for (std::size_t j = 0; j < m_genes.size(); ++j) {
        const int offset = genome[m_genes[j]] - m_ranges[j].lower;
        const int size = m_ranges[j].size(), bins = m_bins[j];
        // The largest k with binBegin(k) <= offset.
        const auto k = (static_cast<std::int64_t>(offset + 1) * bins - 1) / size;
        cell += k * stride;
        stride *= bins;
    }
    return cell;
}

void HypercubeGrid::sampleInCell(std::int64_t cell, Genome& genome, std::mt19937_64& rng) const
{
    for (std::size_t j = 0; j < m_genes.size(); ++j) {
        const int bins = m_bins[j], size = m_ranges[j].size();
        const int k = static_cast<int>(cell % bins);
        cell /= bins;
        const int first = binBegin(k, size, bins), last = binBegin(k + 1, size, bins) - 1;
        genome[m_genes[j]] = m_ranges[j].lower + uniformInt(first, last, rng);
    }
}

std::vector<std::int64_t> HypercubeGrid::chooseCells(int count, std::mt19937_64& rng) const
{
    std::vector<std::int64_t> all(static_cast<std::size_t>(m_cellCount));
    std::iota(all.begin(), all.end(), std::int64_t(0));
    std::shuffle(all.begin(), all.end(), rng);
    std::vector<std::int64_t> cells;
    for (int i = 0; i < count; ++i)
        cells.push_back(all[static_cast<std::size_t>(i) % all.size()]);
    return cells;
}

void validate(const HypercubeParameters& p)
{
    require(p.hypercubes >= 1 && p.hypercubes <= 1000000,
            "hypercubes must be in [1, 1000000] (got " + std::to_string(p.hypercubes) + ")");
    require(p.samplesPerHypercube >= 1,
            "samplesPerHypercube must be at least 1 (got " + std::to_string(p.samplesPerHypercube) + ")");
    require(p.calibratedLowGenesShare >= 0 && p.calibratedLowGenesShare <= 1,
            "calibratedLowGenesShare must be in [0, 1] (got " + std::to_string(p.calibratedLowGenesShare) +
                ")");
}

HypercubeInitialization hypercubeInitialization(std::span<const GeneRange> ranges,
                                                const std::vector<bool>& high,
                                                const Population& validCombinations,
                                                const BatchObjective& objective, const HypercubeParameters& p,
                                                std::mt19937_64& rng)
{
    validate(p);
    std::vector<int> highGenes;
    for (std::size_t g = 0; g < high.size(); ++g)
        if (high[g])
            highGenes.push_back(static_cast<int>(g));
    const HypercubeGrid grid(highGenes, ranges, p.hypercubes);
    HypercubeInitialization init;
    const auto cells = grid.chooseCells(p.hypercubes, rng);
    std::vector<Genome> kept(cells.size()), dead(cells.size());
    std::vector<double> keptObjective(cells.size(), kDead);
    std::vector<char> givenUp(cells.size(), 0);
    std::vector<double> objectives;
    for (int round = 0; round < p.samplesPerHypercube && !init.exhausted; ++round) {
        std::vector<std::size_t> pending;
        std::vector<Genome> batch;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            if (!kept[c].empty() || givenUp[c])
                continue;
            const bool fromPool = validCombinations.size() > 0 && uniform01(rng) < p.calibratedLowGenesShare;
            Genome genome = fromPool ? validCombinations.genomes[std::uniform_int_distribution<std::size_t>(
                                           0, validCombinations.size() - 1)(rng)]
                                     : randomIndividual(ranges, rng, p.admissible);
            grid.sampleInCell(cells[c], genome, rng);
            int draw = 1;
            for (; p.admissible && draw < kAdmissibleDraws && !p.admissible(genome); ++draw)
                grid.sampleInCell(cells[c], genome, rng);
            if (p.dropInadmissibleCells && draw == kAdmissibleDraws && !p.admissible(genome)) {
                givenUp[c] = 1;
                continue;
            }
            pending.push_back(c);
            batch.push_back(std::move(genome));
        }
        if (batch.empty())
            break;
        const auto n = objective(batch, objectives);
        init.evaluations += static_cast<std::int64_t>(n);
        init.exhausted = n < batch.size();
        for (std::size_t i = 0; i < n; ++i) {
            auto& slot = std::isfinite(objectives[i]) ? kept[pending[i]] : dead[pending[i]];
            slot = std::move(batch[i]);
            if (std::isfinite(objectives[i]))
                keptObjective[pending[i]] = objectives[i];
        }
    }
    // Cells without a valid sample: the best calibration individuals not yet used, then dead samples.
    Population spare = validCombinations;
    keepBest(spare, spare.size());
    std::size_t nextSpare = 0;
    for (std::size_t c = 0; c < cells.size(); ++c) {
        if (!kept[c].empty()) {
            ++init.validCells;
            init.population.add(std::move(kept[c]), keptObjective[c]);
        } else if (nextSpare < spare.size()) {
            init.population.add(spare.genomes[nextSpare], spare.objectives[nextSpare]);
            ++nextSpare;
        } else if (!dead[c].empty()) {
            init.population.add(std::move(dead[c]), kDead);
        } else {
            continue;
        }
        init.cells.push_back(grid.cellOf(init.population.genomes.back()));
    }
    return init;
}

} // namespace sparsemap::search
