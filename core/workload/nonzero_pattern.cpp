#include "workload/nonzero_pattern.hpp"

namespace sparsemap {

const NonzeroPattern& ActualData::pattern() const
{
    if (!m_problems.empty())
        throw InputError(m_problems);
    return m_pattern;
}

bool ActualData::operator==(const ActualData& other) const
{
    if (m_pattern != other.m_pattern || m_problems.size() != other.m_problems.size())
        return false;
    for (std::size_t i = 0; i < m_problems.size(); ++i)
        if (m_problems[i].toString() != other.m_problems[i].toString())
            return false;
    return true;
}

} // namespace sparsemap
