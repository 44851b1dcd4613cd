#pragma once
// What the model said about a design, as a design file records it: plain numbers, so that the file
// formats do not depend on the model.
#include <string>

namespace sparsemap {

struct DesignMetrics {
    bool valid = false;
    std::string reason; // why invalid; empty when valid
    double cycles = 0;
    double energyPj = 0;
    double edp = 0; // cycles x pJ
    bool operator==(const DesignMetrics&) const = default;
};

} // namespace sparsemap
