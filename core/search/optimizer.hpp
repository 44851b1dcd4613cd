#pragma once
// One interface for every search method (pagmo's "algorithm"): run() spends the context's budget
// through SearchContext::evaluate, closes a generation (or batch) at a time with endGeneration, and
// returns as soon as SearchContext::done() says so. Parameters live in each method's own struct.
#include "search/search_context.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sparsemap::search {

class Optimizer {
public:
    virtual ~Optimizer() = default;
    virtual std::string name() const = 0;
    virtual void run(SearchContext& context) = 0;
    // Where the last run spent its evaluations, one line a phase (`sparsemap search` prints them);
    // empty when the method has nothing to add to its points and convergence.
    virtual std::vector<std::string> summary() const { return {}; }
};

// Runs `optimizer` on a fresh context and returns what it found (also when cancelled).
SearchResult runSearch(Optimizer& optimizer, const GenomeLayout& layout, const SearchSettings& settings,
                       const model::ModelOptions& modelOptions = {}, const CancelToken* cancel = nullptr,
                       const ProgressCallback& progress = {}, const PointsCallback& points = {});

} // namespace sparsemap::search
