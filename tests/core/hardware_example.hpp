#pragma once
// The hand-worked example of the hardware-behaviour trace and view tests: a 4x4x4 SpMM on the toy
// accelerator (4 PEs x 4 MACs, test_support.hpp) with the mapping below, and a hand-written nonzero
// pattern for P and Q. The expected steps, tiles and MAC states are worked out in the tests.
//
// Mapping (M, K, N = dims 0, 1, 2; every other bound 1):
//   L1_T (DRAM)   M:2            -> for m1 in [0,2)   stride 2
//   L2_T (GLB)    N:2            -> for n2 in [0,2)   stride 2
//   L2_S (GLB)    N:2            -> par-for n3 in [0,2): PEs 0 and 1 of 4
//   L3_T (PE buf) M:2, K:2 (M outer) -> for m4 in [0,2) stride 1; for k4 in [0,2) stride 2
//   L3_S (PE buf) K:2            -> par-for k5 in [0,2): MACs 0 and 1 of each PE
// step = ((m1*2 + n2)*2 + m4)*2 + k4, 16 steps; a MAC processes
//   M = 2*m1 + m4, K = 2*k4 + k5, N = 2*n2 + n3.
#include "design/design.hpp"
#include "io/nonzero_pattern_io.hpp"
#include "workload/workload_factory.hpp"

#include <QDir>
#include <QString>
#include <fstream>

namespace sparsemap::test {

inline Design hardwareExampleDesign(const Workload& w, const Architecture& arch)
{
    Design d;
    d.mapping = trivialMapping(arch, w);
    auto& L = d.mapping.levels; // L1_T, L2_T, L2_S, L3_T, L3_S
    L[0].bounds = {2, 1, 1};
    L[1].bounds = {1, 1, 2};
    L[2].bounds = {1, 1, 2};
    L[3].bounds = {2, 2, 1};
    L[4].bounds = {1, 2, 1};
    d.sparse.formats.assign(3, std::vector<TensorFormat>(3));
    return d;
}

// P (M x K):          Q (K x N):
//   1 0 1 0             1 0 0 1
//   0 1 0 0             0 1 0 0
//   0 0 0 0             0 0 0 0
//   0 0 0 0             1 1 1 0
inline constexpr const char* kHardwareExampleP =
    "%%MatrixMarket matrix coordinate pattern general\n4 4 3\n1 1\n1 3\n2 2\n";
inline constexpr const char* kHardwareExampleQ =
    "%%MatrixMarket matrix coordinate pattern general\n4 4 6\n1 1\n1 4\n2 2\n4 1\n4 2\n4 3\n";

inline DensitySpec actualDensityFile(const QString& path)
{
    DensitySpec s;
    s.model = DensityModelKind::Actual;
    s.file = s.resolvedFile = path.toStdString();
    loadActualData(s); // as reading a workload file does
    return s;
}

// Writes P.mtx and Q.mtx into `dir` and returns the SpMM reading them.
inline Workload hardwareExampleWorkload(const QDir& dir, const std::string& name = "actual")
{
    std::ofstream(dir.filePath("P.mtx").toStdString()) << kHardwareExampleP;
    std::ofstream(dir.filePath("Q.mtx").toStdString()) << kHardwareExampleQ;
    return makeSpmm(name, 4, 4, 4, actualDensityFile(dir.filePath("P.mtx")),
                    actualDensityFile(dir.filePath("Q.mtx")));
}

} // namespace sparsemap::test
