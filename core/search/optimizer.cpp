#include "search/optimizer.hpp"

namespace sparsemap::search {

SearchResult runSearch(Optimizer& optimizer, const GenomeLayout& layout, const SearchSettings& settings,
                       const model::ModelOptions& modelOptions, const CancelToken* cancel,
                       const ProgressCallback& progress, const PointsCallback& points)
{
    SearchContext context(layout, settings, modelOptions, cancel, progress, points);
    optimizer.run(context);
    auto result = context.takeResult();
    result.method = optimizer.name();
    return result;
}

} // namespace sparsemap::search
