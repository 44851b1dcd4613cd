#pragma once
// Sparseloop's `fixed-structured` density (spec §2.2): a shape-only model in which every tile of n
// coordinates holds x = n * d nonzeros, i.e. floor(x) with probability 1 - frac(x) and ceil(x) with
// probability frac(x). n:m structured sparsity is modelled as d = n / m (the model does not know about
// block alignment, exactly like Sparseloop). Under the constraint "the enclosing tile of S coordinates
// holds K" the density becomes K / S (the 2022+ revision; the 2021 one ignored the constraint and does
// not reproduce the STC LRF numbers, spec §7.1). Dense tensors and outputs are this model at d = 1.
#include "model/density/density_model.hpp"

namespace sparsemap::model {

class FixedStructuredModel final : public DensityModel {
public:
    // d = numerator / denominator exactly (n:m sparsity, or 1/1 for dense data).
    FixedStructuredModel(std::vector<std::int64_t> extents, std::int64_t numerator, std::int64_t denominator);
    // d given as a real number in (0, 1]; x = n * d is snapped to an integer within 1e-12 relative so
    // that e.g. 0.3 * 10 holds exactly 3.
    FixedStructuredModel(std::vector<std::int64_t> extents, double density);

    std::string_view name() const override { return "fixed-structured"; }
    double density() const override { return m_density; }
    double probability(std::int64_t k, TileShape shape) const override;
    double probabilityEmpty(TileShape shape) const override;
    double probabilityGiven(std::int64_t k, std::int64_t volume, std::int64_t outerVolume,
                            std::int64_t outerNnz) const override;
    double probabilityEmptyGiven(std::int64_t volume, std::int64_t outerVolume,
                                 std::int64_t outerNnz) const override;
    std::int64_t minOccupancy(TileShape shape) const override;
    std::int64_t maxOccupancy(TileShape shape, double confidence = 1.0) const override;
    double expectedOccupancy(TileShape shape) const override;
    void distribution(TileShape shape, std::vector<OccupancyPoint>& out,
                      int maxPoints = kDefaultDistributionPoints) const override;

    // x = floor + frac with 0 <= frac < 1.
    struct Split {
        std::int64_t floor = 0;
        double frac = 0;
    };
    // volume * numerator / denominator, exactly.
    static Split splitRatio(std::int64_t volume, std::int64_t numerator, std::int64_t denominator);

private:
    Split split(std::int64_t volume) const;

    std::int64_t m_numerator = 0; // > 0 when the density is an exact ratio
    std::int64_t m_denominator = 0;
    double m_density = 1;
};

} // namespace sparsemap::model
