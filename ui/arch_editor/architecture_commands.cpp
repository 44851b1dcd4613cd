#include "architecture_commands.hpp"

namespace sparsemap::ui {

EditArchitectureCommand::EditArchitectureCommand(ArchitectureDocument* doc, Architecture after,
                                                 const QString& text)
    : QUndoCommand(text), m_doc(doc), m_before(doc->architecture()), m_after(std::move(after))
{
}

InsertLevelsCommand::InsertLevelsCommand(ArchitectureDocument* doc, int row, std::vector<StorageLevel> levels)
    : QUndoCommand(QObject::tr("Add storage level")), m_doc(doc), m_row(row), m_levels(std::move(levels))
{
}

void InsertLevelsCommand::undo()
{
    m_doc->applyRemoveLevels(m_row, static_cast<int>(m_levels.size()));
}

RemoveLevelsCommand::RemoveLevelsCommand(ArchitectureDocument* doc, int row, int count)
    : QUndoCommand(QObject::tr("Remove storage level")), m_doc(doc), m_row(row)
{
    const auto& levels = doc->architecture().levels;
    m_levels.assign(levels.begin() + row, levels.begin() + row + count);
}

void RemoveLevelsCommand::redo()
{
    m_doc->applyRemoveLevels(m_row, static_cast<int>(m_levels.size()));
}

} // namespace sparsemap::ui
