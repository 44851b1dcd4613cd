#include "dimension_model.hpp"

#include "workload_text.hpp"

#include "arch_editor/editor_support.hpp"
#include "workload/dim_padding.hpp"

#include <QColor>
#include <QRegularExpression>
#include <QStringList>

namespace sparsemap::ui {

namespace {
// A name the index expressions can refer to: no blanks, `+` or `*`, not a number.
bool isDimName(const QString& text)
{
    static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return identifier.match(text).hasMatch();
}
} // namespace

DimensionModel::DimensionModel(WorkloadDocument* doc, QObject* parent)
    : QAbstractTableModel(parent), m_doc(doc)
{
    connect(doc, &WorkloadDocument::aboutToReset, this, [this] { beginResetModel(); });
    connect(doc, &WorkloadDocument::reset, this, [this] { endResetModel(); });
    connect(doc, &WorkloadDocument::changed, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    });
}

bool DimensionModel::editable() const
{
    return m_doc->workload().kind == WorkloadKind::General;
}

int DimensionModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_doc->workload().dims.size());
}

int DimensionModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DimensionModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Dimension& dim = m_doc->workload().dims[index.row()];
    const bool derived = index.column() == Padded || index.column() == Factors;
    if (role == HelpRole || role == Qt::ToolTipRole) {
        if (derived)
            return tr("Derived: the size the genome's tiling genes split (a prime above %1 is padded to "
                      "the next composite)")
                .arg(kLargePrimeThreshold);
        if (!editable())
            return tr("Derived from the parameters; use \"Make general\" to edit dims one by one");
        return index.column() == Name ? tr("A name: letters, digits and _, not starting with a digit")
                                      : tr("A positive integer up to 2^40");
    }
    if (role == Qt::ForegroundRole && (derived || !editable()))
        return QColor(Qt::darkGray);
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    const std::int64_t padded = paddedSize(dim.size, PaddingMode::LargePrime);
    switch (index.column()) {
    case Name:
        return QString::fromStdString(dim.name);
    case Size:
        return QString::number(dim.size);
    case Padded:
        return QString::number(padded);
    case Factors: {
        QStringList factors;
        for (auto f : primeFactors(padded))
            factors << QString::number(f);
        return factors.isEmpty() ? QStringLiteral("1") : factors.join(QStringLiteral(" · "));
    }
    }
    return {};
}

QVariant DimensionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    static const char* const names[] = {"Dim", "Size", "Padded", "Prime factors"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

Qt::ItemFlags DimensionModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    const bool edit = editable() && (index.column() == Name || index.column() == Size);
    return QAbstractTableModel::flags(index) | (edit ? Qt::ItemIsEditable : Qt::NoItemFlags);
}

bool DimensionModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    const auto refuse = [this](const QString& message) {
        emit rejected(message);
        return false;
    };
    if (!editable())
        return refuse(tr("The dims of %1 follow from its parameters; edit those, or use \"Make general\".")
                          .arg(workloadKindTitle(m_doc->workload().kind)));
    Workload after = m_doc->workload();
    Dimension& dim = after.dims[index.row()];
    const QString text = value.toString().trimmed();
    QString error;
    if (index.column() == Name) {
        if (!isDimName(text))
            return refuse(
                tr("\"%1\" is not a dim name: use letters, digits and _, starting with a letter.").arg(text));
        dim.name = text.toStdString();
    } else if (index.column() == Size) {
        const auto size =
            parseDimensionSize(text, tr("size of %1").arg(QString::fromStdString(dim.name)), error);
        if (!size)
            return refuse(error);
        dim.size = *size;
    } else {
        return refuse(tr("This column is derived and cannot be edited."));
    }
    error = m_doc->edit(std::move(after), tr("Edit dim %1").arg(QString::fromStdString(dim.name)));
    return error.isEmpty() ? true : refuse(error);
}

bool DimensionModel::insertRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || row > rowCount() || count < 1)
        return false;
    if (!editable()) {
        emit rejected(tr("Dims can be added to a general workload only; use \"Make general\" first."));
        return false;
    }
    Workload after = m_doc->workload();
    // New dims go at `row`; every projection onto a later dim moves with it.
    for (auto& tensor : after.tensors)
        for (auto& rank : tensor.ranks)
            for (auto& term : rank)
                if (term.dim >= row)
                    term.dim += count;
    int suffix = 1;
    for (int i = 0; i < count; ++i) {
        std::string name;
        do
            name = "D" + std::to_string(suffix++);
        while (after.dimIndex(name) >= 0);
        after.dims.insert(after.dims.begin() + row + i, Dimension{name, 1});
    }
    // A new dim indexes no tensor yet: the user adds it to a tensor's ranks next.
    const QString error =
        m_doc->edit(std::move(after), tr("Add dim"), WorkloadDocument::Check::AllowIncomplete);
    if (!error.isEmpty())
        emit rejected(error);
    return error.isEmpty();
}

bool DimensionModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count < 1 || row + count > rowCount())
        return false;
    const Workload& w = m_doc->workload();
    if (!editable()) {
        emit rejected(tr("Dims can be removed from a general workload only; use \"Make general\" first."));
        return false;
    }
    for (int d = row; d < row + count; ++d)
        for (std::size_t t = 0; t < w.tensors.size(); ++t)
            if (w.indexes(static_cast<int>(t), d)) {
                emit rejected(tr("Dim %1 indexes tensor %2; remove it from %2's ranks first.")
                                  .arg(QString::fromStdString(w.dims[d].name),
                                       QString::fromStdString(w.tensors[t].name)));
                return false;
            }
    if (count >= rowCount()) {
        emit rejected(tr("A workload needs at least one dim."));
        return false;
    }
    Workload after = w;
    after.dims.erase(after.dims.begin() + row, after.dims.begin() + row + count);
    for (auto& tensor : after.tensors)
        for (auto& rank : tensor.ranks)
            for (auto& term : rank)
                if (term.dim >= row + count)
                    term.dim -= count;
    const QString error = m_doc->edit(std::move(after), tr("Remove dim"));
    if (!error.isEmpty())
        emit rejected(error);
    return error.isEmpty();
}

} // namespace sparsemap::ui
