#pragma once
// Small string helpers shared by the parsers.
#include <string>
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

// Whether escapeControl keeps newlines: for a whole report (several lines) the program wrote around
// names taken from files; a name alone has them escaped too.
enum class LineBreaks { Escape, Keep };

// `s` safe to print on a terminal: control characters (newline, escape, carriage return, delete, ...)
// become visible escapes (`\n`, `\x1b`), so text taken from a file cannot clear or retitle the terminal
// or forge a line of its own. Other bytes, UTF-8 included, pass unchanged. With LineBreaks::Keep a
// newline stays one. Every message and every report the command line prints goes through here.
inline std::string escapeControl(std::string_view s, LineBreaks lineBreaks = LineBreaks::Escape)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(s.size());
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c != 0x7f) {
            out += ch;
        } else if (c == '\n') {
            out += lineBreaks == LineBreaks::Keep ? "\n" : "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

} // namespace sparsemap
