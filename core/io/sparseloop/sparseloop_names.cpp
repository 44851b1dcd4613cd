// Name helpers of the v0.3 tree and the ERT (declared in sparseloop_readers.hpp).
#include "io/sparseloop/sparseloop_readers.hpp"

#include <algorithm>
#include <charconv>

namespace sparsemap {

std::string_view sparseloopSafTypeName(SparseloopSafType type)
{
    switch (type) {
    case SparseloopSafType::Gating:
        return "gating";
    case SparseloopSafType::Skipping:
        return "skipping";
    case SparseloopSafType::SkippingSpatial:
        return "skipping-spatial";
    case SparseloopSafType::PositionSkipping:
        return "position-skipping";
    }
    return "skipping";
}

namespace detail {

std::string stripRanges(std::string_view name)
{
    std::string out;
    int depth = 0;
    for (char c : name) {
        if (c == '[')
            ++depth;
        else if (c == ']' && depth > 0)
            --depth;
        else if (depth == 0)
            out += c;
    }
    return out;
}

namespace {
bool parseIndex(std::string_view text, std::int64_t& value)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}
} // namespace

std::optional<std::int64_t> rangeCount(std::string_view name)
{
    // Large enough for any accelerator, small enough that a product of a few ranges cannot overflow.
    constexpr std::int64_t kMaxInstances = std::int64_t{1} << 40;
    std::int64_t count = 1;
    std::size_t pos = 0;
    while ((pos = name.find('[', pos)) != std::string_view::npos) {
        const std::size_t close = name.find(']', pos);
        if (close == std::string_view::npos)
            return std::nullopt;
        const std::string_view inner = name.substr(pos + 1, close - pos - 1);
        const std::size_t dots = inner.find("..");
        std::int64_t first = 0, last = 0;
        if (dots == std::string_view::npos || !parseIndex(inner.substr(0, dots), first) ||
            !parseIndex(inner.substr(dots + 2), last) || first < 0 || last < first)
            return std::nullopt;
        count *= last - first + 1;
        if (count > kMaxInstances)
            return std::nullopt;
        pos = close + 1;
    }
    if (name.find(']') < name.find('[') ||
        (name.find('[') == std::string_view::npos && name.find(']') != std::string_view::npos))
        return std::nullopt;
    return count;
}

std::string ertComponentName(std::string_view tableName)
{
    const std::string plain = stripRanges(tableName);
    const std::size_t dot = plain.rfind('.');
    return dot == std::string::npos ? plain : plain.substr(dot + 1);
}

void addNote(SparseloopCase& out, const std::string& note)
{
    if (std::find(out.notes.begin(), out.notes.end(), note) == out.notes.end())
        out.notes.push_back(note);
}

} // namespace detail
} // namespace sparsemap
