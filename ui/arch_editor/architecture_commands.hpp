#pragma once
// The undo commands of the architecture editor: one per user action. An edit of values (a cell of the
// level table, an energy, the compute form) stores the whole architecture before and after, which is
// small and makes undo exact; adding or removing levels is structural and has its own commands so that
// the models see row insertions and removals rather than resets.
#include "architecture_document.hpp"

#include <QUndoCommand>

#include <vector>

namespace sparsemap::ui {

class EditArchitectureCommand : public QUndoCommand {
public:
    EditArchitectureCommand(ArchitectureDocument* doc, Architecture after, const QString& text);
    void undo() override { m_doc->applyArchitecture(m_before); }
    void redo() override { m_doc->applyArchitecture(m_after); }

private:
    ArchitectureDocument* m_doc;
    Architecture m_before;
    Architecture m_after;
};

class InsertLevelsCommand : public QUndoCommand {
public:
    InsertLevelsCommand(ArchitectureDocument* doc, int row, std::vector<StorageLevel> levels);
    void undo() override;
    void redo() override { m_doc->applyInsertLevels(m_row, m_levels); }

private:
    ArchitectureDocument* m_doc;
    int m_row;
    std::vector<StorageLevel> m_levels;
};

class RemoveLevelsCommand : public QUndoCommand {
public:
    RemoveLevelsCommand(ArchitectureDocument* doc, int row, int count);
    void undo() override { m_doc->applyInsertLevels(m_row, m_levels); }
    void redo() override;

private:
    ArchitectureDocument* m_doc;
    int m_row;
    std::vector<StorageLevel> m_levels; // the removed levels, to put back
};

} // namespace sparsemap::ui
