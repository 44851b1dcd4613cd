#pragma once
// The CGRA analysis view (the CGRA SparseMap paper as a second kind of mapping analysis): pick a
// streaming CGRA (the paper's 4 x 4 preset or any N x M, LRF, GRF, multicast), a source of sparse
// blocks (random C x K with a zero probability and seed, the paper's seven blocks, a mask file, or a
// block cut from a bundled SpConv workload's weight density) and the schedulers to compare; Map runs
// them off the GUI thread. The table lists every (block, scheduler) with MII, II_0, COPs, MCIDs,
// mapped-at-II_0, final II and speed-up; selecting a row shows its modulo schedule as a time x PE grid
// with buses, COPs and MCIDs highlighted.
#include "cgra/block_mapper.hpp"

#include <QWidget>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QStackedWidget;
class QTableView;

namespace sparsemap::ui {

class CgraMappingWorker;
class CgraResultModel;
class ModuloScheduleWidget;

class CgraView : public QWidget {
    Q_OBJECT
public:
    enum class Source { Random, PaperBlocks, MaskFile, SpConv };

    explicit CgraView(QWidget* parent = nullptr);
    ~CgraView() override;

    cgra::CgraSpec cgraSpec() const;
    void setCgraSpec(const cgra::CgraSpec& cgra);
    void setSource(Source source);
    void setRandomBlocks(int channels, int kernels, double zeroProbability, quint64 seed, int count);
    // Reads and checks the mask now; on error shows the message in the status line and returns false.
    bool loadMaskFile(const QString& path);
    void setVariants(const std::vector<cgra::MappingVariant>& variants);
    std::vector<cgra::MappingVariant> variants() const;

    // The blocks the controls describe; throws InputError (e.g. no mask loaded, C larger than the layer).
    std::vector<cgra::SparseBlock> blocksFromControls() const;
    // Clears the table and maps the blocks from the controls with the chosen schedulers (off the GUI
    // thread). Returns false when a run is in progress or the inputs are invalid (status line says why).
    bool startMapping();
    void cancel();
    bool isBusy() const;

    CgraResultModel* resultModel() const { return m_model; }
    ModuloScheduleWidget* scheduleWidget() const { return m_schedule; }
    QTableView* table() const { return m_table; }
    QString statusText() const;
    void selectRow(int row); // a row of the result model (not of the sorted view)

signals:
    void mappingFinished(bool cancelled);

private:
    QWidget* buildControls();
    void onMappingReady(const cgra::BlockMapping& mapping);
    void onFinished(bool cancelled);
    void showRow(int modelRow);
    void setStatus(const QString& text, bool error);
    void updateBusy(bool busy);

    // controls
    QSpinBox *m_rows, *m_cols, *m_lrf, *m_grf;
    QCheckBox* m_multicast;
    QComboBox* m_source;
    QStackedWidget* m_sourcePages;
    QSpinBox *m_channels, *m_kernels, *m_seed, *m_count;
    QDoubleSpinBox* m_zeroProbability;
    QLabel* m_maskLabel;
    QComboBox* m_workload;
    QSpinBox *m_convChannels, *m_convKernels, *m_convSeed;
    std::vector<QCheckBox*> m_variantBoxes;
    QPushButton *m_map, *m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    // results
    QLabel* m_summary;
    QTableView* m_table;
    QSortFilterProxyModel* m_proxy;
    CgraResultModel* m_model;
    ModuloScheduleWidget* m_schedule;
    QLabel* m_details;
    CgraMappingWorker* m_worker;

    std::vector<cgra::SparseBlock> m_running; // blocks of the current run, to size the table rows
    cgra::CgraSpec m_runCgra;
    std::optional<cgra::SparseBlock> m_mask;
    QString m_maskPath;
};

} // namespace sparsemap::ui
