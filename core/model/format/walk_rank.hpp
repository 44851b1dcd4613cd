#pragma once
// The inputs and outputs of the fibertree occupancy walk (spec §3.3-3.4), one entry per rank of a
// tile's representation format, innermost first (rank 0). The caller resolves loops to ranks (§3.2),
// fiber shapes, sub-tile volumes and word bits; the walk only does arithmetic on them.
#include "sparse/rank_format.hpp"

#include <cstdint>

namespace sparsemap::model {

// Ranks per format the walk supports (fixed-size scratch keeps it allocation-free).
inline constexpr int kMaxWalkRanks = 16;

struct WalkRank {
    RankFormat format = RankFormat::U;
    std::int64_t fiberShape = 1;    // f_r: coordinates spanned by this rank's loop(s)
    std::int64_t subTileVolume = 1; // s_r: coordinates of the tile of all ranks below r (s_0 = 1)
    std::int64_t maxFibers = 1;     // maxfib_r = prod_{q > r} f_q (1 for the top rank)
    int metadataBits = 0;           // bits per metadata unit (resolved: defaults already applied)
    int payloadBits = 0;            // bits per payload unit
    bool dummy = false;             // no loop mapped to the rank (fiber shape 1)
};

// Units (not bits) of one rank; expected values may be fractional.
struct RankOccupancy {
    double metadata = 0;
    double payload = 0;
};

} // namespace sparsemap::model
