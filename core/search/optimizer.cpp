#include "search/optimizer.hpp"

namespace sparsemap::search {

SearchResult runSearch(Optimizer& optimizer, const GenomeLayout& layout, const SearchSettings& settings,
                       const model::ModelOptions& modelOptions, const CancelToken* cancel,
                       const ProgressCallback& progress)
{
    SearchContext context(layout, settings, modelOptions, cancel, progress);
    optimizer.run(context);
    auto result = context.takeResult();
    result.method = optimizer.name();
    return result;
}

} // namespace sparsemap::search
