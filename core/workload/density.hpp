#pragma once
// How the nonzeros of an input tensor are distributed (Sparseloop Table IV). This is the plain,
// editable specification; the statistical models that answer tile-occupancy queries are built from
// it by the analytical model.
#include "workload/nonzero_pattern.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace sparsemap {

enum class DensityModelKind {
    Uniform,         // nnz placed uniformly at random with an exact count (hypergeometric tiles)
    FixedStructured, // N nonzeros in every block of M consecutive elements of the innermost rank
    Banded,          // nonzeros only within a band of half-width `bandwidth` around the diagonal
    Actual,          // the nonzero pattern of a Matrix Market file or a 0/1 mask
};

struct DensitySpec {
    DensityModelKind model = DensityModelKind::Uniform;
    double density = 1.0;       // (0, 1]; for FixedStructured n/m, for Banded/Actual the file's or band's
    int structuredN = 0;        // FixedStructured only
    int structuredM = 0;        // FixedStructured only
    std::int64_t bandwidth = 0; // Banded only: |row - col| <= bandwidth
    std::string file;           // Actual only: path as written by the user
    std::string resolvedFile;   // Actual only: path resolved against the workload file's folder
    // Actual only: the file as read once by io (io/nonzero_pattern_io.hpp, loadActualData) when the
    // workload was read or the data loaded; shared by copies. The model and the hardware trace take the
    // pattern from here and read no file.
    std::shared_ptr<const ActualData> data;

    // Actual only: data's pattern. Throws InputError when the file could not be read (its diagnostics)
    // or was never read (a spec built in code without loadActualData).
    const NonzeroPattern& actualPattern() const;

    // Equal data: the same object, or the same pattern (or read error) read twice.
    bool operator==(const DensitySpec& other) const;
};

std::string_view densityModelName(DensityModelKind kind);
// Accepts "uniform", "hypergeometric" (an alias), "fixed-structured", "banded", "actual".
std::optional<DensityModelKind> parseDensityModel(std::string_view name);

} // namespace sparsemap
