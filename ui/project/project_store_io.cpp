// ProjectStore's session files, apart from its in-memory edits (project_store.cpp).
#include "common/guarded.hpp"
#include "io/session_io.hpp"
#include "project_store.hpp"

namespace sparsemap::ui {

QString ProjectStore::load(const QString& path)
{
    // Parsed completely before anything is replaced: a bad file changes nothing.
    return guarded([&] { replaceSession(loadSessionFile(path.toStdString()), path); });
}

QString ProjectStore::save()
{
    if (m_filePath.isEmpty())
        return "The session has no file yet: use Save As.";
    return saveAs(m_filePath);
}

QString ProjectStore::saveAs(const QString& path)
{
    // Atomic: an error leaves the old file as it was.
    if (QString error = guarded([&] { saveSessionFile(m_session, path.toStdString()); }); !error.isEmpty())
        return error;
    if (m_filePath != path) {
        m_filePath = path;
        emit filePathChanged(path);
    }
    setModified(false);
    return {};
}

} // namespace sparsemap::ui
