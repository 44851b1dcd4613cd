#pragma once
// The bundled sample workloads (WorkloadDocument::sampleNames) as a list: each row shows the name and a
// one-line summary (kind, dims, input densities), read once from the sample's file. A sample that does
// not load shows why and is disabled.
#include <QAbstractListModel>

#include <vector>

namespace sparsemap::ui {

class SampleListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Roles { NameRole = Qt::UserRole + 1, SummaryRole, PathRole };

    explicit SampleListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    int rowOf(const QString& name) const; // -1 when not a sample

private:
    struct Sample {
        QString name;
        QString summary;
        QString path;
        bool valid = false;
    };
    std::vector<Sample> m_samples;
};

} // namespace sparsemap::ui
