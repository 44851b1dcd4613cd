#include "storage_level_model.hpp"

#include "architecture_commands.hpp"
#include "editor_support.hpp"
#include "io/units.hpp"

#include <QStringList>

namespace sparsemap::ui {

namespace {

const QStringList kTechnologies = {"DRAM", "SRAM", "regfile"};

QString help(int column)
{
    switch (column) {
    case StorageLevelModel::Name:
        return QObject::tr("A name, unique among the levels");
    case StorageLevelModel::Technology:
        return QObject::tr("DRAM, SRAM or regfile (informational)");
    case StorageLevelModel::Instances:
        return QObject::tr("Copies in the whole accelerator: a positive multiple of the level above that "
                           "divides the level below (and is divisible by mesh_x)");
    case StorageLevelModel::Mesh:
        return QObject::tr("The grid of instances, %1; sets the instances to X * Y. `auto` = a square-ish "
                           "default grid")
            .arg(gridForms());
    case StorageLevelModel::Capacity:
        return QString::fromStdString(std::string("Data capacity per instance: ") +
                                      std::string(detail::kCapacityForms) +
                                      "; `unbounded` for the outermost level only");
    case StorageLevelModel::MetadataCapacity:
        return QString::fromStdString(std::string("A separate metadata store per instance: ") +
                                      std::string(detail::kCapacityForms) +
                                      " (words of the metadata word bits); empty = shares the data capacity");
    case StorageLevelModel::WordBits:
        return QObject::tr("Bits per data word: a positive integer (at most 4096)");
    case StorageLevelModel::MetadataWordBits:
        return QObject::tr("Bits per metadata word: a positive integer (at most 4096)");
    case StorageLevelModel::BlockSize:
        return QObject::tr("Data words per physical access: a positive integer");
    default:
        return QString::fromStdString("Per instance: " + std::string(detail::kBandwidthForms));
    }
}

QString bandwidthText(double wordsPerCycle, int role)
{
    if (wordsPerCycle == 0 && role == Qt::DisplayRole)
        return QObject::tr("unlimited");
    return QString::fromStdString(detail::formatNumber(wordsPerCycle));
}

// A positive whole number, or nullopt.
std::optional<qlonglong> positiveInteger(const QString& text)
{
    bool ok = false;
    const qlonglong n = text.toLongLong(&ok);
    return ok && n > 0 ? std::optional(n) : std::nullopt;
}

} // namespace

StorageLevelModel::StorageLevelModel(ArchitectureDocument* doc, QObject* parent)
    : ArchitectureTableModel(doc, ColumnCount, parent)
{
    // The document announces each change before and after it happens, as the model protocol needs.
    followDocumentResets();
    connect(doc, &ArchitectureDocument::levelsAboutToBeInserted, this,
            [this](int first, int last) { beginInsertRows({}, first, last); });
    connect(doc, &ArchitectureDocument::levelsInserted, this, [this] { endInsertRows(); });
    connect(doc, &ArchitectureDocument::levelsAboutToBeRemoved, this,
            [this](int first, int last) { beginRemoveRows({}, first, last); });
    connect(doc, &ArchitectureDocument::levelsRemoved, this, [this] { endRemoveRows(); });
    connect(doc, &ArchitectureDocument::levelChanged, this,
            [this](int row) { emit dataChanged(index(row, 0), index(row, ColumnCount - 1)); });
}

int StorageLevelModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_doc->architecture().levelCount();
}

QVariant StorageLevelModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const StorageLevel& level = m_doc->architecture().levels[index.row()];
    if (role == HelpRole || role == Qt::ToolTipRole)
        return help(index.column());
    if (role == ChoicesRole)
        return index.column() == Technology ? kTechnologies : QStringList{};
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    switch (index.column()) {
    case Name:
        return QString::fromStdString(level.name);
    case Technology:
        return QString::fromStdString(level.technology);
    case Instances:
        return QString::number(level.instances);
    case Mesh:
        if (level.meshX > 0)
            return gridText(level.instances, level.meshX);
        return display ? tr("%1 (auto)").arg(gridText(level.instances, 0)) : QStringLiteral("auto");
    case Capacity:
        return QString::fromStdString(detail::formatCapacity(level.capacityBits));
    case MetadataCapacity:
        if (level.metadataCapacityBits == 0)
            return display ? tr("shared") : QString();
        return QString::fromStdString(detail::formatCapacity(level.metadataCapacityBits));
    case WordBits:
        return QString::number(level.wordBits);
    case MetadataWordBits:
        return QString::number(level.metadataWordBits);
    case BlockSize:
        return QString::number(level.blockSize);
    case ReadBandwidth:
        return bandwidthText(level.readBandwidth, role);
    case WriteBandwidth:
        return bandwidthText(level.writeBandwidth, role);
    }
    return {};
}

QVariant StorageLevelModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Two-line titles keep the eleven columns narrow enough to show side by side.
    static const QStringList titles = {
        tr("Name"),           tr("Technology"),          tr("Instances"),           tr("Mesh\n(X x Y)"),
        tr("Capacity"),       tr("Metadata\ncapacity"),  tr("Word\nbits"),          tr("Metadata\nword bits"),
        tr("Block\n(words)"), tr("Read\n(words/cycle)"), tr("Write\n(words/cycle)")};
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal)
        return help(section);
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    return section >= 0 && section < titles.size() ? titles[section] : QVariant{};
}

QString StorageLevelModel::validate(int row, int column, const QString& input, Architecture& arch) const
{
    StorageLevel& level = arch.levels[row];
    const QString text = input.trimmed();
    const std::string utf8 = text.toStdString();
    switch (column) {
    case Name:
        if (text.isEmpty())
            return tr("A level needs a name.");
        for (int i = 0; i < arch.levelCount(); ++i) {
            if (i != row && arch.levels[i].name == utf8)
                return tr("Another level is already called \"%1\".").arg(text);
        }
        level.name = utf8;
        return {};
    case Technology:
        if (!kTechnologies.contains(text))
            return tr("The technology must be one of %1.").arg(kTechnologies.join(", "));
        level.technology = utf8;
        return {};
    case Instances: {
        const auto n = positiveInteger(text);
        if (!n)
            return tr("\"%1\" is not a positive number of instances.").arg(text);
        if (row > 0 && *n % arch.levels[row - 1].instances != 0)
            return tr("Instances must be a multiple of the level above (%1).")
                .arg(arch.levels[row - 1].instances);
        level.instances = *n;
        return {};
    }
    case Mesh: {
        if (text.compare("auto", Qt::CaseInsensitive) == 0 || text.isEmpty()) {
            level.meshX = 0;
            return {};
        }
        const auto grid = parseGrid(text);
        if (!grid)
            return tr("\"%1\" is not a grid: give %2, or `auto`.").arg(text, gridForms());
        // The fan-out from the level above and into the level below is the core's to judge.
        level.instances = grid->columns * grid->rows;
        level.meshX = grid->columns;
        return {};
    }
    case Capacity: {
        const auto parsed = detail::parseCapacityBits(utf8, level.wordBits);
        if (!parsed.value)
            return QString::fromStdString(parsed.error);
        if (*parsed.value == 0 && row != 0)
            return tr("Only the outermost level may be unbounded.");
        level.capacityBits = *parsed.value;
        return {};
    }
    case MetadataCapacity: {
        if (text.isEmpty() || text.compare("shared", Qt::CaseInsensitive) == 0) {
            level.metadataCapacityBits = 0;
            return {};
        }
        const auto parsed = detail::parseCapacityBits(utf8, level.metadataWordBits);
        if (!parsed.value)
            return QString::fromStdString(parsed.error) + tr("; leave it empty to share the data capacity.");
        if (*parsed.value == 0)
            return tr("A separate metadata store needs a size; leave it empty to share the data capacity.");
        level.metadataCapacityBits = *parsed.value;
        return {};
    }
    case WordBits:
    case MetadataWordBits: {
        const auto bits = positiveInteger(text);
        if (!bits || *bits > 4096)
            return tr("\"%1\" is not a word width: give a positive number of bits, at most 4096.").arg(text);
        (column == WordBits ? level.wordBits : level.metadataWordBits) = static_cast<int>(*bits);
        return {};
    }
    case BlockSize: {
        const auto words = positiveInteger(text);
        if (!words || *words > 1'000'000)
            return tr("\"%1\" is not a block size: give a positive number of words, at most 1000000.")
                .arg(text);
        level.blockSize = static_cast<int>(*words);
        return {};
    }
    default: {
        const auto parsed = detail::parseBandwidthWordsPerCycle(utf8, level.wordBits, arch.clockGHz);
        if (!parsed.value)
            return QString::fromStdString(parsed.error);
        if (*parsed.value < 0)
            return tr("A bandwidth cannot be negative (0 means unlimited).");
        (column == ReadBandwidth ? level.readBandwidth : level.writeBandwidth) = *parsed.value;
        return {};
    }
    }
}

bool StorageLevelModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    Architecture arch = m_doc->architecture();
    const QString error = validate(index.row(), index.column(), value.toString(), arch);
    const QString what = headerData(index.column(), Qt::Horizontal).toString().toLower().replace('\n', ' ');
    const QString text = tr("Edit %1 of %2").arg(what, QString::fromStdString(arch.levels[index.row()].name));
    return commitEdit(std::move(arch), error, text);
}

bool StorageLevelModel::insertRows(int row, int count, const QModelIndex& parent)
{
    const Architecture& current = m_doc->architecture();
    if (parent.isValid() || row < 0 || row > current.levelCount() || count < 1 || current.levels.empty())
        return false;
    Architecture candidate = current;
    std::vector<StorageLevel> added;
    for (int i = 0; i < count; ++i) {
        StorageLevel level = current.levels[std::max(0, row - 1)];
        for (int n = candidate.levelCount() + 1; candidate.levelIndex(level.name) >= 0; ++n)
            level.name = "Level " + std::to_string(n);
        candidate.levels.insert(candidate.levels.begin() + row + i, level);
        added.push_back(level);
    }
    if (const QString error = newProblem(current, candidate); !error.isEmpty())
        return refuse(error);
    m_doc->undoStack()->push(new InsertLevelsCommand(m_doc, row, std::move(added)));
    return true;
}

bool StorageLevelModel::removeRows(int row, int count, const QModelIndex& parent)
{
    const Architecture& current = m_doc->architecture();
    if (parent.isValid() || row < 0 || count < 1 || row + count > current.levelCount())
        return false;
    Architecture candidate = current;
    candidate.levels.erase(candidate.levels.begin() + row, candidate.levels.begin() + row + count);
    if (const QString error = newProblem(current, candidate); !error.isEmpty())
        return refuse(error);
    m_doc->undoStack()->push(new RemoveLevelsCommand(m_doc, row, count));
    return true;
}

} // namespace sparsemap::ui
