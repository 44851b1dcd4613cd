#pragma once
// What the SparseMap genome looks like for the workload being edited on a given architecture: the gene
// table (GeneTableModel), the size of each segment and the design-space size (paper IV: raw = mapping x
// sparse space, and the number of distinct encoded genomes), all as powers of ten. When the layout
// cannot be built (an unfinished general workload, three inputs, ...) the reason is shown instead.
// Rebuilt whenever the workload or the architecture changes; building is cheap (prime factors).
#include "arch/architecture.hpp"
#include "genome/genome_layout.hpp"
#include "workload/workload.hpp"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QTableView;

namespace sparsemap::ui {

class GeneTableModel;

class GenomePanel : public QWidget {
    Q_OBJECT
public:
    explicit GenomePanel(QWidget* parent = nullptr); // starts with the edge preset

    void setWorkload(const Workload& workload);
    void setArchitecture(const Architecture& arch);

    const GenomeLayout* layout() const; // null when it cannot be built
    QString errorText() const { return m_error; }
    GeneTableModel* geneModel() const { return m_genes; }
    QTableView* geneView() const { return m_view; }
    QLabel* segmentLabel() const { return m_segments; }
    QLabel* spaceLabel() const { return m_space; }
    QLabel* errorLabel() const { return m_errorLabel; }

signals:
    void layoutChanged(); // after every rebuild, with or without a layout

private:
    void rebuild();

    std::optional<Workload> m_workload;
    std::optional<Architecture> m_arch;
    QString m_error;
    GeneTableModel* m_genes;
    QLabel* m_title = nullptr;
    QLabel* m_segments = nullptr;
    QLabel* m_space = nullptr;
    QLabel* m_errorLabel = nullptr;
    QTableView* m_view = nullptr;
};

} // namespace sparsemap::ui
