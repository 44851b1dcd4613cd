#include "tensor_model.hpp"

#include "workload_text.hpp"

#include "arch_editor/editor_support.hpp"
#include "io/index_expression.hpp"
#include "io/units.hpp"
#include "mapping/tile_shape.hpp"

#include <QColor>
#include <QFileInfo>
#include <QRegularExpression>

#include <cmath>

namespace sparsemap::ui {

namespace {

const QString kUniform = QStringLiteral("uniform");
const QString kFixed = QStringLiteral("fixed-structured");
const QString kBanded = QStringLiteral("banded");
const QString kActual = QStringLiteral("actual");

QString number(double value)
{
    return QString::fromStdString(detail::formatNumber(value));
}

std::optional<double> parseFraction(const QString& text)
{
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(value) || !(value > 0.0 && value <= 1.0))
        return std::nullopt;
    return value;
}

} // namespace

TensorModel::TensorModel(WorkloadDocument* doc, QObject* parent) : QAbstractTableModel(parent), m_doc(doc)
{
    connect(doc, &WorkloadDocument::aboutToReset, this, [this] { beginResetModel(); });
    connect(doc, &WorkloadDocument::reset, this, [this] { endResetModel(); });
    connect(doc, &WorkloadDocument::changed, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    });
}

bool TensorModel::structureEditable() const
{
    return m_doc->workload().kind == WorkloadKind::General;
}

int TensorModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_doc->workload().tensors.size());
}

int TensorModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TensorModel::displayText(int row, int column) const
{
    const Workload& w = m_doc->workload();
    const Tensor& t = w.tensors[row];
    const DensitySpec& d = t.density;
    switch (column) {
    case Name:
        return QString::fromStdString(t.name);
    case Ranks:
        return ranksText(t, w.dims);
    case Role:
        return t.isOutput ? QStringLiteral("output") : QStringLiteral("input");
    default:
        break;
    }
    if (t.isOutput)
        return column == Model ? tr("derived") : QString();
    switch (column) {
    case Model:
        return QString::fromUtf8(densityModelName(d.model));
    case Density:
        return number(d.density);
    case StructuredNM:
        return d.model == DensityModelKind::FixedStructured && d.structuredM > 0
                   ? QStringLiteral("%1:%2").arg(d.structuredN).arg(d.structuredM)
                   : QString();
    case Bandwidth:
        return d.model == DensityModelKind::Banded ? QString::number(d.bandwidth) : QString();
    case File:
        return d.model == DensityModelKind::Actual ? QString::fromStdString(d.file) : QString();
    }
    return {};
}

QString TensorModel::help(int row, int column) const
{
    const Tensor& t = m_doc->workload().tensors[row];
    if (column <= Role && !structureEditable())
        return tr("Fixed by the workload type; use \"Make general\" to edit names, ranks and roles");
    if (column > Role && t.isOutput)
        return tr("The output's density is derived by the model");
    switch (column) {
    case Name:
        return tr("A unique tensor name");
    case Ranks:
        return tr("Index expressions, outer to inner, separated by commas, e.g. `C, 2*P + R`");
    case Role:
        return tr("input, or output (exactly one; choosing another output makes this one an input)");
    case Model:
        return tr("uniform (hypergeometric), fixed-structured, banded, or actual (load a data file)");
    case Density:
        return tr("A number in (0, 1]");
    case StructuredNM:
        return tr(
            "n:m, n nonzeros in every m consecutive elements (0 < n <= m), or empty for a density alone");
    case Bandwidth:
        return tr("An integer >= 0: nonzeros where |row - col| <= bandwidth");
    case File:
        return tr("A Matrix Market .mtx file or a 0/1 mask (relative to the workload file)");
    }
    return {};
}

QVariant TensorModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int row = index.row(), column = index.column();
    if (role == HelpRole || role == Qt::ToolTipRole)
        return help(row, column);
    if (role == ChoicesRole) {
        if (column == Role)
            return QStringList{QStringLiteral("input"), QStringLiteral("output")};
        if (column == Model)
            return QStringList{kUniform, kFixed, kBanded, kActual};
        return {};
    }
    if (role == Qt::ForegroundRole && !(flags(index) & Qt::ItemIsEditable))
        return QColor(Qt::darkGray);
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    return displayText(row, column);
}

QVariant TensorModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    static const char* const names[] = {"Tensor",  "Ranks", "Role",      "Density model",
                                        "Density", "n:m",   "Bandwidth", "Data file"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

Qt::ItemFlags TensorModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    const bool output = m_doc->workload().tensors[index.row()].isOutput;
    const bool edit = index.column() <= Role ? structureEditable() : !output;
    return QAbstractTableModel::flags(index) | (edit ? Qt::ItemIsEditable : Qt::NoItemFlags);
}

QString TensorModel::apply(int row, int column, const QString& input, Workload& after) const
{
    Tensor& t = after.tensors[row];
    const QString name = QString::fromStdString(t.name);
    const QString text = input.trimmed();
    if (column <= Role && !structureEditable())
        return tr("The tensors of %1 are fixed by its type; use \"Make general\" to edit them.")
            .arg(workloadKindTitle(after.kind));
    if (column > Role && t.isOutput)
        return tr("%1 is the output: its density is derived by the model.").arg(name);
    DensitySpec& d = t.density;
    switch (column) {
    case Name:
        if (text.isEmpty() || text.contains(QRegularExpression(QStringLiteral("\\s"))))
            return tr("\"%1\" is not a tensor name: give a non-empty name without blanks.").arg(text);
        t.name = text.toStdString();
        return {};
    case Ranks: {
        std::vector<RankProjection> ranks;
        for (const QString& part : text.split(QLatin1Char(','))) {
            const auto parsed = detail::parseIndexExpression(part.trimmed().toStdString(), after.dims);
            if (!parsed.value)
                return tr("Ranks of %1: %2").arg(name, QString::fromStdString(parsed.error));
            ranks.push_back(*parsed.value);
        }
        t.ranks = std::move(ranks);
        return {};
    }
    case Role:
        if (text == QStringLiteral("output")) {
            // Exactly one output: the new one takes the role from the old, which becomes a dense input.
            for (auto& other : after.tensors)
                if (other.isOutput) {
                    other.isOutput = false;
                    other.density = DensitySpec{};
                }
            t.isOutput = true;
            t.density = DensitySpec{};
            return {};
        }
        if (text != QStringLiteral("input"))
            return tr("\"%1\" is not a role: choose input or output.").arg(text);
        if (t.isOutput)
            return tr("A workload needs exactly one output: make another tensor the output instead.");
        return {};
    case Model: {
        const double current = d.density;
        if (text == kUniform || text == QStringLiteral("hypergeometric")) {
            d = DensitySpec{};
            d.density = current;
        } else if (text == kFixed) {
            if (d.model == DensityModelKind::FixedStructured)
                return {};
            d = DensitySpec{};
            d.model = DensityModelKind::FixedStructured;
            d.density = current; // a density alone; n:m can be given next
        } else if (text == kBanded) {
            if (d.model == DensityModelKind::Banded)
                return {};
            if (t.ranks.size() != 2)
                return tr("Banded density needs a tensor of 2 ranks (a matrix); %1 has %2.")
                    .arg(name)
                    .arg(t.ranks.size());
            // The band whose full density comes closest to the current one: (2b + 1) / columns.
            std::vector<std::int64_t> sizes;
            for (const auto& dim : after.dims)
                sizes.push_back(dim.size);
            const auto columns = static_cast<double>(rankExtents(after, row, sizes).back());
            d = DensitySpec{};
            d.model = DensityModelKind::Banded;
            d.bandwidth = std::max<std::int64_t>(0, std::llround((current * columns - 1) / 2));
            d.density = 1.0;
        } else if (text == kActual) {
            if (d.model != DensityModelKind::Actual)
                return tr("Choose the data file of %1 with \"Load .mtx…\" (or type its path in the Data "
                          "file column).")
                    .arg(name);
        } else {
            return tr("\"%1\" is not a density model: choose uniform, fixed-structured, banded or actual.")
                .arg(text);
        }
        return {};
    }
    case Density: {
        if (d.model == DensityModelKind::Actual)
            return tr("The density of %1 comes from its data file.").arg(name);
        if (d.model == DensityModelKind::FixedStructured && d.structuredM > 0)
            return tr("The density of %1 is n/m = %2:%3; edit n:m, or clear it to give a density alone.")
                .arg(name)
                .arg(d.structuredN)
                .arg(d.structuredM);
        const auto value = parseFraction(text);
        if (!value)
            return tr("\"%1\" is not a density: give a number in (0, 1].").arg(text);
        d.density = *value;
        return {};
    }
    case StructuredNM: {
        if (d.model != DensityModelKind::FixedStructured)
            return tr("n:m applies to the fixed-structured model; choose that model for %1 first.").arg(name);
        if (text.isEmpty()) { // keep the density, drop the block structure
            d.structuredN = d.structuredM = 0;
            return {};
        }
        static const QRegularExpression ratio(QStringLiteral("^(\\d+)\\s*:\\s*(\\d+)$"));
        const auto match = ratio.match(text);
        const qlonglong n = match.captured(1).toLongLong(), m = match.captured(2).toLongLong();
        if (!match.hasMatch() || n < 1 || n > m || m > 1'000'000)
            return tr("\"%1\" is not n:m: give n nonzeros in every m elements, 0 < n <= m <= 1000000, "
                      "e.g. 2:4.")
                .arg(text);
        d.structuredN = static_cast<int>(n);
        d.structuredM = static_cast<int>(m);
        d.density = static_cast<double>(n) / static_cast<double>(m);
        return {};
    }
    case Bandwidth: {
        if (d.model != DensityModelKind::Banded)
            return tr("A bandwidth applies to the banded model; choose that model for %1 first.").arg(name);
        bool ok = false;
        const qlonglong band = text.toLongLong(&ok);
        if (!ok || band < 0)
            return tr("\"%1\" is not a bandwidth: give an integer >= 0.").arg(text);
        d.bandwidth = band;
        return {};
    }
    }
    return tr("This column cannot be edited.");
}

bool TensorModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    QString error;
    const QString name = QString::fromStdString(m_doc->workload().tensors[index.row()].name);
    if (index.column() == File) {
        // A path typed here is loaded exactly like one chosen with "Load .mtx…".
        if (m_doc->workload().tensors[index.row()].isOutput)
            error = tr("%1 is the output: its density is derived by the model.").arg(name);
        else
            error = m_doc->setActualDensity(index.row(), value.toString());
    } else {
        Workload after = m_doc->workload();
        error = apply(index.row(), index.column(), value.toString(), after);
        if (error.isEmpty())
            error = m_doc->edit(
                std::move(after),
                tr("Edit %1 of %2").arg(headerData(index.column(), Qt::Horizontal).toString(), name));
    }
    if (!error.isEmpty()) {
        emit rejected(error);
        return false;
    }
    return true;
}

bool TensorModel::insertRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || row > rowCount() || count < 1)
        return false;
    if (!structureEditable()) {
        emit rejected(tr("Tensors can be added to a general workload only; use \"Make general\" first."));
        return false;
    }
    Workload after = m_doc->workload();
    if (after.dims.empty()) {
        emit rejected(tr("Add a dim first: a tensor is indexed by dims."));
        return false;
    }
    int suffix = 1;
    for (int i = 0; i < count; ++i) {
        std::string name;
        do
            name = "T" + std::to_string(suffix++);
        while (after.tensorIndex(name) >= 0);
        after.tensors.insert(after.tensors.begin() + row + i,
                             Tensor{name, {{ProjectionTerm{0, 1}}}, false, {}});
    }
    const QString error =
        m_doc->edit(std::move(after), tr("Add tensor"), WorkloadDocument::Check::AllowIncomplete);
    if (!error.isEmpty())
        emit rejected(error);
    return error.isEmpty();
}

bool TensorModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count < 1 || row + count > rowCount())
        return false;
    if (!structureEditable()) {
        emit rejected(tr("Tensors can be removed from a general workload only; use \"Make general\" first."));
        return false;
    }
    Workload after = m_doc->workload();
    after.tensors.erase(after.tensors.begin() + row, after.tensors.begin() + row + count);
    // The workload may now lack an output or leave a dim unused; the panel lists what to complete.
    const QString error =
        m_doc->edit(std::move(after), tr("Remove tensor"), WorkloadDocument::Check::AllowIncomplete);
    if (!error.isEmpty())
        emit rejected(error);
    return error.isEmpty();
}

} // namespace sparsemap::ui
