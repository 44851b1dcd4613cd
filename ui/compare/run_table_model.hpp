#pragma once
// The compare table: one row per run of the session, then one per pinned design. A run's metrics are
// those of its best point (by the run's objective); a pinned design's are those of its point. The
// model keeps a summary per row, not the point logs, so that it stays small whatever the runs hold.
//
// DisplayRole is formatted text ("—" where there is no value); SortRole holds the raw value (a
// double, an integer or a text) or an invalid QVariant where there is none, which RunSortProxy keeps
// last in either order.
#include "session/session.hpp"

#include <QAbstractTableModel>
#include <QColor>

#include <cstdint>
#include <optional>
#include <vector>

namespace sparsemap::ui {

class RunTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Kind,
        Method,
        Workload,
        Architecture,
        Seed,
        Budget,
        Evaluations,
        BestEdp,
        Energy,
        Cycles,
        ValidShare,
        Seconds,
        Cancelled,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        RunRole,   // int: the run's index in the session (the pinned design's run for pinned rows)
        PointRole, // qint64: the best point of a run, the pinned point; -1 when none
    };

    struct Row {
        QString name;
        bool pinned = false;
        int run = -1;
        std::int64_t point = -1; // best (run) or pinned point; -1 when the run found nothing valid
        QString method, workload, architecture;
        QColor color; // the run's
        std::uint64_t seed = 0;
        std::int64_t budget = 0;
        std::int64_t evaluations = 0; // a run: points evaluated; a pinned design: its evaluation number
        std::optional<double> edp, energyPj, cycles; // of `point` when it is valid
        std::optional<double> validShare;            // runs only
        std::optional<double> seconds;               // runs only
        std::optional<bool> cancelled;               // runs only
    };

    explicit RunTableModel(QObject* parent = nullptr);

    void setSession(const Session& session);
    const Row& row(int index) const { return m_rows.at(static_cast<std::size_t>(index)); }
    int runCount() const { return m_runCount; }

    // The colour of a run's curve in the compare plots (and of its swatch in the table): the run's own,
    // kept in the session (core/session), as in every other view.
    static QColor runColor(const Session& session, int run);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const Row& r, int column) const;
    QVariant sortValue(const Row& r, int column) const;

    std::vector<Row> m_rows;
    int m_runCount = 0;
};

} // namespace sparsemap::ui
