#include "analysis/hardware_trace.hpp"

namespace sparsemap::analysis {

HardwareTrace::HardwareTrace(const Workload& workload, const Architecture& arch, const Design& design,
                             std::uint64_t seed)
    : m_design(design), m_geometry(workload, arch, design.mapping), m_operands(workload, seed)
{
}

std::int64_t HardwareTrace::macSteps() const
{
    return m_geometry.stepCount() * m_geometry.usedInstances(-1);
}

void HardwareTrace::useModelCounts(std::int64_t actual, std::int64_t gated, std::int64_t skipped)
{
    m_model.emplace(macSteps(), actual, gated, skipped);
}

MacCounts HardwareTrace::countAllSteps() const
{
    MacCounts total;
    std::vector<MacState> states;
    for (std::int64_t step = 0; step < m_geometry.stepCount(); ++step) {
        macStates(step, states);
        const MacCounts c = countMacStates(states);
        total.active += c.active;
        total.gated += c.gated;
        total.skipped += c.skipped;
        total.empty += c.empty;
        total.idle += c.idle;
    }
    return total;
}

void HardwareTrace::macStates(std::int64_t step, std::vector<MacState>& out) const
{
    if (m_model)
        m_model->states(m_geometry, step, out);
    else
        sampledMacStates(m_geometry, m_operands, m_design, step, out);
}

MacCounts HardwareTrace::countStep(std::int64_t step) const
{
    std::vector<MacState> states;
    macStates(step, states);
    return countMacStates(states);
}

} // namespace sparsemap::analysis
