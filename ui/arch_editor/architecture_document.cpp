#include "architecture_document.hpp"

#include "common/guarded.hpp"
#include "io/architecture_io.hpp"

#include <exception>
#include <utility>

namespace sparsemap::ui {

ArchitectureDocument::ArchitectureDocument(QObject* parent) : QObject(parent)
{
    // "Modified" is exactly "not at the clean index", so undoing back to the save point clears it.
    connect(&m_undoStack, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
    // Start from the smallest preset so that the editor never shows an empty, invalid architecture.
    guarded([this] { m_arch = sparsemap::loadPreset("edge"); });
}

QString ArchitectureDocument::loadPreset(const QString& name)
{
    return guarded([&] { replaceAll(sparsemap::loadPreset(name.toStdString()), {}); });
}

QString ArchitectureDocument::loadFile(const QString& path)
{
    return guarded([&] { replaceAll(loadArchitectureFile(path.toStdString()), path); });
}

QString ArchitectureDocument::save()
{
    if (m_filePath.isEmpty())
        return tr("No file to save to: choose a file name.");
    return saveAs(m_filePath);
}

QString ArchitectureDocument::saveAs(const QString& path)
{
    const QString error = guarded([&] { saveArchitectureFile(m_arch, path.toStdString()); });
    if (!error.isEmpty())
        return error;
    if (path != m_filePath) {
        m_filePath = path;
        emit filePathChanged(path);
    }
    m_undoStack.setClean();
    return {};
}

QString ArchitectureDocument::loadArchitecture(const Architecture& arch)
{
    const auto problems = architectureProblems(arch);
    if (!problems.empty())
        return QString::fromStdString("Architecture " + arch.name + ": " + problems.front());
    replaceAll(arch, {});
    return {};
}

void ArchitectureDocument::replaceAll(Architecture arch, const QString& path)
{
    emit aboutToReset();
    m_arch = std::move(arch);
    emit reset();
    m_undoStack.clear(); // clear() also makes the stack clean
    if (path != m_filePath) {
        m_filePath = path;
        emit filePathChanged(path);
    }
    emit changed();
}

void ArchitectureDocument::applyArchitecture(const Architecture& arch)
{
    Q_ASSERT(arch.levelCount() == m_arch.levelCount());
    const Architecture before = std::exchange(m_arch, arch);
    for (int i = 0; i < m_arch.levelCount(); ++i) {
        if (!(before.levels[i] == m_arch.levels[i]))
            emit levelChanged(i);
    }
    if (!(before.compute == m_arch.compute) || before.clockGHz != m_arch.clockGHz ||
        before.name != m_arch.name)
        emit computeChanged();
    emit changed();
}

void ArchitectureDocument::applyInsertLevels(int row, const std::vector<StorageLevel>& levels)
{
    const int last = row + static_cast<int>(levels.size()) - 1;
    emit levelsAboutToBeInserted(row, last);
    m_arch.levels.insert(m_arch.levels.begin() + row, levels.begin(), levels.end());
    emit levelsInserted(row, last);
    emit computeChanged(); // derived values (MACs per PE) follow the innermost level
    emit changed();
}

void ArchitectureDocument::applyRemoveLevels(int row, int count)
{
    emit levelsAboutToBeRemoved(row, row + count - 1);
    m_arch.levels.erase(m_arch.levels.begin() + row, m_arch.levels.begin() + row + count);
    emit levelsRemoved(row, row + count - 1);
    emit computeChanged();
    emit changed();
}

} // namespace sparsemap::ui
