#pragma once
// Memo of DensityModel::distribution results of one model, keyed by the tile as the model sees it (the
// clamped volume, or the clamped rows x columns) and maxPoints. A design-space search evaluates the same
// few hundred tile shapes over and over, and a distribution costs ~10-30 us to build (Gauss rule) but ~0.1
// us to copy. Thread-safe (shared_mutex: lookups in parallel, inserts exclusive); bounded: once
// kMaxEntries are stored, new results are returned but no longer kept.
#include "model/density/density_model.hpp"

#include <map>
#include <shared_mutex>
#include <tuple>
#include <vector>

namespace sparsemap::model {

class DistributionCache {
public:
    static constexpr std::size_t kMaxEntries = 1 << 16;
    using Key = std::tuple<std::int64_t, std::int64_t, int>; // (volume or rows, columns or 0, maxPoints)

    // Copies the stored distribution into `out` (reusing its capacity); false when absent.
    bool find(const Key& key, std::vector<OccupancyPoint>& out) const;
    void insert(const Key& key, const std::vector<OccupancyPoint>& points) const;

private:
    mutable std::shared_mutex m_mutex;
    mutable std::map<Key, std::vector<OccupancyPoint>> m_entries;
};

} // namespace sparsemap::model
