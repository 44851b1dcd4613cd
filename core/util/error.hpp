#pragma once
// Error reporting for the core library. The core never exits or aborts: every problem with user input
// becomes an InputError carrying one or more diagnostics (file, line, column, document path, message),
// so that the CLI can print them and the GUI can show them without dying.
#include <stdexcept>
#include <string>
#include <vector>

namespace sparsemap {

struct Diagnostic {
    std::string file;    // empty when the input did not come from a file
    int line = 0;        // 1-based; 0 when unknown
    int column = 0;      // 1-based; 0 when unknown
    std::string path;    // document path, e.g. "architecture.levels[2].capacity"
    std::string message; // what is wrong and what is allowed

    // `file:line:column: path: message`, with control characters escaped (util/text.hpp).
    std::string toString() const;
};

// Thrown for any invalid user input (files, genomes, designs, command-line values).
class InputError : public std::runtime_error {
public:
    explicit InputError(std::vector<Diagnostic> diagnostics);
    explicit InputError(const std::string& message);

    const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }

private:
    std::vector<Diagnostic> m_diagnostics;
};

// Thrown for a genome of the wrong length or with a gene outside its bounds.
class GenomeError : public InputError {
public:
    using InputError::InputError;
};

// Throws one InputError with a diagnostic `what: problem` for every problem; nothing when there are none.
void throwIfProblems(const std::string& what, const std::vector<std::string>& problems);

} // namespace sparsemap
