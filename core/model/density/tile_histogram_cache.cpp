#include "model/density/tile_histogram_cache.hpp"

#include <mutex>

namespace sparsemap::model {

const TileHistogram* TileHistogramCache::find(std::int64_t rows, std::int64_t columns) const
{
    std::shared_lock lock(m_mutex);
    const auto it = m_entries.find({rows, columns});
    return it == m_entries.end() ? nullptr : it->second.get();
}

const TileHistogram* TileHistogramCache::insert(std::int64_t rows, std::int64_t columns,
                                                TileHistogram histogram) const
{
    std::unique_lock lock(m_mutex);
    auto& slot = m_entries[{rows, columns}];
    if (!slot)
        slot = std::make_unique<const TileHistogram>(std::move(histogram));
    return slot.get();
}

} // namespace sparsemap::model
