#include "sample_list_model.hpp"

#include "workload_document.hpp"
#include "workload_text.hpp"

#include "io/workload_io.hpp"

#include <exception>

namespace sparsemap::ui {

SampleListModel::SampleListModel(QObject* parent) : QAbstractListModel(parent)
{
    for (const QString& name : WorkloadDocument::sampleNames()) {
        Sample sample{name, {}, WorkloadDocument::samplePath(name)};
        try {
            sample.summary = workloadSummary(loadWorkloadFile(sample.path.toStdString()));
            sample.valid = true;
        } catch (const std::exception& e) {
            sample.summary = tr("cannot be loaded: %1").arg(QString::fromUtf8(e.what()));
        }
        m_samples.push_back(std::move(sample));
    }
}

int SampleListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_samples.size());
}

QVariant SampleListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Sample& s = m_samples[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return s.name + QLatin1Char('\n') + s.summary;
    case Qt::ToolTipRole:
        return s.path + QLatin1Char('\n') + s.summary;
    case NameRole:
        return s.name;
    case SummaryRole:
        return s.summary;
    case PathRole:
        return s.path;
    default:
        return {};
    }
}

Qt::ItemFlags SampleListModel::flags(const QModelIndex& index) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return Qt::NoItemFlags;
    return m_samples[index.row()].valid ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::NoItemFlags;
}

int SampleListModel::rowOf(const QString& name) const
{
    for (std::size_t i = 0; i < m_samples.size(); ++i)
        if (m_samples[i].name == name)
            return static_cast<int>(i);
    return -1;
}

} // namespace sparsemap::ui
