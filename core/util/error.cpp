#include "util/error.hpp"

#include "util/text.hpp"

namespace sparsemap {

std::string Diagnostic::toString() const
{
    // Every part may come from a file (names, values quoted in messages): escaped, so that one
    // diagnostic is one line and cannot drive the terminal.
    std::string out;
    if (!file.empty()) {
        out += escapeControl(file);
        if (line > 0) {
            out += ':' + std::to_string(line);
            if (column > 0)
                out += ':' + std::to_string(column);
        }
        out += ": ";
    } else if (line > 0) {
        out += "line " + std::to_string(line) + ": ";
    }
    if (!path.empty())
        out += escapeControl(path) + ": ";
    out += escapeControl(message);
    return out;
}

namespace {
std::string joinDiagnostics(const std::vector<Diagnostic>& diagnostics)
{
    std::string out;
    for (const auto& d : diagnostics) {
        if (!out.empty())
            out += '\n';
        out += d.toString();
    }
    return out.empty() ? std::string("invalid input") : out;
}
} // namespace

InputError::InputError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(joinDiagnostics(diagnostics)), m_diagnostics(std::move(diagnostics))
{
}

InputError::InputError(const std::string& message)
    : std::runtime_error(escapeControl(message)), m_diagnostics{Diagnostic{{}, 0, 0, {}, message}}
{
}

void throwIfProblems(const std::string& what, const std::vector<std::string>& problems)
{
    if (problems.empty())
        return;
    std::vector<Diagnostic> diagnostics;
    for (const auto& p : problems)
        diagnostics.push_back(Diagnostic{{}, 0, 0, what, p});
    throw InputError(std::move(diagnostics));
}

} // namespace sparsemap
