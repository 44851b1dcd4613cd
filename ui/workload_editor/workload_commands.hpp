#pragma once
// The workload editor's undo command: the whole workload before and after one user action.
#include "workload_document.hpp"

#include <QUndoCommand>

namespace sparsemap::ui {

class EditWorkloadCommand : public QUndoCommand {
public:
    EditWorkloadCommand(WorkloadDocument* doc, Workload after, const QString& text)
        : QUndoCommand(text), m_doc(doc), m_before(doc->workload()), m_after(std::move(after))
    {
    }
    void undo() override { m_doc->applyWorkload(m_before); }
    void redo() override { m_doc->applyWorkload(m_after); }

private:
    WorkloadDocument* m_doc;
    Workload m_before;
    Workload m_after;
};

} // namespace sparsemap::ui
