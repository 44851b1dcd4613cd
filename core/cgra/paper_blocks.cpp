#include "cgra/paper_blocks.hpp"

namespace sparsemap::cgra {

const std::vector<PaperBlockRow>& paperTable()
{
    static const std::vector<PaperBlockRow> rows = {
        {"block1", 0.33, 4, 6, 26, 4, 6, 3, 2, 2, 3, 5, 3, 2, 0, 2, 2},
        {"block2", 0.33, 4, 6, 26, 4, 6, 2, 2, 2, 4, 2, 2, 2, 0, 1, 2},
        {"block3", 0.42, 6, 6, 36, 6, 6, 3, 3, 3, 5, 11, 3, 3, 1, 4, 3},
        {"block4", 0.21, 4, 6, 32, 4, 6, 3, 2, 3, 4, 5, 3, 2, 0, 3, 2},
        {"block5", 0.48, 8, 8, 58, 8, 8, 3, 4, 5, 9, 16, 0, 4, 1, 8, 4},
        {"block6", 0.62, 8, 8, 40, 8, 8, 2, 3, 3, 7, 8, 3, 3, 0, 5, 3},
        {"block7", 0.48, 8, 8, 58, 8, 8, 4, 4, 5, 8, 16, 0, 4, 2, 11, 4},
    };
    return rows;
}

SparseBlock blockWithFanouts(const std::string& name, int kernels, const std::vector<int>& fanouts)
{
    SparseBlock block;
    block.name = name;
    block.channels = int(fanouts.size());
    block.kernels = kernels;
    block.mask.assign(std::size_t(block.channels) * std::size_t(kernels), 0);
    int next = 0;
    for (int c = 0; c < block.channels; ++c)
        for (int i = 0; i < fanouts[std::size_t(c)]; ++i) {
            block.mask[std::size_t(next) * std::size_t(block.channels) + std::size_t(c)] = 1;
            next = (next + 1) % kernels;
        }
    validateBlock(block);
    return block;
}

std::vector<SparseBlock> paperBlocks()
{
    static const std::vector<std::vector<int>> fanouts = {
        {5, 5, 5, 1},
        {5, 5, 3, 3},
        {5, 5, 5, 2, 2, 2},
        {6, 5, 5, 3},
        {5, 5, 5, 4, 4, 4, 3, 3},
        {5, 5, 3, 3, 2, 2, 2, 2},
        {5, 5, 5, 5, 4, 3, 3, 3},
    };
    std::vector<SparseBlock> blocks;
    for (std::size_t i = 0; i < paperTable().size(); ++i)
        blocks.push_back(blockWithFanouts(paperTable()[i].name, paperTable()[i].kernels, fanouts[i]));
    return blocks;
}

SparseBlock figure3Block()
{
    SparseBlock block;
    block.name = "fig3";
    block.channels = 4;
    block.kernels = 4;
    block.mask = {
        0, 1, 1, 0, // k0: c1 c2
        0, 1, 1, 0, // k1: c1 c2
        0, 1, 1, 0, // k2: c1 c2
        1, 1, 0, 1, // k3: c0 c1 c3
    };
    return block;
}

CgraSpec figure3Cgra()
{
    CgraSpec cgra;
    cgra.name = "fig3-8x2";
    cgra.rows = 8;
    cgra.cols = 2;
    return cgra;
}

SparseBlock figure4Block()
{
    SparseBlock block;
    block.name = "fig4";
    block.channels = 1;
    block.kernels = 5;
    block.mask.assign(5, 1);
    return block;
}

} // namespace sparsemap::cgra
