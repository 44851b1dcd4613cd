#include "architecture_table_model.hpp"

#include "architecture_commands.hpp"
#include "editor_support.hpp"

namespace sparsemap::ui {

ArchitectureTableModel::ArchitectureTableModel(ArchitectureDocument* doc, int columns, QObject* parent)
    : QAbstractTableModel(parent), m_doc(doc), m_columns(columns)
{
}

int ArchitectureTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_columns;
}

Qt::ItemFlags ArchitectureTableModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return QAbstractTableModel::flags(index) | Qt::ItemIsEditable;
}

void ArchitectureTableModel::followDocumentResets()
{
    connect(m_doc, &ArchitectureDocument::aboutToReset, this, [this] { beginResetModel(); });
    connect(m_doc, &ArchitectureDocument::reset, this, [this] { endResetModel(); });
}

bool ArchitectureTableModel::refuse(const QString& message)
{
    emit rejected(message);
    return false;
}

bool ArchitectureTableModel::commitEdit(Architecture candidate, const QString& parseError,
                                        const QString& undoText)
{
    const QString error = parseError.isEmpty() ? newProblem(m_doc->architecture(), candidate) : parseError;
    if (!error.isEmpty())
        return refuse(error);
    if (candidate == m_doc->architecture())
        return true;
    m_doc->undoStack()->push(new EditArchitectureCommand(m_doc, std::move(candidate), undoText));
    return true;
}

} // namespace sparsemap::ui
