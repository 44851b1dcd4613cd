#pragma once
// The runtime density model of one tensor (Sparseloop's density distributions, spec
// docs/model-notes-sparse.md §2): answers "how many nonzeros does a tile of this shape hold?" as a
// probability distribution. Built once per tensor from its DensitySpec (density_model_factory.hpp),
// immutable afterwards and safe to share between threads (every query is const and reentrant: the
// coordinate-dependent models keep a per-shape cache behind a shared_mutex, distribution() builds its
// intermediate measure in thread_local scratch).
//
// Tile shapes are given as the extent of the tile along every rank of the tensor, in the same order as
// the tensor extents the model was built with (the workload's rank order, outer to inner). Models that
// do not depend on coordinates (hypergeometric, fixed-structured) use only the volume. A tile extent
// larger than the tensor's is clamped to it; a shape that does not divide the tensor tiles it with
// zero-padded edge tiles.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace sparsemap::model {

using TileShape = std::span<const std::int64_t>;

// One point of an occupancy distribution: the tile holds `occupancy` nonzeros with `probability`.
struct OccupancyPoint {
    std::int64_t occupancy = 0;
    double probability = 0;
};

// Points with probability at or below this are not part of the exact support (spec §3.5).
inline constexpr double kNegligibleProbability = 1e-18;
// Default size of distribution(): up to 33 exact points, else a <= 16-node quadrature (distribution()).
inline constexpr int kDefaultDistributionPoints = 33;

// ceil(density * coordinates), Sparseloop's nonzero count of a uniform tensor (spec §2.1: 0.56 of 131072
// -> 73401). A product within 1e-12 relative of an integer counts as that integer, so that the binary
// representation of e.g. 0.7 cannot add a spurious nonzero.
std::int64_t ceilNonzeros(double density, std::int64_t coordinates);

class DensityModel {
public:
    virtual ~DensityModel() = default;
    DensityModel(const DensityModel&) = delete;
    DensityModel& operator=(const DensityModel&) = delete;

    // "hypergeometric", "fixed-structured", "banded" or "actual" (the name Sparseloop prints).
    virtual std::string_view name() const = 0;
    const std::vector<std::int64_t>& extents() const { return m_extents; }
    std::int64_t volume() const { return m_volume; } // coordinates of the whole tensor
    std::int64_t nnz() const { return m_nnz; }       // nonzeros of the whole tensor
    // The scalar density E[k | 1 coordinate].
    virtual double density() const;

    // P(the tile holds exactly k nonzeros).
    virtual double probability(std::int64_t k, TileShape shape) const = 0;
    virtual double probabilityEmpty(TileShape shape) const { return probability(0, shape); }
    // The occupancy a parent with metadata lets Sparseloop drop as "empty" (its representation
    // analyzer drops the lowest occupancy of non-zero probability when the density model's minimum
    // is 0), with its probability: (0, P(empty)) unless the tile cannot be empty, then the lowest
    // possible occupancy (a near-dense tensor: Sparseloop drops it all the same) or nothing.
    virtual OccupancyPoint droppedAsEmpty(TileShape shape) const { return {0, probabilityEmpty(shape)}; }
    // Whether Sparseloop's occupancy distribution of the tile comes out empty (its minimum occupancy
    // above its maximum): it then expects no data and no metadata in the tile at all.
    virtual bool sparseloopSeesNoOccupancy(TileShape) const { return false; }
    // The expected occupancy of the tile bit for bit as Sparseloop's representation analyzer sums it
    // (CalculateExpectedOccupancy: pdf x occupancy over the support in ascending order, conditioned
    // on dropping droppedAsEmpty() when `conditionOnNonEmpty`), for the callers that floor a product
    // of it where its rounding noise decides the floor. Empty when the model cannot reproduce it or
    // when it would cost more than a few milliseconds (the default).
    virtual std::optional<double> sparseloopExpectedOccupancy(TileShape, bool /*conditionOnNonEmpty*/) const
    {
        return std::nullopt;
    }

    // The same for a sub-tile of `volume` coordinates inside an enclosing tile of `outerVolume`
    // coordinates known to hold exactly `outerNnz` nonzeros (spec §2.1 "with constraint (S, K)"). The
    // default is the hypergeometric distribution within the enclosing tile; the coordinate-dependent
    // models (banded, actual) use it too: an approximation, since the sub-tile's position inside the
    // enclosing tile is not known to the caller.
    virtual double probabilityGiven(std::int64_t k, std::int64_t volume, std::int64_t outerVolume,
                                    std::int64_t outerNnz) const;
    virtual double probabilityEmptyGiven(std::int64_t volume, std::int64_t outerVolume,
                                         std::int64_t outerNnz) const;

    virtual std::int64_t minOccupancy(TileShape shape) const = 0;
    // The c-quantile of the occupancy (smallest k with P(K <= k) >= c); confidence 1 = the worst case.
    virtual std::int64_t maxOccupancy(TileShape shape, double confidence = 1.0) const = 0;
    virtual double expectedOccupancy(TileShape shape) const = 0;

    // The occupancy distribution of a tile for expectations, with bounded size. `out` is cleared and
    // filled with ascending points whose probabilities sum to 1:
    //  * the exact support (points with p > kNegligibleProbability) when it has <= maxPoints points;
    //  * otherwise a quadrature on at most min(maxPoints, 16) integer occupancies: the Gauss nodes of the
    //    exact distribution rounded to integers with interpolatory weights, so that weighted sums
    //    reproduce E[f(K)] exactly for polynomials of degree < nodes; for the smooth functions of K a
    //    format walk computes that is ~1e-13 relative for wide distributions and ~1e-6 relative (on a
    //    value that is itself small) for narrow ones, sigma ~ 4 (tests/core/test_model_density.cpp).
    //    Steps (a ceil inside f) are only resolved to the node spacing. See occupancy_quadrature.hpp.
    // Cost: O(support) for supports of up to ~1000 points (hypergeometric sigma < 16 or maxPoints
    // >= 22 sigma), else O(100) pmf samples; plus O(points x 16) for the quadrature.
    virtual void distribution(TileShape shape, std::vector<OccupancyPoint>& out,
                              int maxPoints = kDefaultDistributionPoints) const = 0;

protected:
    DensityModel(std::vector<std::int64_t> extents, std::int64_t nnz);
    // The tile's volume clamped to the tensor; throws std::invalid_argument on a rank-count mismatch or
    // a non-positive extent (programming errors, not user input).
    std::int64_t tileVolume(TileShape shape) const;
    void checkShape(TileShape shape) const;

private:
    std::vector<std::int64_t> m_extents;
    std::int64_t m_volume = 1;
    std::int64_t m_nnz = 0;
};

} // namespace sparsemap::model
