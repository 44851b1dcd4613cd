#pragma once
// The nonzero pattern of an `actual` density (spec §2.4): the matrix its data file holds, as plain
// data. io/nonzero_pattern_io.hpp reads the file (Matrix Market or a 0/1 mask) once, when the workload
// is read or the data is loaded in the editor; DensitySpec::data carries it to the model and the
// hardware trace, which read no file.
#include "util/error.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sparsemap {

struct NonzeroPattern {
    std::string file;
    std::int64_t rows = 0;
    std::int64_t columns = 0;
    std::vector<std::int64_t> nonzeros; // row * columns + column, ascending, unique
    int shapeLine = 0;                  // the line that fixes the shape (size line, first mask row)

    bool operator==(const NonzeroPattern&) const = default;
};

// An actual-data file as read once: its pattern, or the diagnostics of why it could not be read. A
// failed read is kept rather than thrown, so that a workload naming a bad file still loads, and whoever
// needs the pattern (the model when it evaluates, the hardware trace) reports the file's error there,
// as when each of them read the file itself.
class ActualData {
public:
    explicit ActualData(NonzeroPattern pattern) : m_pattern(std::move(pattern)) {}
    explicit ActualData(std::vector<Diagnostic> problems) : m_problems(std::move(problems)) {}

    // Throws InputError with the read's diagnostics (file:line:column) when the file could not be read.
    const NonzeroPattern& pattern() const;

    // The same pattern, or the same diagnostics.
    bool operator==(const ActualData& other) const;

private:
    NonzeroPattern m_pattern;
    std::vector<Diagnostic> m_problems; // empty: m_pattern is the file's
};

} // namespace sparsemap
