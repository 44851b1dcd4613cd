#include "genome/genome_text.hpp"

#include "util/error.hpp"

#include <charconv>

namespace sparsemap {

Genome parseGenomeText(std::string_view text)
{
    Genome genome;
    std::size_t i = 0;
    auto isSeparator = [](char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (i < text.size() && isSeparator(text[i]))
        ++i;
    bool bracketed = false;
    if (i < text.size() && text[i] == '[') {
        bracketed = true;
        ++i;
    }
    while (i < text.size()) {
        if (isSeparator(text[i])) {
            ++i;
            continue;
        }
        if (text[i] == ']' && bracketed) {
            ++i;
            while (i < text.size() && isSeparator(text[i]))
                ++i;
            if (i != text.size())
                throw GenomeError("unexpected text after ']' in the genome");
            bracketed = false;
            break;
        }
        std::size_t end = i;
        while (end < text.size() && !isSeparator(text[end]) && text[end] != ']')
            ++end;
        const std::string_view token = text.substr(i, end - i);
        int value = 0;
        const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (ec != std::errc() || ptr != token.data() + token.size())
            throw GenomeError("genome entry " + std::to_string(genome.size() + 1) + " ('" +
                              std::string(token) +
                              "') is not an integer; a genome is a list of integers like 1,3,2");
        genome.push_back(value);
        i = end;
    }
    if (bracketed)
        throw GenomeError("the genome's '[' is not closed");
    if (genome.empty())
        throw GenomeError("the genome is empty; a genome is a list of integers like 1,3,2");
    return genome;
}

std::string genomeToText(const Genome& genome)
{
    std::string out;
    for (std::size_t i = 0; i < genome.size(); ++i) {
        if (i)
            out += ',';
        out += std::to_string(genome[i]);
    }
    return out;
}

} // namespace sparsemap
