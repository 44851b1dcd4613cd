#pragma once
// What the editor's table models share: the document, the rejected() signal, and the one path by
// which an edit reaches the document. A model parses the cell's text into a candidate architecture;
// commitEdit() then refuses it (the parse error, or the first problem the candidate adds to the whole
// architecture) with rejected() and stores nothing, or pushes it as one undo command.
#include "architecture_document.hpp"

#include <QAbstractTableModel>

namespace sparsemap::ui {

class ArchitectureTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    int columnCount(const QModelIndex& parent = {}) const override;
    // Every cell is editable unless a model says otherwise.
    Qt::ItemFlags flags(const QModelIndex& index) const override;

signals:
    void rejected(const QString& message);

protected:
    ArchitectureTableModel(ArchitectureDocument* doc, int columns, QObject* parent);

    // Wraps the document's loads (a new architecture) in begin / endResetModel.
    void followDocumentResets();
    // Emits rejected(message); returns false, for `return refuse(...)` in setData and friends.
    bool refuse(const QString& message);
    // Refuses `parseError` when it is not empty, else what `candidate` newly breaks (newProblem); an
    // accepted candidate that differs from the document becomes one undo command named `undoText`.
    // True when accepted (also when it changes nothing: no undo entry, no "modified").
    bool commitEdit(Architecture candidate, const QString& parseError, const QString& undoText);

    ArchitectureDocument* m_doc;

private:
    int m_columns;
};

} // namespace sparsemap::ui
