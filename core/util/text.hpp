#pragma once
// Small string helpers shared by the parsers.
#include <string_view>

namespace sparsemap {

// `s` without leading and trailing spaces and tabs.
inline std::string_view trimBlanks(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

} // namespace sparsemap
