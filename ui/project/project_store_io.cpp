// ProjectStore's session files, apart from its in-memory edits (project_store.cpp).
#include "io/session_io.hpp"
#include "project_store.hpp"

#include <exception>

namespace sparsemap::ui {

QString ProjectStore::load(const QString& path)
{
    try {
        // Parsed completely before anything is replaced: a bad file changes nothing.
        Session session = loadSessionFile(path.toStdString());
        replaceSession(std::move(session), path);
        return {};
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

QString ProjectStore::save()
{
    if (m_filePath.isEmpty())
        return "The session has no file yet: use Save As.";
    return saveAs(m_filePath);
}

QString ProjectStore::saveAs(const QString& path)
{
    try {
        saveSessionFile(m_session, path.toStdString()); // atomic: an error leaves the old file
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    if (m_filePath != path) {
        m_filePath = path;
        emit filePathChanged(path);
    }
    setModified(false);
    return {};
}

} // namespace sparsemap::ui
