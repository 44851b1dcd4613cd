#include "parameter_model.hpp"

#include "workload_text.hpp"

#include "arch_editor/editor_support.hpp"
#include "util/error.hpp"
#include "workload/workload_factory.hpp"

#include <QColor>

namespace sparsemap::ui {

namespace {

using Param = ParameterModel::Param;

struct ParamInfo {
    const char* label;
    const char* meaning;
};

ParamInfo info(Param p)
{
    switch (p) {
    case Param::Name:
        return {"Name", "the workload's name"};
    case Param::B:
        return {"B", "batch: independent products"};
    case Param::M:
        return {"M", "rows of P and Z"};
    case Param::K:
        return {"K", "the contracted dimension"};
    case Param::N:
        return {"N", "columns of Q and Z"};
    case Param::ConvN:
        return {"N", "batch (a dim N only when > 1)"};
    case Param::C:
        return {"C", "input channels"};
    case Param::H:
        return {"H", "input height"};
    case Param::W:
        return {"W", "input width"};
    case Param::ConvK:
        return {"K", "output channels"};
    case Param::R:
        return {"R", "filter height"};
    case Param::S:
        return {"S", "filter width"};
    case Param::StrideH:
        return {"Stride H", "vertical stride"};
    case Param::StrideW:
        return {"Stride W", "horizontal stride"};
    case Param::Padding:
        return {"Padding", "same: P = ceil(H / stride); explicit: the zero padding below"};
    case Param::PadH:
        return {"Pad H", "rows of zeros above and below (explicit padding)"};
    case Param::PadW:
        return {"Pad W", "columns of zeros left and right (explicit padding)"};
    }
    return {"", ""};
}

// Where an SpMM / batched parameter lives among the factory's dims.
int spmmDim(WorkloadKind kind, Param p)
{
    const int base = kind == WorkloadKind::BatchedSpMM ? 1 : 0;
    switch (p) {
    case Param::B:
        return 0;
    case Param::M:
        return base;
    case Param::K:
        return base + 1;
    case Param::N:
        return base + 2;
    default:
        return -1;
    }
}

std::int64_t* convField(ConvShape& s, Param p)
{
    switch (p) {
    case Param::ConvN:
        return &s.n;
    case Param::C:
        return &s.c;
    case Param::H:
        return &s.h;
    case Param::W:
        return &s.w;
    case Param::ConvK:
        return &s.k;
    case Param::R:
        return &s.r;
    case Param::S:
        return &s.s;
    case Param::StrideH:
        return &s.strideH;
    case Param::StrideW:
        return &s.strideW;
    case Param::PadH:
        return &s.padH;
    case Param::PadW:
        return &s.padW;
    default:
        return nullptr;
    }
}

} // namespace

ParameterModel::ParameterModel(WorkloadDocument* doc, QObject* parent)
    : QAbstractTableModel(parent), m_doc(doc)
{
    connect(doc, &WorkloadDocument::aboutToReset, this, [this] { beginResetModel(); });
    connect(doc, &WorkloadDocument::reset, this, [this] { endResetModel(); });
    connect(doc, &WorkloadDocument::changed, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0, Value), index(rowCount() - 1, Value));
    });
}

std::vector<Param> ParameterModel::params() const
{
    const Workload& w = m_doc->workload();
    switch (w.kind) {
    case WorkloadKind::SpMM:
        return {Param::Name, Param::M, Param::K, Param::N};
    case WorkloadKind::BatchedSpMM:
        return {Param::Name, Param::B, Param::M, Param::K, Param::N};
    case WorkloadKind::SpConv:
        if (w.conv)
            return {Param::Name,    Param::ConvN, Param::C,   Param::H,       Param::W,
                    Param::ConvK,   Param::R,     Param::S,   Param::StrideH, Param::StrideW,
                    Param::Padding, Param::PadH,  Param::PadW};
        break;
    case WorkloadKind::General:
        break;
    }
    return {Param::Name};
}

int ParameterModel::rowOf(Param param) const
{
    const auto all = params();
    const auto it = std::find(all.begin(), all.end(), param);
    return it == all.end() ? -1 : static_cast<int>(it - all.begin());
}

int ParameterModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(params().size());
}

int ParameterModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ParameterModel::valueText(Param p) const
{
    const Workload& w = m_doc->workload();
    if (p == Param::Name)
        return QString::fromStdString(w.name);
    if (const int d = spmmDim(w.kind, p); d >= 0 && d < static_cast<int>(w.dims.size()))
        return QString::number(w.dims[d].size);
    if (!w.conv)
        return {};
    ConvShape shape = *w.conv;
    if (p == Param::Padding)
        return shape.samePadding ? QStringLiteral("same") : QStringLiteral("explicit");
    if (const auto* field = convField(shape, p))
        return QString::number(*field);
    return {};
}

QVariant ParameterModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Param p = params()[index.row()];
    const ParamInfo i = info(p);
    const bool padInactive = (p == Param::PadH || p == Param::PadW) && m_doc->workload().conv &&
                             m_doc->workload().conv->samePadding;
    if (role == HelpRole || role == Qt::ToolTipRole) {
        if (padInactive)
            return tr("Used with explicit padding only; set Padding to explicit first.");
        if (p == Param::Name)
            return tr("Any non-empty name");
        if (p == Param::Padding)
            return tr("same or explicit");
        if (p == Param::PadH || p == Param::PadW)
            return tr("An integer >= 0");
        return tr("A positive integer (%1)").arg(tr(i.meaning));
    }
    if (role == ChoicesRole && p == Param::Padding && index.column() == Value)
        return QStringList{QStringLiteral("same"), QStringLiteral("explicit")};
    if (role == Qt::ForegroundRole && padInactive && index.column() == Value)
        return QColor(Qt::gray);
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    switch (index.column()) {
    case Parameter:
        return tr(i.label);
    case Value:
        return valueText(p);
    case Meaning:
        return tr(i.meaning);
    }
    return {};
}

QVariant ParameterModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    static const char* const names[] = {"Parameter", "Value", "Meaning"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

Qt::ItemFlags ParameterModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return QAbstractTableModel::flags(index) |
           (index.column() == Value ? Qt::ItemIsEditable : Qt::NoItemFlags);
}

QString ParameterModel::rebuild(Param p, const QString& input, Workload& out) const
{
    const Workload& w = m_doc->workload();
    const QString text = input.trimmed();
    out = w;
    if (p == Param::Name) {
        if (text.isEmpty())
            return tr("The workload needs a name.");
        out.name = text.toStdString();
        return {};
    }
    const QString label = tr(info(p).label);
    QString error;
    if (w.kind == WorkloadKind::SpMM || w.kind == WorkloadKind::BatchedSpMM) {
        const auto size = parseDimensionSize(text, label, error);
        if (!size)
            return error;
        std::vector<std::int64_t> sizes;
        for (const auto& d : w.dims)
            sizes.push_back(d.size);
        sizes.at(spmmDim(w.kind, p)) = *size;
        const DensitySpec& a = w.tensors.at(0).density;
        const DensitySpec& b = w.tensors.at(1).density;
        out = w.kind == WorkloadKind::SpMM
                  ? makeSpmm(w.name, sizes[0], sizes[1], sizes[2], a, b)
                  : makeBatchedSpmm(w.name, sizes[0], sizes[1], sizes[2], sizes[3], a, b);
        return {};
    }
    if (w.kind != WorkloadKind::SpConv || !w.conv)
        return tr("This parameter cannot be edited.");
    ConvShape shape = *w.conv;
    if (p == Param::Padding) {
        if (text != QStringLiteral("same") && text != QStringLiteral("explicit"))
            return tr("\"%1\" is not a padding: choose same or explicit.").arg(text);
        shape.samePadding = text == QStringLiteral("same");
    } else if (p == Param::PadH || p == Param::PadW) {
        if (shape.samePadding)
            return tr("%1 is used with explicit padding only; set Padding to explicit first.").arg(label);
        bool ok = false;
        const qlonglong pad = text.toLongLong(&ok);
        if (!ok || pad < 0 || pad > kMaxDimensionSize)
            return tr("\"%1\" is not a valid %2: give an integer >= 0.").arg(text, label);
        *convField(shape, p) = pad;
    } else {
        const auto size = parseDimensionSize(text, label, error);
        if (!size)
            return error;
        *convField(shape, p) = *size;
    }
    try {
        out = makeSpconv(w.name, shape, w.tensors.at(0).density, w.tensors.at(1).density);
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

bool ParameterModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid) || index.column() != Value)
        return false;
    const Param p = params()[index.row()];
    Workload after;
    QString error = rebuild(p, value.toString(), after);
    if (error.isEmpty())
        error = m_doc->edit(std::move(after), tr("Edit %1").arg(tr(info(p).label)));
    if (!error.isEmpty()) {
        emit rejected(error);
        return false;
    }
    return true;
}

} // namespace sparsemap::ui
