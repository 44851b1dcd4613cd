#pragma once
// Per-shape TileHistograms of one coordinate-dependent density model, built lazily and shared between
// threads. Readers take a shared lock; a missing histogram is built outside the lock by the caller and
// inserted under an exclusive one (if two threads build the same shape, the first insert wins and the
// other copy is dropped). Entries are never evicted, so returned pointers stay valid for the model's
// lifetime; memory grows with the number of distinct tile shapes queried (a few per design).
#include "model/density/tile_histogram.hpp"

#include <map>
#include <memory>
#include <shared_mutex>

namespace sparsemap::model {

class TileHistogramCache {
public:
    // nullptr when the shape (rows, columns) has not been built yet.
    const TileHistogram* find(std::int64_t rows, std::int64_t columns) const;
    const TileHistogram* insert(std::int64_t rows, std::int64_t columns, TileHistogram histogram) const;

private:
    mutable std::shared_mutex m_mutex;
    mutable std::map<std::pair<std::int64_t, std::int64_t>, std::unique_ptr<const TileHistogram>> m_entries;
};

} // namespace sparsemap::model
