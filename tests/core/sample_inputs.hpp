#pragma once
// The project's sample workloads (samples/workloads/NAME.yaml) and presets, loaded for the core
// tests that need a real Table III workload rather than one built in code (test_support.hpp).
#include "genome/genome_layout.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"

#include <string>

namespace sparsemap::test {

inline Workload sampleWorkload(const std::string& name)
{
    return loadWorkloadFile(std::string(SPARSEMAP_SOURCE_DIR "/samples/workloads/") + name + ".yaml");
}

// The genome layout of a sample workload on a preset (edge, mobile, cloud).
inline GenomeLayout sampleLayout(const std::string& workload, const std::string& preset)
{
    return GenomeLayout(sampleWorkload(workload), loadPreset(preset));
}

} // namespace sparsemap::test
