#include "io/search_io.hpp"

#include "util/file_io.hpp"

#include <cmath>
#include <cstdio>

namespace sparsemap {

namespace {

std::string number(double x)
{
    if (!std::isfinite(x))
        return "inf";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", x);
    return buf;
}

} // namespace

std::string csvField(std::string_view s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return std::string(s);
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
    return out + "\"";
}

std::optional<std::vector<std::string>> splitCsvLine(const std::string& line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c != '"')
                fields.back() += c;
            else if (i + 1 < line.size() && line[i + 1] == '"')
                fields.back() += c, ++i;
            else
                quoted = false;
        } else if (c == '"')
            quoted = true;
        else if (c == ',')
            fields.emplace_back();
        else
            fields.back() += c;
    }
    if (quoted)
        return std::nullopt;
    return fields;
}

std::string pointsCsv(const search::SearchResult& result)
{
    std::string out = "index,generation,valid,objective,cycles,energy_pj,edp,genome,reason\n";
    for (std::size_t i = 0; i < result.points.size(); ++i) {
        const auto& p = result.points[i];
        std::string genome;
        for (std::size_t g = 0; g < p.genome.size(); ++g)
            genome += (g ? " " : "") + std::to_string(p.genome[g]);
        out += std::to_string(i) + ',' + std::to_string(p.generation) + ',' + (p.valid ? "1" : "0") + ',' +
               number(p.objective) + ',' + number(p.cycles) + ',' + number(p.energyPj) + ',' + number(p.edp) +
               ',' + genome + ',' + csvField(p.reason) + '\n';
    }
    return out;
}

std::string convergenceCsv(const search::SearchResult& result)
{
    std::string out = "generation,evaluations,best,population_average,valid_share\n";
    for (const auto& g : result.convergence)
        out += std::to_string(g.generation) + ',' + std::to_string(g.evaluations) + ',' + number(g.best) +
               ',' + number(g.populationAverage) + ',' + number(g.validShare) + '\n';
    return out;
}

std::string paretoFrontCsv(const search::SearchResult& result, const std::vector<std::int64_t>& front,
                           const std::vector<std::string>& designFiles)
{
    std::string out = "rank,point,cycles,energy_pj,edp,design_file,genome\n";
    for (std::size_t r = 0; r < front.size(); ++r) {
        const auto& p = result.points.at(static_cast<std::size_t>(front[r]));
        std::string genome;
        for (std::size_t g = 0; g < p.genome.size(); ++g)
            genome += (g ? " " : "") + std::to_string(p.genome[g]);
        out += std::to_string(r) + ',' + std::to_string(front[r]) + ',' + number(p.cycles) + ',' +
               number(p.energyPj) + ',' + number(p.edp) + ',' +
               csvField(r < designFiles.size() ? designFiles[r] : std::string()) + ',' + genome + '\n';
    }
    return out;
}

void savePointsCsv(const search::SearchResult& result, const std::string& path)
{
    writeTextFileAtomically(path, pointsCsv(result));
}

void saveConvergenceCsv(const search::SearchResult& result, const std::string& path)
{
    writeTextFileAtomically(path, convergenceCsv(result));
}

} // namespace sparsemap
