#include "search_options.hpp"

#include "search/method_names.hpp"
#include "util/limits.hpp"

namespace sparsemap::cli {

search::Objective parseObjective(const QString& text)
{
    if (const auto objective = model::parseObjective(str(text)))
        return *objective;
    throw UsageError("--objective must be edp, energy or delay, not '" + str(text) + "'");
}

std::string parseMethod(const QString& text, const char* option)
{
    const std::string name = str(text);
    if (search::isMethodName(name))
        return name;
    throw UsageError(std::string(option) + " must be one of these methods (" + search::methodNamesByGroup() +
                     "), not '" + name + "'");
}

std::int64_t parseBudget(const QString& text)
{
    bool ok = false;
    const qlonglong budget = text.toLongLong(&ok);
    if (!ok || budget < 1 || budget > kMaxBudget)
        throw UsageError("--budget must be a number of model evaluations in 1.." +
                         std::to_string(kMaxBudget) +
                         " (a run keeps every point it evaluates, ~410 bytes each), not '" + str(text) + "'");
    return budget;
}

std::uint64_t parseSeed(const QString& text)
{
    bool ok = false;
    const qulonglong seed = text.toULongLong(&ok);
    if (!ok)
        throw UsageError("--seed must be a non-negative integer, not '" + str(text) + "'");
    return seed;
}

int parseThreads(const QString& text)
{
    bool ok = false;
    const int threads = text.toInt(&ok);
    if (!ok || threads < 0 || threads > 256)
        throw UsageError("--threads must be 0 (all cores) or 1..256, not '" + str(text) + "'");
    return threads;
}

} // namespace sparsemap::cli
