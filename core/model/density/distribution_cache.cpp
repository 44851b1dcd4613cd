#include "model/density/distribution_cache.hpp"

#include <mutex>

namespace sparsemap::model {

bool DistributionCache::find(const Key& key, std::vector<OccupancyPoint>& out) const
{
    std::shared_lock lock(m_mutex);
    const auto it = m_entries.find(key);
    if (it == m_entries.end())
        return false;
    out.assign(it->second.begin(), it->second.end());
    return true;
}

void DistributionCache::insert(const Key& key, const std::vector<OccupancyPoint>& points) const
{
    std::unique_lock lock(m_mutex);
    if (m_entries.size() < kMaxEntries)
        m_entries.emplace(key, points);
}

} // namespace sparsemap::model
