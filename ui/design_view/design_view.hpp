#pragma once
// The workbench's Design view: one design (the best of a run, any clicked point, a loaded design, or
// an imported Sparseloop case) decoded and evaluated. It shows the genome strip (segments coloured,
// every gene explained on hover), the loop nest in the paper's Fig. 4 / Fig. 13 style, the metrics
// with a per-level table, and the energy / access breakdown chart; it exports the design as our
// design YAML or as a Timeloop/Sparseloop folder and imports a Sparseloop folder to evaluate it.
// Further views of the same design (the hardware-behaviour picture) go in as detail tabs.
//
// Evaluating one design takes micro- to milliseconds, so it runs on the GUI thread.
#include "arch/architecture.hpp"
#include "design/design.hpp"
#include "genome/genome_layout.hpp"
#include "io/sparseloop/sparseloop_case.hpp"
#include "model/evaluation_result.hpp"
#include "model/evaluator.hpp"
#include "workload/workload.hpp"

#include <QWidget>
#include <memory>
#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QTabWidget;

namespace sparsemap::ui {

namespace design {
class BreakdownChart;
class DesignMetricsPanel;
class GenomeStrip;
} // namespace design

class ElidedLabel;

class DesignView : public QWidget {
    Q_OBJECT
public:
    explicit DesignView(QWidget* parent = nullptr);
    ~DesignView() override;

    // Decodes and evaluates `genome` on `layout` with `options` (a run's: RunRecord::modelOptions) and
    // shows it under `title`. Returns an error message (the genome does not fit the layout) or an empty
    // string; on error the view keeps what it showed.
    QString showGenome(std::shared_ptr<const GenomeLayout> layout, const Genome& genome, const QString& title,
                       const model::ModelOptions& options = {});
    // The same for a genome evaluated already (a run's best, search::BestDesign): `evaluated` is the
    // design the model evaluated with `options`, `result` its result; nothing is evaluated again.
    QString showEvaluatedGenome(std::shared_ptr<const GenomeLayout> layout, const Genome& genome,
                                const Design& evaluated, const model::EvaluationResult& result,
                                const QString& title, const model::ModelOptions& options = {});
    // An imported case has no genome: it is evaluated the way `sparsemap evaluate --sparseloop` does
    // (sparseloopModelOptions, sparseloopDesign). Returns an error message or an empty string.
    QString showSparseloopCase(const SparseloopCase& sparseloopCase, const QString& title);
    // importSparseloopCase(dir), then showSparseloopCase. Errors come back (and show in the view's
    // message line) with the view's design unchanged.
    QString importSparseloop(const QString& dir);

    // Our design YAML with the metrics; only for a design with a genome (else a message).
    QString exportDesignYaml(const QString& path) const;
    // aggregated_input.yaml + ERT.yaml into `dir` (created if needed).
    QString exportSparseloop(const QString& dir) const;
    // After exporting a genome design to `dir`: reads the case back and evaluates it as Sparseloop
    // would (its own rank binding, worst-case capacity, compute S/G on every operand). Returns a note
    // with both results when they differ, else an empty string.
    QString sparseloopExportNote(const QString& dir) const;

    bool hasDesign() const { return m_hasDesign; }
    QString title() const { return m_title; }
    ElidedLabel* titleLabel() const { return m_titleLabel; }
    // The workload as evaluated (for a genome: with the layout's padded dims), the architecture, the
    // design, and the model's result. Default-constructed while hasDesign() is false.
    const Workload& workload() const { return m_workload; }
    const Architecture& architecture() const { return m_arch; }
    const Design& design() const { return m_design; }
    const model::EvaluationResult& result() const { return m_result; }
    // Set for a genome design, null / empty for an imported case.
    std::shared_ptr<const GenomeLayout> layout() const { return m_layout; }
    const std::optional<Genome>& genome() const { return m_genome; }
    const SparseloopCase* sparseloopCase() const { return m_case ? &*m_case : nullptr; }

    // Appends a tab beside Metrics and Breakdown (the view takes ownership of `widget`). A widget with
    // the property "sparsemapWideDetail" set takes the view's whole width while it is shown.
    void addDetailTab(QWidget* widget, const QString& title);

    design::GenomeStrip* genomeStrip() const { return m_strip; }
    QPlainTextEdit* loopNestView() const { return m_loopNest; }
    design::DesignMetricsPanel* metricsPanel() const { return m_metrics; }
    design::BreakdownChart* breakdownChart() const { return m_breakdown; }
    QTabWidget* detailTabs() const { return m_tabs; }
    QLabel* messageLabel() const { return m_message; }
    QPushButton* importButton() const { return m_importButton; }
    QPushButton* exportYamlButton() const { return m_exportYamlButton; }
    QPushButton* exportSparseloopButton() const { return m_exportSparseloopButton; }

public slots:
    void chooseImportFolder();
    void chooseExportYaml();
    void chooseExportSparseloop();

signals:
    void designChanged();

private:
    void showGenomeResult(std::shared_ptr<const GenomeLayout> layout, const Genome& genome, Design design,
                          model::EvaluationResult result, Workload workload, const QString& title,
                          const model::ModelOptions& options);
    void refresh();
    void showMessage(const QString& text, bool error);
    void showSelectedGene(int gene);

    bool m_hasDesign = false;
    QString m_title;
    Workload m_workload;
    Architecture m_arch;
    Design m_design;
    model::EvaluationResult m_result;
    std::shared_ptr<const GenomeLayout> m_layout;
    std::optional<Genome> m_genome;
    model::ModelOptions m_modelOptions; // the genome design's, recorded in an exported design YAML
    std::optional<SparseloopCase> m_case;

    ElidedLabel* m_titleLabel = nullptr;
    QLabel* m_info = nullptr;
    QLabel* m_message = nullptr;
    QPushButton* m_importButton = nullptr;
    QPushButton* m_exportYamlButton = nullptr;
    QPushButton* m_exportSparseloopButton = nullptr;
    design::GenomeStrip* m_strip = nullptr;
    QWidget* m_stripScroll = nullptr;
    QLabel* m_geneLine = nullptr;
    QPlainTextEdit* m_loopNest = nullptr;
    design::DesignMetricsPanel* m_metrics = nullptr;
    design::BreakdownChart* m_breakdown = nullptr;
    QTabWidget* m_tabs = nullptr;
    QSplitter* m_splitter = nullptr; // the loop nest | the detail tabs
    QList<int> m_nestSizes;          // the splitter's sizes before a wide tab folded the nest
};

} // namespace sparsemap::ui
