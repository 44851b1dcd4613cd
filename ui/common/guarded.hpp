#pragma once
// Runs a piece of core work for the GUI: every failure of the core (InputError, GenomeError, ...)
// becomes the message to show, so that a view reports it and carries on.
#include <QString>

#include <exception>

namespace sparsemap::ui {

// Returns an empty string when `work` returns normally, else the exception's message.
template <typename Work> QString guarded(Work&& work)
{
    try {
        work();
        return {};
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

} // namespace sparsemap::ui
