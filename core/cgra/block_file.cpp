#include "cgra/block_file.hpp"

#include "util/file_io.hpp"
#include "util/error.hpp"

#include <filesystem>

namespace sparsemap::cgra {

SparseBlock parseBlockText(const std::string& text, const std::string& fileName)
{
    SparseBlock block;
    block.name = std::filesystem::path(fileName).stem().string();
    std::vector<Diagnostic> problems;
    const auto problem = [&](int line, int column, std::string message) {
        problems.push_back({fileName, line, column, {}, std::move(message)});
    };
    int firstRowLine = 0;
    int lineNumber = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        ++lineNumber;
        std::string line = text.substr(start, end - start);
        start = end + 1;
        if (const auto hash = line.find('#'); hash != std::string::npos)
            line.erase(hash);
        std::vector<std::uint8_t> row;
        bool bad = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char ch = line[i];
            if (ch == '0' || ch == '1')
                row.push_back(std::uint8_t(ch - '0'));
            else if (ch == ' ' || ch == '\t' || ch == ',' || ch == '\r')
                continue;
            else {
                problem(
                    lineNumber, int(i) + 1,
                    std::string("unexpected '") + ch +
                        "'; a mask row holds only 0 and 1 (one per channel), separated by spaces or commas");
                bad = true;
                break;
            }
        }
        if (bad || row.empty())
            continue;
        if (block.kernels == 0) {
            block.channels = int(row.size());
            firstRowLine = lineNumber;
        } else if (int(row.size()) != block.channels) {
            problem(lineNumber, 1,
                    "row has " + std::to_string(row.size()) + " channels but the first row (line " +
                        std::to_string(firstRowLine) + ") has " + std::to_string(block.channels) +
                        "; every kernel row needs one 0/1 per channel");
            continue;
        }
        block.mask.insert(block.mask.end(), row.begin(), row.end());
        ++block.kernels;
    }
    if (!problems.empty())
        throw InputError(problems);
    if (block.kernels == 0)
        throw InputError({{fileName, 0, 0, {}, "no mask rows; write one line of 0/1 per kernel"}});
    if (block.channels > kMaxBlockSide)
        throw InputError({{fileName,
                           firstRowLine,
                           1,
                           {},
                           "has " + std::to_string(block.channels) + " channels; at most " +
                               std::to_string(kMaxBlockSide) + " are supported"}});
    if (block.kernels > kMaxBlockSide)
        throw InputError({{fileName,
                           lineNumber,
                           0,
                           {},
                           "has " + std::to_string(block.kernels) + " kernel rows; at most " +
                               std::to_string(kMaxBlockSide) + " are supported"}});
    if (block.nnz() == 0)
        throw InputError({{fileName,
                           firstRowLine,
                           0,
                           {},
                           "every weight is zero; a block needs at least one 1 in its mask"}});
    return block;
}

SparseBlock loadBlockFile(const std::string& path)
{
    return parseBlockText(readTextFile(path), path);
}

std::string blockText(const SparseBlock& block)
{
    std::string out = "# sparse block '" + block.name + "': " + std::to_string(block.kernels) +
                      " kernel rows x " + std::to_string(block.channels) + " channels, 1 = nonzero weight\n";
    for (int k = 0; k < block.kernels; ++k) {
        for (int c = 0; c < block.channels; ++c) {
            if (c)
                out += ' ';
            out += block.weight(k, c) ? '1' : '0';
        }
        out += '\n';
    }
    return out;
}

void saveBlockFile(const std::string& path, const SparseBlock& block)
{
    writeTextFileAtomically(path, blockText(block));
}

} // namespace sparsemap::cgra
