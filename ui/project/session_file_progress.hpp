#pragma once
// Saving and opening a session file from the GUI without freezing it: the ProjectStore's background
// operation, a window-modal progress dialog with Cancel and a busy cursor, and a local event loop that
// keeps every window repainting until the operation ends.
#include <QString>

class QWidget;

namespace sparsemap::ui {

class ProjectStore;

enum class SessionFileOperation { Load, Save };

// Returns an empty string on success, "cancelled" when the user cancelled, else the error message.
// A cancelled or failed load leaves the session as it was; a cancelled or failed save leaves the file.
QString runSessionFileOperation(ProjectStore* store, QWidget* parent, SessionFileOperation operation,
                                const QString& path);

} // namespace sparsemap::ui
