#pragma once
// Files a search run leaves behind: every evaluated point (CSV: the PCA and valid-share plots read
// it) and the convergence per generation (CSV). Written atomically.
#include "genome/genome_layout.hpp"
#include "search/search_types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sparsemap {

// A CSV field: quoted, with quotes doubled, when it holds a comma, quote or newline (a newline becomes a
// space).
std::string csvField(std::string_view text);
// The fields of one CSV line written with csvField (quoted fields with doubled quotes); nullopt when a
// quoted field is not closed.
std::optional<std::vector<std::string>> splitCsvLine(const std::string& line);

std::string pointsCsv(const search::SearchResult& result);
std::string convergenceCsv(const search::SearchResult& result);
void savePointsCsv(const search::SearchResult& result, const std::string& path);
void saveConvergenceCsv(const search::SearchResult& result, const std::string& path);
// The energy-delay front (analysis/pareto_front.hpp), fastest first: rank, point index, metrics, the
// design file written for it (`designFiles[rank]`, may be empty) and the genome.
std::string paretoFrontCsv(const search::SearchResult& result, const std::vector<std::int64_t>& front,
                           const std::vector<std::string>& designFiles);

} // namespace sparsemap
