#pragma once
// Spearman's rank correlation: how well one quantity orders cases like another (ties get their
// average rank). Used to check that the model ranks designs as Sparseloop does.
#include <vector>

namespace sparsemap::analysis {

// Average ranks (1-based) of the values.
std::vector<double> ranks(const std::vector<double>& values);
// Pearson correlation of the ranks; 0 when either side has fewer than two distinct values.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

} // namespace sparsemap::analysis
