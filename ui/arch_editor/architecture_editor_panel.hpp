#pragma once
// The architecture editor: preset buttons, Open / Save, undo / redo, a "modified" marker, the table of
// storage levels, the compute properties, the energy table of the selected component and a diagram of
// the hierarchy. The panel only wires things together; the models decide what is valid.
#include <QWidget>

class QLabel;
class QTableView;

namespace sparsemap::ui {

class ArchitectureDocument;
class ComputeModel;
class EnergyTableModel;
class HierarchyDiagram;
class StorageLevelModel;

class ArchitectureEditorPanel : public QWidget {
    Q_OBJECT
public:
    explicit ArchitectureEditorPanel(QWidget* parent = nullptr);

    ArchitectureDocument* document() const { return m_doc; }
    StorageLevelModel* levelModel() const { return m_levels; }
    EnergyTableModel* energyModel() const { return m_energy; }
    ComputeModel* computeModel() const { return m_compute; }
    QLabel* modifiedMarker() const { return m_modifiedMarker; }
    QLabel* messageLabel() const { return m_message; }

    void openFile(const QString& path); // errors go to the message line
    void saveFile(const QString& path);

private:
    QWidget* makeToolBar();
    void showMessage(const QString& message, bool error);
    void updateTitle();

    ArchitectureDocument* m_doc;
    StorageLevelModel* m_levels;
    ComputeModel* m_compute;
    EnergyTableModel* m_energy;
    QTableView* m_levelView = nullptr;
    QLabel* m_energyTitle = nullptr;
    QLabel* m_modifiedMarker = nullptr;
    QLabel* m_message = nullptr;
    bool m_messageIsError = false;
    HierarchyDiagram* m_diagram = nullptr;
};

} // namespace sparsemap::ui
