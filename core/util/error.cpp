#include "util/error.hpp"

namespace sparsemap {

std::string Diagnostic::toString() const
{
    std::string out;
    if (!file.empty()) {
        out += file;
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
        out += path + ": ";
    out += message;
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
    : std::runtime_error(message), m_diagnostics{Diagnostic{{}, 0, 0, {}, message}}
{
}

} // namespace sparsemap
