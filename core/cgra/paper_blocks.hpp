#pragma once
// Blocks built to the CGRA SparseMap paper's numbers. The paper gives only summary features of its
// seven blocks (Table 2: C, K, |V_OP|, |V_R|, |V_W|, N_FG4), not their masks, so these masks are ours:
// the column fan-outs are chosen to meet every listed feature (nnz = (|V_OP| + K) / 2, N_FG4 columns
// with fan-out > 4) and filled round-robin over the kernels so that every kernel has a nonzero.
// The figure examples are ours too, built to show what each figure shows.
#include "cgra/cgra_spec.hpp"
#include "cgra/sparse_block.hpp"

#include <vector>

namespace sparsemap::cgra {

struct PaperBlockRow {
    const char* name;
    double sparsity;
    int channels, kernels;
    int ops, reads, writes, fanoutAbove4; // Table 2
    int mii;                              // Table 3
    // Table 3: baseline and SparseMap first attempt (II_0, |C|, |M|) and final II (0 = Failed).
    int baseIi0, baseCops, baseMcids, baseIi;
    int smIi0, smCops, smMcids, smIi;
};

const std::vector<PaperBlockRow>& paperTable();
// A mask meeting a Table 2 row; `fanouts` per channel (also used by the tests).
SparseBlock blockWithFanouts(const std::string& name, int kernels, const std::vector<int>& fanouts);
std::vector<SparseBlock> paperBlocks();

// Fig. 3-like: AIBA puts the two most associated channels on buses at the same time. An 8 x 2 array
// (2 input buses, so 4 channels need 2 time steps) where kernels 0-2 use c1 and c2, kernel 3 uses c0,
// c1, c3: channel order pairs {c0, c1} then {c2, c3} (3 MCIDs), AIBA pairs {c1, c2} (1 MCID).
SparseBlock figure3Block();
CgraSpec figure3Cgra();
// Fig. 4: one input with 5 multiplications (C1K5, all ones) on the paper's 4 x 4 array.
SparseBlock figure4Block();

} // namespace sparsemap::cgra
