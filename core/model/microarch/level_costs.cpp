#include "model/microarch/level_costs.hpp"

#include <algorithm>
#include <cmath>

namespace sparsemap::model {

namespace {

double blocks(double words, double block)
{
    return words > 0 ? std::ceil(words / block) : 0.0;
}

double splitEnergy(const ActionSplit& counts, const AccessEnergy& e, double unit, double ratio = 1)
{
    return (blocks(counts.actual, unit) * e.actual + blocks(counts.gated, unit) * e.gated +
            blocks(counts.skipped, unit) * e.skipped) *
           ratio;
}

} // namespace

void computeLevelEnergy(const StorageLevel& spec, const LevelEnergyCosts& costs, LevelResult& level)
{
    const double block = spec.blockSize > 0 ? spec.blockSize : 1;
    const double mdWidth = spec.metadataWordBits > 0 ? spec.metadataWordBits : spec.wordBits;
    level.energyPj = 0;
    for (auto& t : level.tensors) {
        if (!t.kept && !t.streamed) {
            t.energyPj = 0;
            continue;
        }
        const double perInstance = splitEnergy(t.reads, costs.read, block, t.vectorRatio) +
                                   splitEnergy(t.fills, costs.fill, block, t.vectorRatio) +
                                   splitEnergy(t.updates, costs.update, block, t.vectorRatio) +
                                   splitEnergy(t.metadataReads, costs.metadataRead, mdWidth) +
                                   splitEnergy(t.metadataFills, costs.metadataFill, mdWidth) +
                                   splitEnergy(t.metadataUpdates, costs.metadataUpdate, mdWidth);
        t.energyPj = perInstance * t.instances;
        level.energyPj += t.energyPj;
    }
}

void computeLevelCycles(const StorageLevel& spec, double computeCycles, LevelResult& level)
{
    double readWords = 0, writeWords = 0;
    // Timeloop (BufferLevel::ComputePerformance) sums each tensor's words / compute cycles, in tensor
    // order, and takes ceil(compute cycles / slowdown): kept in that order, since the rounding noise
    // of the sum decides the ceil where the cycles come out integral (96 words at 4 per cycle over
    // 9 compute cycles: 9 / (4 / (64/9 + 16/9 + 16/9)) = 24.000000000000004, 25 cycles).
    double readRate = 0, writeRate = 0;
    const double wordBits = spec.wordBits > 0 ? spec.wordBits : 1;
    for (const auto& t : level.tensors) {
        if (!t.kept && !t.streamed)
            continue;
        const double reads = t.reads.actual + t.reads.gated +
                             std::floor((t.metadataReads.actual + t.metadataReads.gated) / wordBits);
        const double writes = t.fills.actual + t.fills.gated + t.updates.actual + t.updates.gated +
                              std::floor((t.metadataFills.actual + t.metadataFills.gated +
                                          t.metadataUpdates.actual + t.metadataUpdates.gated) /
                                         wordBits);
        // Timeloop spreads a tensor's demand over the instances that hold it on average (spatial
        // skipping leaves some empty): the per-instance accesses scaled by average / peak instances.
        const double ratio = t.instances > 0 && level.maxInstances > 0 ? level.maxInstances / t.instances : 1;
        const double r = std::fabs(ratio - 1) > 1e-12 ? std::ceil(reads / ratio) : reads;
        const double w = std::fabs(ratio - 1) > 1e-12 ? std::ceil(writes / ratio) : writes;
        readWords += r;
        writeWords += w;
        if (computeCycles > 0) {
            readRate += r / computeCycles;
            writeRate += w / computeCycles;
        }
    }
    if (!(computeCycles > 0)) {
        // No compute time to spread the traffic over (every compute skipped, or densities so low that
        // no nonzero is expected): the level still needs words / bandwidth cycles to move its data, and
        // moving any data takes at least one cycle.
        double cycles = 0;
        if (spec.readBandwidth > 0)
            cycles = std::max(cycles, readWords / spec.readBandwidth);
        if (spec.writeBandwidth > 0)
            cycles = std::max(cycles, writeWords / spec.writeBandwidth);
        if (readWords + writeWords > 0)
            cycles = std::max(cycles, 1.0);
        level.cycles = std::ceil(cycles);
        level.readWordsPerCycle = level.cycles > 0 ? readWords / level.cycles : 0;
        level.writeWordsPerCycle = level.cycles > 0 ? writeWords / level.cycles : 0;
        level.throttling = level.cycles > 0 ? 0 : 1; // the compute (0 cycles) runs at no speed relative to it
        return;
    }
    level.readWordsPerCycle = readRate;
    level.writeWordsPerCycle = writeRate;
    double slowdown = 1;
    if (spec.readBandwidth > 0 && spec.readBandwidth < level.readWordsPerCycle)
        slowdown = std::min(slowdown, spec.readBandwidth / level.readWordsPerCycle);
    if (spec.writeBandwidth > 0 && spec.writeBandwidth < level.writeWordsPerCycle)
        slowdown = std::min(slowdown, spec.writeBandwidth / level.writeWordsPerCycle);
    level.throttling = slowdown;
    level.cycles = std::ceil(computeCycles / slowdown);
}

void computeComputeEnergy(const ComputeEnergyCosts& costs, ComputeResult& compute)
{
    compute.energyPj =
        compute.actual * costs.actual + compute.gated * costs.gated + compute.skipped * costs.skipped;
}

} // namespace sparsemap::model
