#pragma once
// The workload editor: New (of a chosen kind), Open / Save / Save As, undo / redo, the bundled samples
// on the left, the parameter, dim and tensor tables in the middle (with a "Load .mtx…" button per input
// tensor), and the genome the workload gives on the architecture being edited on the right. The panel
// only wires things together; the models and the document decide what is valid, and every refusal
// lands in the message line.
#include <QWidget>

#include <functional>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QListView;
class QTableView;

namespace sparsemap {
struct Architecture;
}

namespace sparsemap::ui {

class DimensionModel;
class GenomePanel;
class ParameterModel;
class SampleListModel;
class TensorModel;
class WorkloadDocument;

class WorkloadEditorPanel : public QWidget {
    Q_OBJECT
public:
    explicit WorkloadEditorPanel(QWidget* parent = nullptr);

    WorkloadDocument* document() const { return m_doc; }
    // The architecture the genome panel lays the genome out for (the lead passes the edited one).
    void setArchitecture(const Architecture& arch);
    // Asked before New, Open or a sample replaces a modified workload; false keeps the workload. Unset,
    // the workload is replaced without asking.
    void setConfirmDiscard(std::function<bool()> confirm) { m_confirmDiscard = std::move(confirm); }

    // Each reports success or the error in the message line; false when nothing was loaded or saved.
    bool openFile(const QString& path);
    bool saveFile(const QString& path);
    bool openSample(const QString& name);
    bool newWorkload(int kind); // a WorkloadKind
    bool loadDensityFile(int tensor, const QString& path);

    ParameterModel* parameterModel() const { return m_params; }
    DimensionModel* dimensionModel() const { return m_dims; }
    TensorModel* tensorModel() const { return m_tensors; }
    SampleListModel* sampleModel() const { return m_samples; }
    QListView* sampleView() const { return m_sampleView; }
    QTableView* parameterView() const { return m_paramView; }
    QTableView* dimensionView() const { return m_dimView; }
    QTableView* tensorView() const { return m_tensorView; }
    GenomePanel* genomePanel() const { return m_genome; }
    QLabel* messageLabel() const { return m_message; }
    QLabel* problemLabel() const { return m_problems; }
    QLabel* modifiedMarker() const { return m_modifiedMarker; }

private:
    QWidget* makeToolBar();
    QWidget* makeTables();
    bool mayDiscard();
    void showMessage(const QString& message, bool error);
    void updateTitle();
    void updateProblems();
    void rebuildLoadButtons();

    WorkloadDocument* m_doc;
    ParameterModel* m_params;
    DimensionModel* m_dims;
    TensorModel* m_tensors;
    SampleListModel* m_samples;
    std::function<bool()> m_confirmDiscard;
    QComboBox* m_kindChooser = nullptr;
    QListView* m_sampleView = nullptr;
    QTableView* m_paramView = nullptr;
    QTableView* m_dimView = nullptr;
    QTableView* m_tensorView = nullptr;
    QWidget* m_dimButtons = nullptr;
    QWidget* m_tensorButtons = nullptr;
    QHBoxLayout* m_loadButtons = nullptr;
    GenomePanel* m_genome = nullptr;
    QLabel* m_modifiedMarker = nullptr;
    QLabel* m_problems = nullptr;
    QLabel* m_message = nullptr;
    bool m_messageIsError = false;
};

} // namespace sparsemap::ui
